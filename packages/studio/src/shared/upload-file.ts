import { errorResponseSchema, uploadResponseSchema, type UploadResponse } from '@reelsmith/contracts';
import { ApiError, type ApiClient } from '../api/api-client.js';

/**
 * POST /api/uploads (multipart, field `file`): the JSON client cannot send a file, so this one call is
 * separate. `purpose: 'logo'` keeps the picture's transparency.
 */
export async function uploadFile(
  api: ApiClient,
  token: string | null,
  file: File,
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
  purpose?: 'logo',
): Promise<UploadResponse> {
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetchImpl(`${api.baseUrl}/api/uploads${purpose ? `?purpose=${purpose}` : ''}`, {
      method: 'POST',
      body: form,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch (cause) {
    throw new ApiError('Network error: the server could not be reached', 0, { fromServer: false, cause });
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = errorResponseSchema.safeParse(json);
    if (parsed.success) throw new ApiError(parsed.data.message, response.status, { field: parsed.data.field, fromServer: true });
    throw new ApiError(`The upload failed with status ${response.status}`, response.status, { fromServer: false });
  }
  return uploadResponseSchema.parse(json);
}
