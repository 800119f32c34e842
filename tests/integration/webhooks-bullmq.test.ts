import { buildApp, type App } from '@reelsmith/server/testing';
import { VIDEO_QUEUE_NAME } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { verifyWebhook } from '@reelsmith/sdk';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorker, type TestWorker } from './bullmq-test-worker.js';
import { bearer, FakePipeline, registerUser, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';

/**
 * Webhooks in scale mode: the API process only relays job events, a worker process runs the job and
 * its job runtime sends the delivery. Both processes see the outcome; the delivery is made once.
 * A delivery still pending when its sender stops is sent by the next one (it lives in the database).
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('webhooks on BullMQ (QUEUE_BACKEND=bullmq)', () => {
  const prefix = `reelsmith-test-${randomBytes(4).toString('hex')}`;
  const pipeline = new FakePipeline();
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix, WEBHOOK_ALLOW_PRIVATE: 'true' });
  let database: TestDatabase;
  let app: App;
  let receiver: Server;
  let receiverUrl = '';
  const received: Array<{ body: string; signature: string }> = [];
  const statuses: number[] = [];
  const workers: TestWorker[] = [];

  async function startWorker() {
    const worker = await startTestWorker(database.config(env()), {
      runner: pipeline.runner,
      providersFor: pipeline.providersFor,
      webhooks: { retryDelaysMs: [200, 200], pollIntervalMs: 100 },
    });
    worker.runtime.webhooks.start();
    workers.push(worker);
    return worker.runtime;
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config({ ...env(), RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    await app.ready();
    // This API process only enqueues; the worker process is the one that must send.
    await app.webhookDispatcher.stop();
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(request.headers['reelsmith-signature']) });
        response.statusCode = statuses.shift() ?? 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    for (const worker of workers) {
      await worker.runtime.webhooks.stop();
      await worker.stop();
    }
    await app?.close();
    const inspector = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
    await inspector.obliterate({ force: true }).catch(() => undefined);
    await inspector.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.cleanup();
  });

  it('the worker delivers once, and a pending retry survives its sender stopping', async () => {
    const user = await registerUser(app, 'bull-hooks');
    const { id, secret } = (
      await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(user),
        payload: { url: receiverUrl, events: ['video.completed'] },
      })
    ).json() as { id: string; secret: string };
    statuses.push(500);
    const first = await startWorker();
    const jobId = (
      await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('Harbour seals') })
    ).json().jobId as string;
    await waitForStatus(app, user, jobId, 'completed');
    await waitFor(async () => received.length >= 1, 'the first attempt');
    // The sender stops between the failed attempt and its retry; another process picks the retry up.
    await first.webhooks.stop();
    await startWorker();
    await waitFor(async () => received.length >= 2, 'the retry from the next process');

    const events = received.map((r) => verifyWebhook(r.body, r.signature, secret));
    expect(events.every((event) => event.type === 'video.completed' && event.data.jobId === jobId)).toBe(true);
    const deliveries = await waitFor(async () => {
      const body = (await app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, headers: bearer(user) })).json();
      return body.deliveries[0]?.status === 'delivered' ? body.deliveries : null;
    }, 'the delivered status');
    // The API process and the worker both saw the outcome: still one delivery.
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toHaveLength(2);
  });
});
