import { buildApp, createTestDatabase, TEST_DIALECTS, type App, type TestDatabase } from '@reelsmith/server/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, waitFor } from './server-jobs-fakes.js';

/**
 * The webhook outbox's sending side: two servers on one database (as two processes) send a user's
 * deliveries once each, each endpoint's in the order they were written, a failing one holding the
 * ones after it until its retry succeeds, while another endpoint's go out meanwhile.
 */
describe.each(TEST_DIALECTS)('webhook outbox order on %s', (dialect) => {
  let database: TestDatabase;
  const apps: App[] = [];
  let receiver: Server;
  let receiverUrl = '';
  const received: Array<{ path: string; eventId: string; status: number }> = [];
  /** Answers for the path's next requests (then 200). */
  const answers = new Map<string, number[]>();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    for (let i = 0; i < 2; i += 1) {
      const app = await buildApp(database.config({ WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_AUTH_MAX: '1000' }), {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { autoStart: false, webhooks: { retryDelaysMs: [1_500, 1_500], pollIntervalMs: 20 } },
      });
      await app.ready();
      apps.push(app);
    }
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const status = answers.get(path)?.shift() ?? 200;
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
        received.push({ path, eventId: id, status });
        response.statusCode = status;
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await database?.cleanup();
  });

  it("sends each endpoint's deliveries once and in order, from two servers, a failing one holding only its own endpoint", async () => {
    const one = apps[0]!;
    const user = await registerUser(one, 'order');
    for (const path of ['/slow', '/fast']) {
      const created = await one.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(user),
        payload: { url: `${receiverUrl}${path}`, events: ['video.completed'] },
      });
      expect(created.statusCode, created.body).toBe(200);
    }
    answers.set('/slow', [500]);
    const events = Array.from({ length: 8 }, (_, i) => `job-${i}`);
    // Written alternately by the two servers, as two processes reporting jobs would.
    for (const [i, jobId] of events.entries()) {
      await apps[i % 2]!.webhookDispatcher.enqueue(user.id, 'video.completed', { jobId, version: 1, status: 'completed' });
    }
    const ids = events.map((jobId) => `evt_video_completed_${jobId}_v1`);
    await waitFor(async () => received.filter((request) => request.status === 200).length >= 2 * events.length, 'every delivery', 20_000);
    // Several more looks of both dispatchers: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const delivered = (path: string) => received.filter((request) => request.path === path && request.status === 200).map((r) => r.eventId);
    expect(delivered('/fast')).toEqual(ids);
    expect(delivered('/slow')).toEqual(ids);
    // The failed first attempt was tried again before anything after it went to that endpoint.
    expect(received.filter((request) => request.path === '/slow').map((r) => r.eventId)).toEqual([ids[0], ...ids]);
    // The other endpoint did not wait for the retry.
    const fastDone = received.findIndex((request) => request.path === '/fast' && request.eventId === ids.at(-1));
    const slowRetry = received.findIndex((request) => request.path === '/slow' && request.status === 200);
    expect(fastDone).toBeLessThan(slowRetry);
  }, 60_000);
});
