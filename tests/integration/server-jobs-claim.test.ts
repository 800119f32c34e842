import { buildApp, type App } from '@reelsmith/server/testing';
import { createDatabase, type DatabaseHandle } from '@reelsmith/server/testing';
import { BullmqJobWorkers, VIDEO_QUEUE_NAME } from '@reelsmith/server/testing';
import { claimJobWithToken, renewJobClaim } from '@reelsmith/server/testing';
import { createJobRuntime } from '@reelsmith/server/testing';
import { createLogger } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';

const redisUrl = process.env.TEST_REDIS_URL;
const LOCK_MS = 1_500;
const STALL_MS = 6_000;

describe.skipIf(!redisUrl)('a job runs at most once at a time on BullMQ', () => {
  const prefix = `reelsmith-test-${randomBytes(4).toString('hex')}`;
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix });
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let child: ChildProcess | null = null;
  let workers: BullmqJobWorkers | null = null;
  let handle: DatabaseHandle | null = null;
  const completions: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config(env()), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    await app.ready();
    app.jobEvents.on('job_completed', (event) => completions.push(event.jobId));
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await workers?.stop();
    await handle?.db.destroy();
    await app?.close();
    const inspector = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
    await inspector.obliterate({ force: true }).catch(() => undefined);
    await inspector.close();
    await database?.cleanup();
  });

  it('makes a second claimant back off while the claim is fresh, and lets it take over once expired', async () => {
    const user = await registerUser(app, 'claims');
    const job = await app.db
      .insertInto('video_jobs')
      .values({
        id: crypto.randomUUID(),
        user_id: user.id,
        status: 'queued',
        params: JSON.stringify(videoBody('Claimed')),
        steps: '{}',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const now = new Date();
    expect((await claimJobWithToken(app.db, job.id, 'token-a', LOCK_MS, now)).claimed).toBe(true);
    const second = await claimJobWithToken(app.db, job.id, 'token-b', LOCK_MS, new Date(now.getTime() + 100));
    expect(second).toEqual({ claimed: false, heldUntil: new Date(now.getTime() + LOCK_MS).toISOString() });
    expect(await renewJobClaim(app.db, job.id, 'token-a', LOCK_MS, new Date(now.getTime() + 500))).toBe(true);
    const later = new Date(now.getTime() + 500 + LOCK_MS + 1);
    expect((await claimJobWithToken(app.db, job.id, 'token-b', LOCK_MS, later)).claimed).toBe(true);
    expect(await renewJobClaim(app.db, job.id, 'token-a', LOCK_MS, later)).toBe(false);
  });

  it('stops a worker whose event loop was blocked past the lock once another worker took its job over', async () => {
    const user = await registerUser(app, 'stall');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const output: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/stalling-worker.ts'], {
      cwd: root,
      env: { ...process.env, ...database.env, ...env(), STALL_MS: String(STALL_MS), LOCK_MS: String(LOCK_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
    await waitFor(async () => output.includes('ready'), 'the stalling worker to start', 30_000);

    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Stalled render'),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    await waitFor(async () => output.includes('stalling'), 'the worker to stall', 15_000);

    // A healthy worker: BullMQ's stalled check hands it the job once the blocked worker's lock lapses.
    const config = database.config({ ...env() });
    handle = createDatabase(config.database);
    const runtime = createJobRuntime({
      config,
      db: handle.db,
      log: createLogger('silent'),
      runner: pipeline.runner,
      providersFor: pipeline.providersFor,
    });
    workers = new BullmqJobWorkers({
      db: handle.db,
      worker: runtime.worker,
      events: runtime.events,
      redis: { url: redisUrl!, prefix },
      concurrency: 1,
      log: createLogger('silent'),
      lockDurationMs: LOCK_MS,
    });
    await workers.start();

    await waitForStatus(app, user, jobId, 'completed', 30_000);
    await waitFor(async () => output.includes('aborted') || output.includes('continued'), 'the stalled worker to wake and decide', 30_000);
    expect(output).toContain('woke');
    expect(output).toContain('aborted');
    expect(output).not.toContain('continued');
    expect(pipeline.runsOf('Stalled render')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(completions.filter((id) => id === jobId)).toHaveLength(1);
    expect((await app.db.selectFrom('video_jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).status).toBe(
      'completed',
    );
  }, 90_000);
});

describe.skipIf(!redisUrl)('a paused worker on BullMQ and PostgreSQL', () => {
  const prefix = `reelsmith-test-${randomBytes(4).toString('hex')}`;
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix });
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let child: ChildProcess | null = null;
  let workers: BullmqJobWorkers | null = null;
  let handle: DatabaseHandle | null = null;
  const completions: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config(env()), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, claimSweep: { intervalMs: 250, graceMs: LOCK_MS } },
    });
    await app.ready();
    app.jobEvents.on('job_completed', (event) => completions.push(event.jobId));
  }, 120_000);
  afterAll(async () => {
    if (child) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
    await workers?.stop();
    await handle?.db.destroy();
    await app?.close();
    const inspector = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
    await inspector.obliterate({ force: true }).catch(() => undefined);
    await inspector.close();
    await database?.cleanup();
  });

  const row = (jobId: string) =>
    app.db
      .selectFrom('video_jobs')
      .select(['status', 'progress', 'claim_token', 'claim_expires_at'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();

  async function startHealthyWorker(): Promise<void> {
    if (workers) return;
    const config = database.config({ ...env() });
    handle = createDatabase(config.database);
    const runtime = createJobRuntime({
      config,
      db: handle.db,
      log: createLogger('silent'),
      runner: pipeline.runner,
      providersFor: pipeline.providersFor,
    });
    workers = new BullmqJobWorkers({
      db: handle.db,
      worker: runtime.worker,
      events: runtime.events,
      redis: { url: redisUrl!, prefix },
      concurrency: 1,
      log: createLogger('silent'),
      lockDurationMs: LOCK_MS,
    });
    await workers.start();
  }

  it("refuses a SIGSTOPped worker's writes after another worker took its job over, and the new owner finishes it", async () => {
    const user = await registerUser(app, 'paused');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const output: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/stalling-worker.ts'], {
      cwd: root,
      env: { ...process.env, ...database.env, ...env(), STALL_MODE: 'pause', STALL_MS: '0', LOCK_MS: String(LOCK_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
    await waitFor(async () => output.includes('ready'), 'the worker to start', 30_000);

    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Paused render'),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    await waitFor(async () => output.includes('running'), 'the worker to reach the video step', 15_000);
    await waitFor(async () => (await row(jobId)).progress === 60 || null, 'its 60 % to be stored', 5_000);
    const staleToken = (await row(jobId)).claim_token;
    child.kill('SIGSTOP');

    // The healthy worker takes the job once the paused one's lock lapses, and holds it in the video step.
    const gate = pipeline.blockAt('Paused render', 'video');
    await startHealthyWorker();
    await Promise.race([
      gate.reached,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the job was never taken over')), 20_000)),
    ]);
    const taken = await row(jobId);
    expect(taken.status).toBe('processing');
    expect(taken.claim_token).not.toBe(staleToken);
    expect(taken.progress).toBeLessThan(95);

    child.kill('SIGCONT');
    await waitFor(async () => output.includes('aborted') || output.includes('continued'), 'the paused worker to resume and decide', 15_000);
    expect(output).toContain('resumed');
    expect(output).toContain('aborted');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Its 95 % was refused; the new owner's claim and progress are untouched.
    const after = await row(jobId);
    expect(after).toMatchObject({ status: 'processing', claim_token: taken.claim_token });
    expect(after.progress).toBeLessThan(95);

    gate.release();
    await waitForStatus(app, user, jobId, 'completed', 20_000);
    expect(pipeline.runsOf('Paused render')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(completions.filter((id) => id === jobId)).toHaveLength(1);
    child.kill('SIGTERM');
  }, 90_000);

  it('re-queues a job left processing with a lapsed claim and no queue entry', async () => {
    await startHealthyWorker();
    const user = await registerUser(app, 'orphan');
    const lapsed = new Date(Date.now() - 10_000).toISOString();
    const job = await app.db
      .insertInto('video_jobs')
      .values({
        id: crypto.randomUUID(),
        user_id: user.id,
        status: 'processing',
        params: JSON.stringify(videoBody('Orphaned render')),
        steps: '{}',
        created_at: lapsed,
        updated_at: lapsed,
        started_at: lapsed,
        claim_token: 'a-worker-long-gone',
        claim_expires_at: lapsed,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await waitForStatus(app, user, job.id, 'completed', 20_000);
    expect(pipeline.runsOf('Orphaned render')).toHaveLength(1);
    expect((await row(job.id)).claim_token).toBeNull();
  }, 60_000);
});
