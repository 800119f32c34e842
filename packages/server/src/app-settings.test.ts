import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { AppSettings } from './app-settings.js';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from './db/dialect-test-database.js';
import { createDatabase, migrateToLatest } from './db/connection.js';

const voiceSchema = z.looseObject({ voiceProvider: z.enum(['offline', 'azure', 'elevenlabs']).optional() });

describe.each(TEST_DIALECTS)('AppSettings on %s', (dialect) => {
  let database: TestDatabase | undefined;
  const opened: AppSettings[] = [];
  afterEach(async () => {
    for (const settings of opened.splice(0)) settings.stop();
    await database?.cleanup();
    database = undefined;
  });

  async function open(options: { legacyFile?: string; refreshMs?: number } = {}) {
    database ??= await createTestDatabase(dialect);
    const handle = createDatabase(database.config().database);
    await migrateToLatest(handle.db);
    const settings = new AppSettings(handle.db, options);
    opened.push(settings);
    return { settings, db: handle.db };
  }

  it('shares a choice between two processes: the other sees it within its refresh interval', async () => {
    const api = await open();
    const worker = await open({ refreshMs: 50 });
    await api.settings.start();
    await worker.settings.start();
    expect(worker.settings.read(voiceSchema).voiceProvider).toBeUndefined();
    await api.settings.update({ voiceProvider: 'elevenlabs' });
    // The writer sees its own change at once.
    expect(api.settings.read(voiceSchema).voiceProvider).toBe('elevenlabs');
    await expect.poll(() => worker.settings.read(voiceSchema).voiceProvider, { timeout: 2_000 }).toBe('elevenlabs');
    // An update keeps the other keys.
    await api.settings.update({ storyProvider: 'openai' });
    expect(api.settings.read(z.looseObject({}))).toMatchObject({ voiceProvider: 'elevenlabs', storyProvider: 'openai' });
    await worker.db.destroy();
    await api.db.destroy();
  });

  it('imports the settings.json of earlier versions once, and never over choices already stored', async () => {
    database = await createTestDatabase(dialect);
    const legacyFile = join(database.dataDir, 'settings.json');
    writeFileSync(legacyFile, JSON.stringify({ voiceProvider: 'azure', storyProvider: 'openai' }));
    const first = await open({ legacyFile });
    await first.settings.start();
    expect(first.settings.read(voiceSchema).voiceProvider).toBe('azure');
    await first.settings.update({ voiceProvider: 'offline' });
    writeFileSync(legacyFile, JSON.stringify({ voiceProvider: 'elevenlabs' }));
    const restarted = await open({ legacyFile });
    await restarted.settings.start();
    expect(restarted.settings.read(voiceSchema).voiceProvider).toBe('offline');
    await first.db.destroy();
    await restarted.db.destroy();
  });

  it('refuses to answer before it has loaded, rather than pretending nothing was chosen', async () => {
    const { settings, db } = await open();
    expect(() => settings.read(voiceSchema)).toThrow(/not loaded/);
    await db.destroy();
  });
});
