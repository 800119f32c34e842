import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { copyFile, mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { notFound } from '../errors.js';
import { parseRangeHeader, RANGE_NOT_SATISFIABLE_MESSAGE, unsatisfiedContentRange } from './byte-range.js';
import {
  assertStorageKey,
  StorageMissingError,
  type ObjectStorage,
  type PutOptions,
  type ServeOptions,
  type StorageCheck,
} from './object-storage.js';
import { statfs } from 'node:fs/promises';

/** rename, or copy + unlink when the source sits on another file system. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await unlink(from);
  }
}

/** Keys as files under one root directory (DATA_DIR): the default, as Reelsmith always stored them. */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly bucket = null;

  constructor(private readonly root: string) {}

  pathOf(key: string): string {
    assertStorageKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, file: string, _options: PutOptions = {}): Promise<{ sizeBytes: number }> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    await moveFile(file, target);
    return { sizeBytes: (await stat(target)).size };
  }

  async serve(request: FastifyRequest, reply: FastifyReply, key: string, options: ServeOptions = {}): Promise<FastifyReply> {
    const path = this.pathOf(key);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw notFound('File not found');
    const range = parseRangeHeader(request.headers.range, info.size);
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', unsatisfiedContentRange(info.size))
        .header('accept-ranges', 'bytes')
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ error: RANGE_NOT_SATISFIABLE_MESSAGE }));
    }
    // send parses Range itself; what we ignore (bytes=abc, multi-range) it must not see.
    if (range.kind === 'whole') delete request.raw.headers.range;
    const result = await send(request.raw, path, {
      acceptRanges: true,
      etag: true,
      lastModified: true,
      cacheControl: false,
      dotfiles: 'deny',
      index: false,
    });
    if (result.type === 'error') {
      const status = (result.metadata as { error?: { status?: number } }).error?.status ?? 500;
      if (status === 404) throw notFound('File not found');
      throw (result.metadata as { error: Error }).error;
    }
    reply.code(result.statusCode).headers(result.headers as Record<string, string>);
    if (options.cacheControl) reply.header('cache-control', options.cacheControl);
    if (options.disposition) reply.header('content-disposition', options.disposition);
    return reply.send(result.stream);
  }

  async exists(key: string): Promise<boolean> {
    return (await stat(this.pathOf(key)).catch(() => null))?.isFile() ?? false;
  }

  async download(key: string, file: string): Promise<void> {
    const source = this.pathOf(key);
    await mkdir(dirname(file), { recursive: true });
    try {
      await copyFile(source, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageMissingError(`Nothing stored at ${key}`);
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertStorageKey(prefix, { prefix: true });
    const start = join(this.root, ...prefix.split('/').filter(Boolean));
    const entries = await readdir(start, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .sort();
  }

  async delete(prefix: string): Promise<void> {
    assertStorageKey(prefix, { prefix: true });
    await rm(join(this.root, ...prefix.split('/').filter(Boolean)), { recursive: true, force: true });
  }

  async check(): Promise<StorageCheck> {
    const started = performance.now();
    try {
      await mkdir(this.root, { recursive: true });
      const fs = await statfs(this.root);
      return {
        kind: 'local',
        bucket: null,
        reachable: true,
        latencyMs: performance.now() - started,
        details: `${Math.round((fs.bavail * fs.bsize) / 1e9)} GB free at ${this.root}`,
      };
    } catch (error) {
      return { kind: 'local', bucket: null, reachable: false, latencyMs: performance.now() - started, details: (error as Error).message };
    }
  }
}
