import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
