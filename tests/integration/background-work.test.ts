import type { SynthesisRequest, VoiceProvider } from '@reelsmith/pipeline';
import { expectedSampleCount } from '@reelsmith/pipeline';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A fresh server's own background work (here the voice preview samples; the gallery's examples use
 * the same gate) waits while a creator's job is queued or running, and resumes once it ends.
 */
const requests: SynthesisRequest[] = [];
const offline: VoiceProvider = {
  name: 'offline',
  wordsPerMinute: 150,
  health: async () => ({ name: 'offline', status: 'healthy', details: 'fake' }),
  async synthesize(request) {
    requests.push(request);
    await writeFile(request.outputPath, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(1021, 7)]));
    return { audioPath: request.outputPath, durationSeconds: 1, words: [{ word: 'x', start: 0, end: 1 }] };
  },
};

describe('background work and creators', () => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config(), {
      voices: { env: {}, synthesizers: { offline }, autoGenerateOfflineSamples: false },
      // The job below stands for one a worker runs: nothing here takes it.
      jobs: { autoStart: false },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('makes no voice sample while a creator job is queued or running, and all of them once it has finished', async () => {
    const register = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Newcomer', email: `newcomer-${randomUUID()}@example.com`, password: 'secret123' },
    });
    expect(register.statusCode).toBeLessThan(300);
    const userId = (register.json() as { user: { id: string } }).user.id;
    const jobId = randomUUID();
    const at = new Date().toISOString();
    await app.db
      .insertInto('video_jobs')
      .values({
        id: jobId,
        user_id: userId,
        status: 'queued',
        params: '{}',
        steps: '{}',
        created_at: at,
        updated_at: at,
        result: null,
        error: null,
        current_step: null,
        started_at: null,
        completed_at: null,
      })
      .execute();

    expect(app.voiceSamples.generateMissing('offline')).toMatchObject({ started: true });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await app.background.busyReason()).toBe('job');
    expect(requests).toHaveLength(0);

    await app.db.updateTable('video_jobs').set({ status: 'processing', started_at: at }).where('id', '=', jobId).execute();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await app.background.busyReason()).toBe('job');
    expect(requests).toHaveLength(0);
    expect(app.voiceSamples.generationStatus()).toMatchObject({ generating: true, done: 0 });

    await app.db.updateTable('video_jobs').set({ status: 'completed', completed_at: at }).where('id', '=', jobId).execute();
    await app.voiceSamples.idle();
    expect(requests).toHaveLength(expectedSampleCount('offline'));
  }, 120_000);
});

describe('background work on a server that is polled all the time (issue 49)', () => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config(), {
      voices: { env: {}, synthesizers: { offline }, autoGenerateOfflineSamples: false },
      jobs: { autoStart: false },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('makes every voice sample while probes, a metrics scrape and an open studio poll every 500 ms', async () => {
    const register = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Poller', email: `poller-${randomUUID()}@example.com`, password: 'secret123' },
    });
    const token = (register.json() as { token: string }).token;
    const headers = { authorization: `Bearer ${token}` };
    const polls = [
      { url: '/health' },
      { url: '/ready' },
      { url: '/metrics' },
      { url: '/api/videos?limit=100', headers },
      { url: '/api/storage/stats', headers },
      { url: '/api/voice-samples/stats' },
    ];
    const answered: number[] = [];
    const poll = () => {
      for (const { url, headers: sent } of polls)
        void app.inject({ method: 'GET', url, ...(sent ? { headers: sent } : {}) }).then((response) => answered.push(response.statusCode));
    };
    poll();
    const polling = setInterval(poll, 500);
    try {
      const before = requests.length;
      expect(app.voiceSamples.generateMissing('offline')).toMatchObject({ started: true });
      await app.voiceSamples.idle();
      expect(requests.length - before).toBe(expectedSampleCount('offline'));
      // The polls never held a sample: none had to wait for its minimum share.
      expect(app.background.shares).toBe(0);
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.every((status) => status === 200)).toBe(true);
    } finally {
      clearInterval(polling);
    }
  }, 30_000);
});
