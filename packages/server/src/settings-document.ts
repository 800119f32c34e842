import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

const anyDocumentSchema = z.looseObject({});

/**
 * DATA_DIR/settings.json: a handful of admin choices (voice, story and image providers) that must
 * survive restarts, kept as a small JSON document rather than a table. Each feature reads its keys
 * with its own schema; an update keeps every other feature's keys, and is written to a temp file and
 * renamed into place. Nothing is cached, so another process (a worker) sees a change at its next read.
 */
export class SettingsDocument {
  constructor(readonly file: string) {}

  read<S extends z.ZodType>(schema: S): z.infer<S> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return schema.parse({});
    }
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.file} is not a valid settings file: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  update(patch: Record<string, unknown>): void {
    const next = { ...this.read(anyDocumentSchema), ...patch };
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(temp, this.file);
  }
}
