import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { KOKORO_MANIFEST, type ModelFile, type ModelManifest } from './kokoro-voices.js';

/**
 * The natural voice's model on disk: fetched once (never at install) from VOICE_MODEL_URL, laid out
 * as the Hugging Face repository (`<url>/resolve/<revision>/<path>`, the manifest's pinned commit),
 * into DATA_DIR/models/kokoro-82m/,
 * each file checked against the manifest's size and SHA-256. A download is written to `<file>.partial`
 * and resumed with a Range request after an interruption; a file whose sum is wrong is deleted and
 * fetched once more from the start, then refused.
 */

export type ModelState = 'absent' | 'downloading' | 'ready' | 'failed';

export interface ModelStatus {
  state: ModelState;
  /** 0-100, of the bytes the manifest lists. */
  progress: number;
  bytesDone: number;
  bytesTotal: number;
  /** Why the last download failed (host unreachable, checksum refused, ...). */
  error?: string;
}

export const modelManifestSchema = z.object({
  model: z.string().min(1),
  /** The repository's commit the files are fetched at (default main). */
  revision: z.optional(z.string().regex(/^[A-Za-z0-9._-]+$/, 'a branch name or a commit id')),
  files: z
    .array(
      z.object({
        path: z
          .string()
          .regex(/^[A-Za-z0-9_./-]+$/, 'a relative path of letters, digits, _ . / -')
          .refine((p) => !p.split('/').includes('..')),
        size: z.number().int().positive(),
        sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .nullable(),
      }),
    )
    .min(1),
});

/** The manifest at `file` (VOICE_MODEL_MANIFEST), or the pinned Kokoro one. */
export async function loadModelManifest(file?: string): Promise<ModelManifest> {
  if (!file) return KOKORO_MANIFEST;
  const parsed = modelManifestSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`VOICE_MODEL_MANIFEST ${file} is not a model manifest: ${z.prettifyError(parsed.error)}`);
  if (!parsed.data.files.some((entry) => entry.path === parsed.data.model))
    throw new Error(`VOICE_MODEL_MANIFEST ${file} does not list its model ${parsed.data.model}`);
  return parsed.data;
}

export class ModelDownloadError extends Error {
  override name = 'ModelDownloadError';
}

/** Where a file of the manifest lives. */
export function modelFilePath(dir: string, file: ModelFile | string): string {
  return path.join(dir, ...(typeof file === 'string' ? file : file.path).split('/'));
}

const VERIFIED_FILE = 'verified.json';
interface VerifiedRecord {
  size: number;
  mtimeMs: number;
  sha256: string;
}

