import {
  API,
  API_KEY_HEADER,
  buildPath,
  errorResponseSchema,
  isActiveJobStatus,
  type ApiBody,
  type ApiName,
  type ApiResponse,
  type GenerateVideoBody,
  type VideoJob,
} from '@reelsmith/contracts';

export interface ClientOptions {
  /** e.g. https://reelsmith.example (no trailing slash needed). */
  baseUrl: string;
  /** From Settings → Developer, or POST /auth/api-keys. Keep it on your server. */
  apiKey: string;
  fetch?: typeof fetch;
}

export class ReelsmithApiError extends Error {
  override name = 'ReelsmithApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The error of a non-2xx answer: the API's own message and field when its body is the error shape. */
export function apiErrorFrom(status: number, json: unknown): ReelsmithApiError {
  const error = errorResponseSchema.safeParse(json);
  return new ReelsmithApiError(status, error.success ? error.data.message : `HTTP ${status}`, error.success ? error.data.field : undefined);
}

export interface WaitOptions {
  /** Between status reads (default 2000 ms). */
  intervalMs?: number;
  /** Give up after this long (default 15 minutes). */
  timeoutMs?: number;
  /** Called with every status read. */
  onProgress?: (job: VideoJob) => void;
  signal?: AbortSignal;
}

/** A typed client of the Reelsmith API, built from the same contracts the server validates with. */
export function createClient({ baseUrl, apiKey, fetch: fetchImpl = globalThis.fetch }: ClientOptions) {
  const base = baseUrl.replace(/\/+$/, '');

  async function call<N extends ApiName>(
    name: N,
    input: { body?: ApiBody<N>; query?: Record<string, string | number>; params?: Record<string, string> } = {},
  ): Promise<ApiResponse<N>> {
    const contract = API[name];
    const query = input.query ? `?${new URLSearchParams(Object.entries(input.query).map(([k, v]) => [k, String(v)])).toString()}` : '';
    const response = await fetchImpl(`${base}${buildPath(contract.path, input.params)}${query}`, {
      method: contract.method,
      headers: {
        [API_KEY_HEADER]: apiKey,
        accept: 'application/json',
        ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
    });
    // A file the API answers as text (a caption file) is the response itself; errors are always JSON.
    const isText = response.ok && !/json/i.test(response.headers.get('content-type') ?? 'application/json');
    const json: unknown = isText ? await response.text() : await response.json().catch(() => null);
    if (!response.ok) throw apiErrorFrom(response.status, json);
    return contract.response.parse(json) as ApiResponse<N>;
  }

  const client = {
    /** POST /api/videos/generate → { jobId, status, message } */
    generate: (body: GenerateVideoBody) => call('generateVideo', { body: body as ApiBody<'generateVideo'> }),
    /** GET /api/videos/:id → { job, result } */
    get: (jobId: string) => call('video', { params: { id: jobId } }),
    /** GET /api/videos → { jobs } (newest first) */
    list: ({ limit = 100 }: { limit?: number } = {}) => call('listVideos', { query: { limit } }),
    /** Polls the job until it is no longer active; resolves with the finished job (completed, failed or cancelled). */
    async waitFor(jobId: string, { intervalMs = 2000, timeoutMs = 15 * 60_000, onProgress, signal }: WaitOptions = {}): Promise<VideoJob> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        signal?.throwIfAborted();
        const job = await call('videoStatus', { params: { id: jobId } });
        onProgress?.(job);
        if (!isActiveJobStatus(job.status)) return job;
        if (Date.now() + intervalMs > deadline)
          throw new ReelsmithApiError(408, `Job ${jobId} was still ${job.status} after ${Math.round(timeoutMs / 1000)} s`);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    /** GET /api/videos/:id/captions → the narration's captions as a SubRip (default) or WebVTT file's text. */
    captions: (jobId: string, { format = 'srt', version }: { format?: 'srt' | 'vtt'; version?: number } = {}) =>
      call('videoCaptions', { params: { id: jobId }, query: { format, ...(version ? { version } : {}) } }),
    /** PUT /api/videos/:id/post → the post kit (title, description, hashtags) as saved. */
    updatePost: (jobId: string, post: ApiBody<'updatePostKit'>) => call('updatePostKit', { params: { id: jobId }, body: post }),
    /** Any route of the contracts, typed. */
    call,
  };
  return client;
}

export type ReelsmithClient = ReturnType<typeof createClient>;
