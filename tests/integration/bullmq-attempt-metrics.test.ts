import { BullmqJobWorkers, buildApp, createDatabase, createJobRuntime, createLogger, createTestDatabase } from '@reelsmith/server/testing';
import type { App, Config, DatabaseHandle, TestDatabase } from '@reelsmith/server/testing';
import { VIDEO_QUEUE_NAME } from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, videoBody, waitFor, waitForStatus, type TestUser } from './server-jobs-fakes.js';

/**
 * The scale mode's attempt counts (issue 54): a worker counts the stalled jobs its BullMQ stalled
 * check puts back (a worker killed with kill -9 mid-job) and the attempts that ended on it without
 * finishing the job and are retried (a worker that stops hands its job back). Real PostgreSQL and
 * the Redis at TEST_REDIS_URL.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const LOCK_MS = 1_500;
const root = fileURLToPath(new URL('../..', import.meta.url));

describe.skipIf(!redisUrl)('BullMQ stalled and retried attempts, as a worker counts them', () => {
  const prefix = `reelsmith-attempts-${randomBytes(4).toString('hex')}`;
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let inspector: Queue;
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix });
  const children: ChildProcess[] = [];
  const stops: Array<() => Promise<void>> = [];

  /** An in-process worker wired as worker-main.ts wires one, its attempt events counted. */
  async function startWorker(config: Config) {
    const handle: DatabaseHandle = createDatabase(config.database);
    const log = createLogger('silent');
    const runtime = createJobRuntime({ config, db: handle.db, log, runner: pipeline.runner, providersFor: pipeline.providersFor });
    const counts = { stalled: 0, retried: 0 };
    const workers = new BullmqJobWorkers({
      db: handle.db,
      worker: runtime.worker,
      events: runtime.events,
      redis: { url: redisUrl!, prefix },
      concurrency: 1,
      log,
      lockDurationMs: LOCK_MS,
      onAttempt: (event) => (counts[event] += 1),
    });
    await workers.start();
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await workers.stop();
      await handle.db.destroy();
    };
    stops.push(stop);
    return { workers, counts, stop };
  }

  async function submit(user: TestUser, topic: string): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody(topic) });
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
    inspector = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const stop of stops) await stop().catch(() => undefined);
    await app?.close();
    await inspector?.obliterate({ force: true }).catch(() => undefined);
    await inspector?.close();
    await database?.cleanup();
  });

  it("counts a stopped worker's handed-back attempt as retried, on that worker, once", async () => {
    const user = await registerUser(app, 'attempt-retried');
    const first = await startWorker(database.config(env()));
    const gate = pipeline.blockAt('Handed back', 'images');
    const jobId = await submit(user, 'Handed back');
    await gate.reached;
    await first.stop();
    expect(first.counts).toEqual({ stalled: 0, retried: 1 });

    gate.release();
    const second = await startWorker(database.config(env()));
    await waitForStatus(app, user, jobId, 'completed');
    expect(second.counts).toEqual({ stalled: 0, retried: 0 });
    await second.stop();
  }, 60_000);

  it('counts the job of a worker killed with kill -9 as stalled, on the worker whose check found it', async () => {
    const user = await registerUser(app, 'attempt-stalled');
    const output: string[] = [];
    const crashing = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/crashing-worker.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ...database.env,
        ...env(),
        CRASH_MODE: 'bullmq',
        LOCK_MS: String(LOCK_MS),
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(crashing);
    crashing.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
    await waitFor(async () => output.includes('ready') || crashing.exitCode !== null, 'the crashing worker to start', 60_000);
    const jobId = await submit(user, 'Crashed mid-step');
    await waitFor(async () => output.includes(`in-step ${jobId}`), 'the job to be mid-step', 60_000);
    crashing.kill('SIGKILL');
    await new Promise((resolve) => crashing.once('exit', resolve));

    const healthy = await startWorker(database.config(env()));
    await waitForStatus(app, user, jobId, 'completed', 30_000);
    expect(healthy.counts).toEqual({ stalled: 1, retried: 0 });
  }, 120_000);
});
