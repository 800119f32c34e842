import { batchDetailSchema, batchErrorResponseSchema } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, jobStatus, registerUser, subscribe, waitForStatus } from './server-jobs-fakes.js';

const PARAGRAPH =
  '<p>The lighthouse lens gathers the light of the lamp into a single beam that sailors can see from thirty kilometres away at night.</p>';
const ARTICLE = `<html><head><title>Lighthouses</title></head><body><article><h1>Lighthouses</h1>${PARAGRAPH.repeat(8)}</article></body></html>`;

/** Pages: /slow/* answer after 4 s, /article at once, anything else is a 404. */
async function startPages(): Promise<{ server: Server; url: string; slowRequests: () => number }> {
  let slow = 0;
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path.startsWith('/slow/')) {
      slow += 1;
      const timer = setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE), 4_000);
      response.on('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/article') return void response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    response.writeHead(404).end('gone');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, slowRequests: () => slow };
}

/**
 * Batch uploads never hold the API: a CSV whose header has 300,000 columns (csv-parse spends about
 * 25 µs a column on the event loop) is refused while `/health` keeps answering within a second.
 */
describe('batch uploads and the event loop', () => {
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;
  let pages: Awaited<ReturnType<typeof startPages>>;

  beforeAll(async () => {
    pages = await startPages();
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
    pages?.server.closeAllConnections();
    pages?.server.close();
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

  it('accepts a batch of 100 slow link rows within 2 s; each row reads its page in its job and fails on its own', async () => {
    const user = await registerUser(app, 'link-batch');
    await subscribe(app, user.id, 'pro_plan');
    const defaults = { style: 'educational', language: 'en', duration: 30, voice: 'en-us-m3', resolution: '1:1', music: 'none' };
    const rows = [
      { source: { kind: 'url', url: `${pages.url}/article` } },
      { source: { kind: 'url', url: `${pages.url}/missing` } },
      ...Array.from({ length: 98 }, (_, index) => ({ source: { kind: 'url', url: `${pages.url}/slow/${index}` } })),
    ];
    const started = performance.now();
    const response = await app.inject({ method: 'POST', url: '/api/batches', headers: bearer(user), payload: { defaults, rows } });
    const took = performance.now() - started;
    expect(response.statusCode, response.body).toBe(202);
    // Read one after another inside the request, 4 slow links took 41 s before the answer.
    expect(took).toBeLessThan(2_000);
    const batch = batchDetailSchema.parse(response.json());
    expect(batch.rows).toHaveLength(100);
    const [good, missing] = batch.rows;
    // The rows run in order: the first reads its article, the second fails with its page's reason.
    const done = await waitForStatus(app, user, good!.jobId, 'completed', 30_000);
    expect(pipeline.runs.find((run) => run.jobId === done.id)?.topic).toMatch(/lighthouse/i);
    const failed = await waitForStatus(app, user, missing!.jobId, 'failed', 30_000);
    expect(failed.error).toMatch(/404|could not be (read|fetched|opened)|not found/i);
    expect((await jobStatus(app, user, good!.jobId)).status).toBe('completed');
    const cancelled = await app.inject({ method: 'POST', url: `/api/batches/${batch.id}/cancel`, headers: bearer(user) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
  }, 90_000);

  it('limits research look-ups to 60 a minute per account', async () => {
    const user = await registerUser(app, 'research-flood');
    const ask = () => app.inject({ method: 'GET', url: '/api/research/articles?q=Octopus&language=en', headers: bearer(user) });
    for (let index = 0; index < 60; index++) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
