import type { Kysely } from 'kysely';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Database } from './db/schema.js';

/** How stale another process's switch may be here: a job starting later than this sees it. */
export const SETTINGS_REFRESH_MS = 2_000;

const legacyFileSchema = z.record(z.string(), z.unknown());

export interface AppSettingsOptions {
  /** DATA_DIR/settings.json of earlier versions: imported once, when the table is still empty. */
  legacyFile?: string;
  refreshMs?: number;
}

/**
 * A handful of admin choices (voice, story and image providers) that every process must share, in
 * the database's app_settings table. Reads are synchronous from a snapshot (they sit on the path of
 * every job start and /voices call), refreshed every 2 s and at once after this process writes, so a
 * worker on another machine picks up an admin's switch within that time. Each feature reads its keys
 * with its own schema; an update writes only its own keys.
 */
export class AppSettings {
  private snapshot: Record<string, unknown> = {};
  private timer: NodeJS.Timeout | null = null;
  private loaded = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: AppSettingsOptions = {},
  ) {}

  /** Loads the snapshot (importing the legacy file on first use) and keeps it fresh until stop(). */
  async start(): Promise<void> {
    await this.importLegacyFile();
    await this.refresh();
    if (!this.timer) {
      this.timer = setInterval(() => void this.refresh().catch(() => undefined), this.options.refreshMs ?? SETTINGS_REFRESH_MS);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    const rows = await this.db.selectFrom('app_settings').select(['key', 'value']).execute();
    this.snapshot = Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
    this.loaded = true;
  }

  read<S extends z.ZodType>(schema: S): z.infer<S> {
    if (!this.loaded) throw new Error('AppSettings.read before start(): the settings are not loaded yet');
    const parsed = schema.safeParse(this.snapshot);
    if (!parsed.success) throw new Error(`The stored settings are not valid: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  async update(patch: Record<string, unknown>): Promise<void> {
    const at = new Date().toISOString();
    const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of entries) {
        await trx
          .insertInto('app_settings')
          .values({ key, value: JSON.stringify(value), updated_at: at })
          .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: at }))
          .execute();
      }
    });
    this.snapshot = { ...this.snapshot, ...Object.fromEntries(entries) };
  }

  private async importLegacyFile(): Promise<void> {
    if (!this.options.legacyFile) return;
    let text: string;
    try {
      text = readFileSync(this.options.legacyFile, 'utf8');
    } catch {
      return;
    }
    const existing = await this.db.selectFrom('app_settings').select('key').limit(1).execute();
    if (existing.length > 0) return;
    const parsed = legacyFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.options.legacyFile} is not a valid settings file: ${z.prettifyError(parsed.error)}`);
    const at = new Date().toISOString();
    const rows = Object.entries(parsed.data).map(([key, value]) => ({ key, value: JSON.stringify(value), updated_at: at }));
    // Two processes starting together may both import: the second one's rows are the same.
    if (rows.length > 0)
      await this.db
        .insertInto('app_settings')
        .values(rows)
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute();
  }
}
