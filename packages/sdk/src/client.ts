import {
  API,
  API_KEY_HEADER,
  batchErrorResponseSchema,
  buildPath,
  type BatchDetail,
  type BatchRowError,
  type CreateBatchBody,
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

/** What a refused batch's 400 adds: each invalid row, or the videos it needs against those the plan has left. */
export interface BatchErrorDetails {
  invalidRows?: BatchRowError[];
  needed?: number;
  remaining?: number;
}

export class ReelsmithApiError extends Error {
  override name = 'ReelsmithApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** Present on a refused batch (POST /api/batches). */
    readonly batch?: BatchErrorDetails,
  ) {
    super(message);
  }
}

/** The error of a non-2xx answer: the API's own message and field when its body is the error shape (a batch's extra fields too). */
export function apiErrorFrom(status: number, json: unknown): ReelsmithApiError {
  // The batch's error is the usual error with optional extras, so it reads every error body.
  const error = batchErrorResponseSchema.safeParse(json);
  if (!error.success) return new ReelsmithApiError(status, `HTTP ${status}`);
  const { invalidRows, needed, remaining } = error.data;
  const batch = invalidRows || needed !== undefined || remaining !== undefined ? { invalidRows, needed, remaining } : undefined;
  return new ReelsmithApiError(status, error.data.message, error.data.field, batch);
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

  /** POST /api/batches with the CSV as multipart `file` (fetch sets the multipart boundary itself). */
  async function createBatchFromCsv(csv: string | Blob, { name, defaults }: Omit<CreateBatchBody, 'rows'> = {}): Promise<BatchDetail> {
    const form = new FormData();
    if (name !== undefined) form.append('name', name);
    if (defaults !== undefined) form.append('defaults', JSON.stringify(defaults));
    form.append('file', typeof csv === 'string' ? new Blob([csv], { type: 'text/csv' }) : csv, 'batch.csv');
    const response = await fetchImpl(`${base}${API.createBatch.path}`, {
      method: 'POST',
      headers: { [API_KEY_HEADER]: apiKey, accept: 'application/json' },
      body: form,
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) throw apiErrorFrom(response.status, json);
    return API.createBatch.response.parse(json);
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
    /** Many videos from one list: one ordinary job per row (each also in list() and get()). */
    batches: {
      /**
       * POST /api/batches: `{ name?, defaults, rows }` (1–100 rows; each row's options override the
       * defaults), or `{ csv, name?, defaults? }` with a CSV's text (header: topic, script, url, language,
       * duration, resolution, style, visualStyle, captionStyle, music, voice). A refused batch throws a
       * ReelsmithApiError whose `batch` lists the invalid rows, or the videos needed and left.
       */
      create: (batch: CreateBatchBody | ({ csv: string | Blob } & Omit<CreateBatchBody, 'rows'>)): Promise<BatchDetail> =>
        'csv' in batch
          ? createBatchFromCsv(batch.csv, { name: batch.name, defaults: batch.defaults })
          : call('createBatch', { body: batch as ApiBody<'createBatch'> }),
      /** GET /api/batches → { batches } (newest first, with their counts) */
      list: ({ limit = 20 }: { limit?: number } = {}) => call('listBatches', { query: { limit } }),
      /** GET /api/batches/:id → the batch with its rows (jobId, status, percent, error) */
      get: (batchId: string) => call('batch', { params: { id: batchId } }),
      /** POST /api/batches/:id/cancel → { cancelled, batch }: stops its queued and running jobs. */
      cancel: (batchId: string) => call('cancelBatch', { params: { id: batchId } }),
    },
    /** Any route of the contracts, typed. */
    call,
  };
  return client;
}

export type ReelsmithClient = ReturnType<typeof createClient>;
