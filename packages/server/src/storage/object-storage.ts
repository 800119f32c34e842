import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where finished files live: videos and posters (`output/<token>/…`), voice samples
 * (`audio/voice-samples/…`) and uploads (`uploads/…`). Keys are relative, `/`-separated paths; the
 * local implementation keeps them under DATA_DIR, the S3 one as object keys of one bucket. Job
 * workspaces never go through here: they stay on the worker's disk.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** The bucket name for S3; null for local files. */
  readonly bucket: string | null;
  /** Takes ownership of `file` (moved, or uploaded then removed) and stores it under `key`. */
  put(key: string, file: string, options?: PutOptions): Promise<{ sizeBytes: number }>;
  /**
   * Answers the request with the object: local files and `S3_PROXY=true` stream it (Range, ETag,
   * 304, 416 with `Content-Range: bytes *\/size`); S3 otherwise redirects to a short-lived presigned URL.
   * A missing object is a 404 through the app's error handler.
   */
  serve(request: FastifyRequest, reply: FastifyReply, key: string, options?: ServeOptions): Promise<FastifyReply>;
  exists(key: string): Promise<boolean>;
  /**
   * Writes the object to the local file `file` (a worker's copy of an upload); the object stays.
   * A missing object rejects with StorageMissingError.
   */
  download(key: string, file: string): Promise<void>;
  /** Every key under `prefix` (`voice/` lists `voice/a.mp3`, `voice/x/b.mp3`). */
  list(prefix: string): Promise<string[]>;
  /** Removes every object under `prefix`; a prefix names a folder, so it must end in `/` (or be a full key). */
  delete(prefix: string): Promise<void>;
  /** Reachability for System Health. */
  check(): Promise<StorageCheck>;
}

export interface PutOptions {
  contentType?: string;
  /** Aborts an upload in flight (a cancelled job): nothing is left behind. */
  signal?: AbortSignal;
}

export interface ServeOptions {
  /** Content-Disposition (downloads); unset plays inline. */
  disposition?: string;
  /** Cache-Control of the response (streamed) or of the object's presigned response. */
  cacheControl?: string;
}

export interface StorageCheck {
  kind: 'local' | 's3';
  bucket: string | null;
  reachable: boolean;
  latencyMs: number;
  details: string;
}

const KEY_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._@+=-]*$/;

/** Keys come from our own code, but a bad one must never become a path outside the storage root. */
export function assertStorageKey(key: string, { prefix = false } = {}): void {
  const body = prefix && key.endsWith('/') ? key.slice(0, -1) : key;
  const segments = body.split('/');
  if (body === '' || segments.some((segment) => !KEY_SEGMENT.test(segment) || segment.includes('..'))) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

export const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
};

export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** A failed upload: the job's video step fails with this message (and is retried first). */
export class StorageWriteError extends Error {
  override name = 'StorageWriteError';
}

/** download() of a key that is not stored. */
export class StorageMissingError extends Error {
  override name = 'StorageMissingError';
}
