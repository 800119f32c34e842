import { batchErrorResponseSchema } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser } from './server-jobs-fakes.js';

/**
 * Batch uploads never hold the API: a CSV whose header has 300,000 columns (csv-parse spends about
 * 25 µs a column on the event loop) is refused while `/health` keeps answering within a second.
 */
describe('batch uploads and the event loop', () => {
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', SOURCE_ALLOW_PRIVATE: 'true' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  /** The slowest `/health` answer while `work` runs, polled one after another. */
  async function slowestHealthDuring<T>(work: Promise<T>): Promise<{ result: T; slowestMs: number; answers: number }> {
    let done = false;
    let slowestMs = 0;
    let answers = 0;
    const polling = (async () => {
      while (!done) {
        const started = performance.now();
        const response = await fetch(`${baseUrl}/health`);
        await response.arrayBuffer();
        slowestMs = Math.max(slowestMs, performance.now() - started);
        answers++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      return { result: await work, slowestMs, answers };
    } finally {
      done = true;
      await polling;
    }
  }

  it('refuses a 300,000-column CSV header while /health answers within 1 s', async () => {
    const user = await registerUser(app, 'wide-csv');
    const header = Array.from({ length: 300_000 }, (_, index) => `c${index}`).join(',');
    const send = async () => {
      const form = new FormData();
      form.append('file', new Blob([`${header}\nTea\n`], { type: 'text/csv' }), 'wide.csv');
      const response = await fetch(`${baseUrl}/api/batches`, { method: 'POST', headers: bearer(user), body: form });
      return { status: response.status, body: batchErrorResponseSchema.parse(await response.json()) };
    };
    const { result, slowestMs, answers } = await slowestHealthDuring(Promise.all([send(), send(), send()]));
    expect(answers).toBeGreaterThan(0);
    // Parsed on the event loop, each header held it for 4-15 s.
    expect(slowestMs).toBeLessThan(1_000);
    for (const { status, body } of result) {
      expect(status).toBe(400);
      expect(body.message).toMatch(/more than \d+ cells/);
    }
  }, 60_000);
});