async function readVerified(dir: string): Promise<Record<string, VerifiedRecord>> {
  try {
    return JSON.parse(await readFile(path.join(dir, VERIFIED_FILE), 'utf8')) as Record<string, VerifiedRecord>;
  } catch {
    return {};
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Whether `file` is on disk and matches the manifest. A file once verified is trusted while its size
 * and modification time stay the same (hashing 326 MB at every start would cost a second of CPU).
 * For a file whose sum the manifest does not pin, the first verified download's sum is the pin.
 */
async function isVerified(dir: string, file: ModelFile, verified: Record<string, VerifiedRecord>): Promise<boolean> {
  const target = modelFilePath(dir, file);
  const info = await stat(target).catch(() => null);
  if (!info || info.size !== file.size) return false;
  const record = verified[file.path];
  const expected = file.sha256 ?? record?.sha256;
  if (record && record.size === info.size && record.mtimeMs === info.mtimeMs && record.sha256 === expected) return true;
  const actual = await sha256Of(target);
  if (expected && actual !== expected) return false;
  verified[file.path] = { size: info.size, mtimeMs: info.mtimeMs, sha256: actual };
  return true;
}

async function saveVerified(dir: string, verified: Record<string, VerifiedRecord>): Promise<void> {
  const partial = path.join(dir, `${VERIFIED_FILE}.${process.pid}.partial`);
  await writeFile(partial, JSON.stringify(verified, null, 2));
  await rename(partial, path.join(dir, VERIFIED_FILE));
}

/** True when every file of the manifest is on disk and verified. */
export async function isModelReady(dir: string, manifest: ModelManifest): Promise<boolean> {
  const verified = await readVerified(dir);
  for (const file of manifest.files) if (!(await isVerified(dir, file, verified))) return false;
  await mkdir(dir, { recursive: true });
  await saveVerified(dir, verified).catch(() => undefined);
  return true;
}

export interface DownloadOptions {
  /** VOICE_MODEL_URL: the repository, e.g. https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX. */
  baseUrl: string;
  dir: string;
  manifest: ModelManifest;
  onProgress?: (status: ModelStatus) => void;
  signal?: AbortSignal;
  /** Milliseconds without a byte before a connection is given up. */
  idleTimeoutMs?: number;
}

/** `<baseUrl>/resolve/<revision>/<path>`, as the Hugging Face hub serves a repository's files at a commit. */
export function modelFileUrl(baseUrl: string, file: string, revision = 'main'): string {
  return `${baseUrl.replace(/\/+$/, '')}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

function describeFetchError(url: string, error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : '';
  const message = cause instanceof Error ? cause.message : String(cause);
  return `cannot reach ${new URL(url).host} (${code || message})`;
}

/** Fetches one file into `<target>.partial`, resuming what an earlier attempt left, checks it and moves it into place. */
async function fetchFile(
  url: string,
  target: string,
  file: ModelFile,
  onBytes: (n: number) => void,
  options: DownloadOptions,
): Promise<void> {
  const partial = `${target}.partial`;
  await mkdir(path.dirname(target), { recursive: true });
  let have = (await stat(partial).catch(() => null))?.size ?? 0;
  if (have > file.size) {
    await rm(partial, { force: true });
    have = 0;
  }
  if (have < file.size) {
    const idle = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, idle.signal]) : idle.signal;
    let timer = setTimeout(() => idle.abort(), options.idleTimeoutMs ?? 30_000);
    let response: Response;
    try {
      response = await fetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, signal, redirect: 'follow' });
    } catch (error) {
      clearTimeout(timer);
      if (options.signal?.aborted) throw error;
      throw new ModelDownloadError(describeFetchError(url, error), { cause: error });
    }
    if (response.status === 416 && have > 0) {
      // The host has nothing past what we hold: the partial file is complete (or wrong, which the sum tells).
      await response.body?.cancel();
    } else {
      if (response.status !== 200 && response.status !== 206) {
        clearTimeout(timer);
        await response.body?.cancel();
        throw new ModelDownloadError(`${url} answered HTTP ${response.status}`);
      }
      // A host that ignores Range sends the whole file again: start over.
      const append = response.status === 206 && have > 0;
      if (!append && have > 0) {
        onBytes(-have);
        have = 0;
      }
      const body = response.body;
      if (!body) throw new ModelDownloadError(`${url} sent no body`);
      const counting = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
      counting.on('data', (chunk: Buffer) => {
        clearTimeout(timer);
        timer = setTimeout(() => idle.abort(), options.idleTimeoutMs ?? 30_000);
        onBytes(chunk.length);
      });
      try {
        await pipeline(counting, createWriteStream(partial, { flags: append ? 'a' : 'w' }));
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new ModelDownloadError(
          `the download of ${file.path} broke off (${error instanceof Error ? error.message : String(error)}); it resumes next time`,
          {
            cause: error,
          },
        );
      } finally {
        clearTimeout(timer);
      }
    }
  }
  const size = (await stat(partial)).size;
  if (size !== file.size)
    throw new ModelDownloadError(`${file.path} is ${size} bytes, expected ${file.size}; the download resumes next time`);
  const actual = await sha256Of(partial);
  if (file.sha256 && actual !== file.sha256) {
    await rm(partial, { force: true });
    throw new ChecksumError(`${file.path} failed its SHA-256 check (got ${actual.slice(0, 12)}…, pinned ${file.sha256.slice(0, 12)}…)`);
  }
  await rename(partial, target);
}

class ChecksumError extends ModelDownloadError {}

/**
 * Downloads every file the manifest lists that is not already verified in `dir`. A file refused by
 * its checksum is fetched once more from the start; a second refusal, an unreachable host or an HTTP
 * error ends the download with a ModelDownloadError saying which (the partial file stays for resuming,
 * unless it was the wrong bytes).
 */
export async function downloadModel(options: DownloadOptions): Promise<void> {
  const { dir, manifest } = options;
  await mkdir(dir, { recursive: true });
  const verified = await readVerified(dir);
  const bytesTotal = manifest.files.reduce((sum, file) => sum + file.size, 0);
  let bytesDone = 0;
  const report = (state: ModelState, error?: string) =>
    options.onProgress?.({
      state,
      bytesDone,
      bytesTotal,
      progress: bytesTotal ? Math.min(100, Math.floor((bytesDone / bytesTotal) * 100)) : 100,
      ...(error ? { error } : {}),
    });

  const missing: ModelFile[] = [];
  for (const file of manifest.files) {
    if (await isVerified(dir, file, verified)) bytesDone += file.size;
    else {
      bytesDone += (await stat(`${modelFilePath(dir, file)}.partial`).catch(() => null))?.size ?? 0;
      missing.push(file);
    }
  }
  report(missing.length ? 'downloading' : 'ready');
  let lastReport = 0;
  for (const file of missing) {
    const target = modelFilePath(dir, file);
    const url = modelFileUrl(options.baseUrl, file.path, options.manifest.revision);
    const onBytes = (n: number) => {
      bytesDone += n;
      const now = Date.now();
      if (now - lastReport > 250) {
        lastReport = now;
        report('downloading');
      }
    };
    // What this file's partial download had already counted, so a refetch from zero counts again from here.
    const base = bytesDone - ((await stat(`${target}.partial`).catch(() => null))?.size ?? 0);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await fetchFile(url, target, file, onBytes, options);
        break;
      } catch (error) {
        if (error instanceof ChecksumError && attempt === 1) {
          bytesDone = base;
          continue;
        }
        report('failed', error instanceof Error ? error.message : String(error));
        throw error;
      }
    }
    const info = await stat(target);
    verified[file.path] = { size: info.size, mtimeMs: info.mtimeMs, sha256: file.sha256 ?? (await sha256Of(target)) };
    await saveVerified(dir, verified);
  }
  bytesDone = bytesTotal;
  report('ready');
}
