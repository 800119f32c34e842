import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Stable hash of JSON-able inputs: a step is reused only when everything it was made from is unchanged. */
export function hashInputs(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, 32);
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface Manifest<T> {
  inputHash: string;
  completedAt: string;
  output: T;
}

/** The output a finished step recorded for these inputs, or null when it must run (again). */
export function readCheckpoint<T>(path: string, inputHash: string): T | null {
  if (!existsSync(path)) return null;
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest<T>;
    return manifest.inputHash === inputHash ? manifest.output : null;
  } catch {
    // A manifest cut short by a crash is as good as none.
    return null;
  }
}

/** Written last, atomically (temp file + rename), so a manifest only ever describes finished work. */
export function writeCheckpoint<T>(path: string, inputHash: string, output: T): void {
  mkdirSync(dirname(path), { recursive: true });
  const manifest: Manifest<T> = { inputHash, completedAt: new Date().toISOString(), output };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(manifest, null, 2));
  renameSync(temporary, path);
}

export interface Checkpointed<T> {
  output: T;
  /** A hash of the step's inputs and output: the next step's inputs name it. */
  hash: string;
}

/** What a step's caller does around its checkpoint: tell it reused, tell it started, check the output may be kept, tell it done. */
export interface CheckpointHooks {
  reused?: () => void;
  started?: () => void;
  /** Before the output is recorded (a cancelled run throws here and records nothing). */
  finishing?: () => void;
  finished?: () => void;
}

/**
 * Runs `work` unless the manifest `dir/name/manifest.json` says it is done for these inputs, then
 * records its output there, keyed by the inputs' hash.
 */
export async function runCheckpointed<T>(
  dir: string,
  name: string,
  inputs: unknown,
  work: (inputHash: string) => Promise<T>,
  hooks: CheckpointHooks = {},
): Promise<Checkpointed<T>> {
  const inputHash = hashInputs(inputs);
  const manifestPath = join(dir, name, 'manifest.json');
  const done = readCheckpoint<T>(manifestPath, inputHash);
  if (done !== null) {
    hooks.reused?.();
    return { output: done, hash: hashInputs({ inputHash, done }) };
  }
  hooks.started?.();
  mkdirSync(join(dir, name), { recursive: true });
  const output = await work(inputHash);
  hooks.finishing?.();
  writeCheckpoint(manifestPath, inputHash, output);
  hooks.finished?.();
  return { output, hash: hashInputs({ inputHash, done: output }) };
}

/** The artefact is still there when its manifest and every file it names exist. */
export function readArtefact<T>(manifestPath: string, key: string, files: (output: T) => string[]): T | null {
  const done = readCheckpoint<T>(manifestPath, key);
  return done && files(done).every((file) => existsSync(file)) ? done : null;
}
