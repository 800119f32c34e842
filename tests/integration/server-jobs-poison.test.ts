import { systemHealthResponseSchema } from '@reelsmith/contracts';
import {
  buildApp,
  CRASHED_RUNS_MESSAGES,
  createTestDatabase,
  VIDEO_QUEUE_NAME,
  type App,
  type TestDatabase,
} from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, PASSWORD, registerUser, videoBody, waitFor, type TestUser } from './server-jobs-fakes.js';

const redisUrl = process.env.TEST_REDIS_URL;
const LOCK_MS = 1_500;
const root = fileURLToPath(new URL('../..', import.meta.url));

/** A process running jobs (crashing-worker.ts); its output lines as they come. */
interface Runner {
  child: ChildProcess;
  output: string[];
}

let runners: Runner[] = [];
afterEach(() => {
  for (const { child } of runners) child.kill('SIGKILL');
  runners = [];
});

async function startRunner(env: Record<string, string>): Promise<Runner> {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/crashing-worker.ts'], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
  const runner = { child, output };
  runners.push(runner);
  await waitFor(async () => output.includes('ready') || child.exitCode !== null, 'the job runner to start', 60_000);
  expect(child.exitCode).toBeNull();
  return runner;
}

async function killMidStep(runner: Runner, jobId: string): Promise<void> {
  await waitFor(async () => runner.output.includes(`in-step ${jobId}`), 'the job to be mid-step', 60_000);
  runner.child.kill('SIGKILL');
  await new Promise((resolve) => runner.child.once('exit', resolve));
}

/**
 * Submits a video, lets two runner processes crash in its story step (SIGKILL), then starts a third:
 * it starts normally and fails the job at once instead of running it a third time.
 */
async function crashTwice(app: App, user: TestUser, env: Record<string, string>): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('Poison') });
  expect(response.statusCode, response.body).toBe(200);
  const { jobId } = response.json() as { jobId: string };
  await killMidStep(await startRunner(env), jobId);
  await killMidStep(await startRunner(env), jobId);
  const third = await startRunner(env);
  const row = await waitFor(
    async () => {
      const found = await app.db.selectFrom('video_jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      return found.status === 'failed' ? found : null;
    },
    'the job to be failed',
    60_000,
  );
  // A topic's video: the message does not tell the creator to try a topic.
  expect(row.error).toBe(CRASHED_RUNS_MESSAGES.topic);
  expect(third.output).not.toContain(`in-step ${jobId}`);
  expect(third.child.exitCode).toBeNull();
  return jobId;
}

async function expectUncharged(app: App, user: TestUser, jobId: string): Promise<void> {
  // The creator sees why, and the failed video is not their free one: another can be made.
  const status = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/status`, headers: bearer(user) });
  expect(status.json()).toMatchObject({ status: 'failed', error: CRASHED_RUNS_MESSAGES.topic, retryable: false });
  const next = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('Next') });
  expect(next.statusCode, next.body).toBe(200);
}

const ADMIN_EMAIL = 'queue-admin@example.com';

/** The admin's session token (ADMIN_EMAILS applies to a verified address, at sign-in). */
async function signInAdmin(app: App): Promise<string> {
  const registered = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Ops', email: ADMIN_EMAIL, password: PASSWORD },
  });
  expect(registered.statusCode, registered.body).toBe(200);
  await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', ADMIN_EMAIL).execute();
  const signedIn = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: ADMIN_EMAIL, password: PASSWORD } });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  return (signedIn.json() as { token: string }).token;
}

async function expectInQueueView(app: App, user: TestUser, jobId: string): Promise<void> {
  // The admin sees which job was stopped, whose, and in which step, not only one more failure.
  const token = await signInAdmin(app);
  const answer = await app.inject({ method: 'GET', url: '/api/admin/system-health', headers: { authorization: `Bearer ${token}` } });
  expect(answer.statusCode, answer.body).toBe(200);
  const { queue } = systemHealthResponseSchema.parse(answer.json());
  expect(queue.crashedJobs).toEqual([{ id: jobId, userEmail: user.email, step: 'story', failedAt: expect.any(String) as string }]);
  expect(queue.failedLastHour).toBe(1);
  expect(queue.summary).toContain('1 stopped after crashing twice');
}

describe('a job whose runs crash the process', () => {
  it('is failed, not resumed, after two crashes in embedded mode, and the server starts normally', async () => {
    const database: TestDatabase = await createTestDatabase('postgres');
    const pipeline = new FakePipeline();
    // This process only takes requests; the runner processes run the embedded queue.
    const app = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
    });
    try {
      await app.ready();
      const user = await registerUser(app, 'poison-embedded');
      const jobId = await crashTwice(app, user, { ...database.env, CRASH_MODE: 'embedded' });
      for (const { child } of runners) child.kill('SIGKILL');
      await expectUncharged(app, user, jobId);
      await expectInQueueView(app, user, jobId);
    } finally {
      await app.close();
      await database.cleanup();
    }
  }, 240_000);

  it.skipIf(!redisUrl)(
    'is failed, not resumed, after two crashed workers in scale mode',
    async () => {
      const prefix = `reelsmith-test-${randomBytes(4).toString('hex')}`;
      const env = { QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix };
      const database: TestDatabase = await createTestDatabase('postgres');
      const pipeline = new FakePipeline();
      const app = await buildApp(database.config({ ...env, ADMIN_EMAILS: ADMIN_EMAIL }), {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, claimSweep: { intervalMs: 250, graceMs: LOCK_MS } },
      });
      try {
        await app.ready();
        const user = await registerUser(app, 'poison-bullmq');
        const jobId = await crashTwice(app, user, { ...database.env, ...env, CRASH_MODE: 'bullmq', LOCK_MS: String(LOCK_MS) });
        await expectUncharged(app, user, jobId);
        await expectInQueueView(app, user, jobId);
      } finally {
        await app.close();
        const inspector = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
        await inspector.obliterate({ force: true }).catch(() => undefined);
        await inspector.close();
        await database.cleanup();
      }
    },
    240_000,
  );
});
