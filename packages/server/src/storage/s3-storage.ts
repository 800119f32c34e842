import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { S3StorageSettings } from '../config.js';
import { notFound } from '../errors.js';
import { contentRange, parseRangeHeader, RANGE_NOT_SATISFIABLE_MESSAGE, unsatisfiedContentRange } from './byte-range.js';
import {
  assertStorageKey,
  contentTypeOf,
  StorageMissingError,
  StorageWriteError,
  type ObjectStorage,
  type PutOptions,
  type ServeOptions,
  type StorageCheck,
} from './object-storage.js';

/** How long a presigned redirect stays valid: enough for a player to start, short enough to share no further. */
export const PRESIGNED_URL_SECONDS = 300;
/** Multipart part size (the S3 minimum is 5 MiB); two parts in flight keep memory small on the worker. */
const PART_SIZE = 8 * 1024 * 1024;
const UPLOAD_ATTEMPTS = 3;

const isMissing = (error: unknown): boolean => {
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return name === 'NotFound' || name === 'NoSuchKey' || status === 404;
};

/** Any S3-compatible store (AWS S3, Cloudflare R2, MinIO, Backblaze B2) through @aws-sdk/client-s3. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly client: S3Client;

  constructor(private readonly settings: S3StorageSettings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      forcePathStyle: settings.forcePathStyle,
      // The default CRC32 trailers (aws-chunked bodies) are not understood by several S3-compatible stores.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, file: string, options: PutOptions = {}): Promise<{ sizeBytes: number }> {
    assertStorageKey(key);
    const { size } = await stat(file);
    let lastError: unknown;
    for (let attempt = 1; attempt <= UPLOAD_ATTEMPTS; attempt += 1) {
      if (options.signal?.aborted) throw options.signal.reason;
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: key, Body: createReadStream(file), ContentType: options.contentType ?? contentTypeOf(key) },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      const abort = () => void upload.abort().catch(() => undefined);
      options.signal?.addEventListener('abort', abort, { once: true });
      try {
        await upload.done();
        await rm(file, { force: true });
        return { sizeBytes: size };
      } catch (error) {
        lastError = error;
        if (options.signal?.aborted) {
          await this.delete(key).catch(() => undefined);
          throw options.signal.reason;
        }
        if (attempt < UPLOAD_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      } finally {
        options.signal?.removeEventListener('abort', abort);
      }
    }
    throw new StorageWriteError(
      `Could not upload ${key} to S3 bucket ${this.bucket} after ${UPLOAD_ATTEMPTS} attempts: ${(lastError as Error)?.message ?? lastError}`,
      { cause: lastError },
    );
  }

  async serve(request: FastifyRequest, reply: FastifyReply, key: string, options: ServeOptions = {}): Promise<FastifyReply> {
    assertStorageKey(key);
    if (!this.settings.proxy) {
      // The presigned URL is only handed out for an object that exists, so a bad link stays our JSON 404.
      if (!(await this.exists(key))) throw notFound('File not found');
      const url = await getSignedUrl(
        this.client,
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(options.disposition ? { ResponseContentDisposition: options.disposition } : {}),
          ...(options.cacheControl ? { ResponseCacheControl: options.cacheControl } : {}),
        }),
        { expiresIn: PRESIGNED_URL_SECONDS },
      );
      // The redirect itself expires with the URL: a cached one must never outlive its signature.
      return reply.header('cache-control', 'private, no-store').redirect(url, 302);
    }
    return this.stream(request, reply, key, options);
  }

  private async stream(request: FastifyRequest, reply: FastifyReply, key: string, options: ServeOptions): Promise<FastifyReply> {
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })).catch((error: unknown) => {
      if (isMissing(error)) throw notFound('File not found');
      throw error;
    });
    const size = head.ContentLength ?? 0;
    const etag = head.ETag ?? null;
    reply.header('accept-ranges', 'bytes').header('content-type', head.ContentType ?? contentTypeOf(key));
    if (etag) reply.header('etag', etag);
    if (head.LastModified) reply.header('last-modified', head.LastModified.toUTCString());
    if (options.cacheControl) reply.header('cache-control', options.cacheControl);
    if (options.disposition) reply.header('content-disposition', options.disposition);
    if (etag && request.headers['if-none-match'] === etag) return reply.code(304).send();

    const ifRange = request.headers['if-range'];
    const range = ifRange && ifRange !== etag ? ({ kind: 'whole' } as const) : parseRangeHeader(request.headers.range, size);
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', unsatisfiedContentRange(size))
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ error: RANGE_NOT_SATISFIABLE_MESSAGE }));
    }
    const partial = range.kind === 'range';
    if (request.method === 'HEAD') {
      reply.code(partial ? 206 : 200).header('content-length', partial ? range.end - range.start + 1 : size);
      if (partial) reply.header('content-range', contentRange(range.start, range.end, size));
      return reply.send();
    }
    let object: GetObjectCommandOutput;
    try {
      object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(partial ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
    } catch (error) {
      if (isMissing(error)) throw notFound('File not found');
      throw error;
    }
    if (partial)
      reply
        .code(206)
        .header('content-range', contentRange(range.start, range.end, size))
        .header('content-length', range.end - range.start + 1);
    else reply.code(200).header('content-length', size);
    return reply.send(object.Body as Readable);
  }

  async exists(key: string): Promise<boolean> {
    assertStorageKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async download(key: string, file: string): Promise<void> {
    assertStorageKey(key);
    let object: GetObjectCommandOutput;
    try {
      object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) throw new StorageMissingError(`Nothing stored at ${key} in bucket ${this.bucket}`);
      throw error;
    }
    await mkdir(dirname(file), { recursive: true });
    try {
      await pipeline(object.Body as Readable, createWriteStream(file));
    } catch (error) {
      // A half-written copy must not pass for the upload at the next render.
      await rm(file, { force: true });
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertStorageKey(prefix, { prefix: true });
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async delete(prefix: string): Promise<void> {
    assertStorageKey(prefix, { prefix: true });
    const keys = prefix.endsWith('/') ? await this.list(prefix) : [prefix];
    // One request per object: DeleteObjects needs a Content-MD5 that some S3-compatible stores reject or require differently.
    for (const key of keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async check(): Promise<StorageCheck> {
    const started = performance.now();
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return {
        kind: 's3',
        bucket: this.bucket,
        reachable: true,
        latencyMs: performance.now() - started,
        details: `Bucket ${this.bucket} reachable${this.settings.endpoint ? ` at ${new URL(this.settings.endpoint).host}` : ''}`,
      };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      return {
        kind: 's3',
        bucket: this.bucket,
        reachable: false,
        latencyMs: performance.now() - started,
        details: `Bucket ${this.bucket} not reachable${status ? ` (HTTP ${status})` : ''}: ${(error as Error).name}`,
      };
    }
  }

  close(): void {
    this.client.destroy();
  }
}
