import type { JobProgressEvent } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { type BullmqJobWorkers, VIDEO_QUEUE_NAME } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorker, type TestWorker } from './bullmq-test-worker.js';
import { bearer, FakePipeline, registerUser, subscribe, videoBody, waitFor, waitForStatus, type TestUser } from './server-jobs-fakes.js';

/**
 * The scale mode for real: PostgreSQL, and Redis at TEST_REDIS_URL (this machine kind runs one; .ci/run
 * exports it when it answers). The API app enqueues on BullMQ and runs nothing itself; worker
 * "processes" (BullmqJobWorkers with their own database pool and Redis connections, as `npm run worker`
 * builds them) take the jobs, and their events reach the API's sockets through Redis.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('video jobs on BullMQ (QUEUE_BACKEND=bullmq)', () => {
  const prefix = `reelsmith-test-${randomBytes(4).toString('hex')}`;
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let inspector: Queue;
  const workers: TestWorker[] = [];
  const apiEvents: Array<{ name: string; jobId: string; status?: string; progress?: number }> = [];

  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix });

  /** A worker process: its own database pool, its own Redis connections, the same DATA_DIR. */
  async function startWorker(concurrency = 1): Promise<BullmqJobWorkers> {
    const config = database.config({ ...env(), QUEUE_CONCURRENCY: String(concurrency) });
    const worker = await startTestWorker(config, { runner: pipeline.runner, providersFor: pipeline.providersFor });
    workers.push(worker);
    return worker.workers;
  }

  async function stopWorkers(): Promise<void> {
    for (const worker of workers.splice(0)) await worker.stop();
  }

  async function submit(user: TestUser, topic: string, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody(topic, extra),
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { jobId: string }).jobId;
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config(env()), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    await app.ready();
    for (const name of ['job_progress', 'job_completed', 'job_failed'] as const) {
      app.jobEvents.on(name, (event: { jobId: string; status?: string; progress?: number }) =>
        apiEvents.push({
          name,
          jobId: event.jobId,
          status: (event as JobProgressEvent).status,
          progress: (event as JobProgressEvent).progress,
        }),
      );
    }
    inspector = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
  });

  afterEach(async () => {
    await stopWorkers();
  });

  afterAll(async () => {
    await stopWorkers();
    await app?.close();
    await inspector?.obliterate({ force: true }).catch(() => undefined);
    await inspector?.close();
    await database?.cleanup();
  });

  it('runs a job on a worker process and relays its progress and completion to the API', async () => {
    const user = await registerUser(app, 'bull');
    await startWorker();
    const jobId = await submit(user, 'Lighthouses of the north');
    const done = await waitForStatus(app, user, jobId, 'completed');
    expect(done.result?.videoUrl).toMatch(/^\/output\//);
    const video = await app.inject({ method: 'GET', url: done.result!.videoUrl });
    expect(video.statusCode).toBe(200);

    await waitFor(
      async () => apiEvents.some((event) => event.jobId === jobId && event.name === 'job_completed'),
      'the relayed job_completed',
    );
    const progress = apiEvents.filter((event) => event.jobId === jobId && event.name === 'job_progress').map((event) => event.progress!);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);

    const status = await app.inject({ method: 'GET', url: '/api/queue/status', headers: bearer(user) });
    expect(status.json()).toMatchObject({ backend: 'bullmq', running: true, processing: 0 });
  });

  it('cancels a job running on a worker: the worker stops it and confirms, and the API reports it', async () => {
    const user = await registerUser(app, 'bull-cancel');
    await startWorker();
    const gate = pipeline.blockAt('A job to cancel', 'images');
    const jobId = await submit(user, 'A job to cancel');
    await gate.reached;

    const response = await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) });
    expect(response.json()).toMatchObject({ success: true, status: 'cancelled' });
    const [run] = pipeline.runsOf('A job to cancel');
    expect(run!.signal.aborted).toBe(true);
    // The DELETE returned after the worker's confirmation, whose cancelled event came through Redis.
    expect(apiEvents.some((event) => event.jobId === jobId && event.status === 'cancelled')).toBe(true);
    expect((await waitForStatus(app, user, jobId, 'cancelled')).status).toBe('cancelled');
  });

  it('drops a cancelled job that no worker has started, so it never runs', async () => {
    const user = await registerUser(app, 'bull-waiting');
    await subscribe(app, user.id, 'pro_plan');
    const cancelled = await submit(user, 'Never to be made');
    expect(await inspector.getJob(cancelled)).toBeTruthy();
    const response = await app.inject({ method: 'DELETE', url: `/api/videos/${cancelled}`, headers: bearer(user) });
    expect(response.json()).toMatchObject({ status: 'cancelled' });
    expect(await inspector.getJob(cancelled)).toBeUndefined();

    const later = await submit(user, 'Made after the cancelled one');
    await startWorker();
    await waitForStatus(app, user, later, 'completed');
    expect(pipeline.runsOf('Never to be made')).toHaveLength(0);
  });

  it('hands a job back when its worker stops, and another worker resumes it without redoing finished steps', async () => {
    const user = await registerUser(app, 'bull-resume');
    const first = await startWorker();
    const gate = pipeline.blockAt('Resumed elsewhere', 'images');
    const jobId = await submit(user, 'Resumed elsewhere');
    await gate.reached;
    expect(first.activeJobIds).toEqual([jobId]);

    await first.stop();
    expect((await waitForStatus(app, user, jobId, 'queued')).status).toBe('queued');
    gate.release();
    await startWorker();
    await waitForStatus(app, user, jobId, 'completed');

    const runs = pipeline.runsOf('Resumed elsewhere');
    expect(runs).toHaveLength(2);
    expect(runs[0]!.stepsRun).toEqual(['setup', 'story', 'voice', 'images']);
    expect(runs[1]!.stepsRun).toEqual(['images', 'video']);
  });

  it("runs another user's first job before one user's burst", async () => {
    const busy = await registerUser(app, 'bull-busy');
    const other = await registerUser(app, 'bull-other');
    await subscribe(app, busy.id, 'pro_plan');
    const burst = [await submit(busy, 'Burst 1'), await submit(busy, 'Burst 2'), await submit(busy, 'Burst 3')];
    const single = await submit(other, 'Single');
    await startWorker(1);
    for (const jobId of burst) await waitForStatus(app, busy, jobId, 'completed');
    await waitForStatus(app, other, single, 'completed');

    const order = pipeline.runs.map((run) => run.topic).filter((topic) => topic.startsWith('Burst') || topic === 'Single');
    expect(order.indexOf('Single')).toBeLessThan(order.indexOf('Burst 2'));
    expect(order.indexOf('Single')).toBeLessThan(order.indexOf('Burst 3'));
  });

  it('puts back unfinished jobs that Redis lost when the API starts', async () => {
    const user = await registerUser(app, 'bull-lost');
    const jobId = await submit(user, 'Lost by Redis');
    await inspector.remove(jobId);
    expect(await inspector.getJob(jobId)).toBeUndefined();

    const restarted = await buildApp(database.config(env()), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    try {
      await restarted.ready();
      expect(await inspector.getJob(jobId)).toBeTruthy();
      await startWorker();
      await waitForStatus(app, user, jobId, 'completed');
    } finally {
      await restarted.close();
    }
  });
});
