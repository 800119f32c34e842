import { batchDetailSchema, type BatchDetail } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorker, type TestWorker } from './bullmq-test-worker.js';
import { listenToBatchEvents } from './batch-event-socket.js';
import { bearer, FakePipeline, registerUser, subscribe, waitFor, type TestUser } from './server-jobs-fakes.js';

/**
 * A batch's socket events in scale mode with two API processes (two apps on one PostgreSQL and one
 * Redis) and a worker: the creator's sockets on either process hear every row's `batch_progress` and
 * exactly one `batch_completed`, whichever process took the request, marked the batch completed or
 * cancelled it.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const DEFAULTS = { style: 'educational', language: 'en', duration: 30, voice: 'en-male-1', resolution: '1:1', music: 'none' };

describe.skipIf(!redisUrl)('batch socket events across API processes (QUEUE_BACKEND=bullmq)', () => {
  const prefix = `reelsmith-batch-events-${randomBytes(4).toString('hex')}`;
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  const apps: Array<{ app: App; url: string }> = [];
  const workers: TestWorker[] = [];
  const sockets: Socket[] = [];
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix, RATE_LIMIT_AUTH_MAX: '1000' });

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    for (let index = 0; index < 2; index++) {
      const app = await buildApp(database.config(env()), {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
      });
      apps.push({ app, url: await app.listen({ port: 0, host: '127.0.0.1' }) });
    }
    workers.push(await startTestWorker(database.config(env()), { runner: pipeline.runner, providersFor: pipeline.providersFor }));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const worker of workers.splice(0)) await worker.stop();
    for (const { app } of apps) await app.close();
    const inspector = new Queue('video-jobs', { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
    await inspector.obliterate({ force: true }).catch(() => undefined);
    await inspector.close();
    await database?.cleanup();
  });

  /** A socket of `user` on one API process, with every batch event it hears. */
  const listen = (url: string, user: TestUser) => listenToBatchEvents(url, user, sockets);

  async function createBatch(app: App, user: TestUser, topics: string[]): Promise<BatchDetail> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: bearer(user),
      payload: { defaults: DEFAULTS, rows: topics.map((topic) => ({ topic })) },
    });
    expect(response.statusCode, response.body).toBe(202);
    return batchDetailSchema.parse(response.json());
  }

  /** Long enough for a duplicate from another process to have arrived. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

  it("tells the creator's sockets on every API process about a batch's rows and its completion, once", async () => {
    const [first, second] = apps as [{ app: App; url: string }, { app: App; url: string }];
    const user = await registerUser(first.app, 'scale-batch');
    await subscribe(first.app, user.id, 'pro_plan');
    const here = await listen(first.url, user);
    const there = await listen(second.url, user);

    const tag = randomBytes(3).toString('hex');
    const created = await createBatch(first.app, user, [`Scale row one ${tag}`, `Scale row two ${tag}`]);
    for (const live of [here, there]) {
      await waitFor(async () => live.completed.some((event) => event.batchId === created.id), 'batch_completed on both processes');
    }
    await settle();
    for (const live of [here, there]) {
      expect(live.completed.filter((event) => event.batchId === created.id)).toEqual([
        { batchId: created.id, name: null, status: 'completed', counts: expect.objectContaining({ total: 2, completed: 2 }) },
      ]);
      const rows = live.progress.filter((event) => event.batchId === created.id);
      expect(new Set(rows.map((event) => event.row.jobId))).toEqual(new Set(created.rows.map((row) => row.jobId)));
      expect(rows.at(-1)?.percent).toBe(100);
    }
  });

  it('a cancel on one process reaches the sockets held by the other', async () => {
    const [first, second] = apps as [{ app: App; url: string }, { app: App; url: string }];
    const user = await registerUser(first.app, 'scale-cancel');
    await subscribe(first.app, user.id, 'pro_plan');
    const there = await listen(second.url, user);

    const tag = randomBytes(3).toString('hex');
    const topics = [`Scale cancel one ${tag}`, `Scale cancel two ${tag}`, `Scale cancel three ${tag}`];
    const gate = pipeline.blockAt(topics[0]!, 'images');
    const created = await createBatch(first.app, user, topics);
    await gate.reached;
    const cancel = await first.app.inject({ method: 'POST', url: `/api/batches/${created.id}/cancel`, headers: bearer(user) });
    expect(cancel.statusCode, cancel.body).toBe(200);

    await waitFor(
      async () => there.completed.some((event) => event.batchId === created.id),
      'batch_completed (cancelled) on the other process',
    );
    await settle();
    expect(there.completed.filter((event) => event.batchId === created.id)).toEqual([
      { batchId: created.id, name: null, status: 'cancelled', counts: expect.objectContaining({ total: 3, cancelled: 3 }) },
    ]);
    // Each cancelled row was reported there too, though only the first process saw those jobs end.
    const cancelledRows = there.progress.filter((event) => event.batchId === created.id && event.row.status === 'cancelled');
    expect(new Set(cancelledRows.map((event) => event.row.jobId))).toEqual(new Set(created.rows.map((row) => row.jobId)));
  });
});
