import type { VideoJob } from '@reelsmith/contracts';
import { createDatabase, type DatabaseHandle } from '@reelsmith/server/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the repository's plain ES module script, typed by use
import { ensureBundles, SERVER_BUNDLE_DIR, SERVER_ENTRIES } from '../../scripts/node-bundle.mjs';

/**
 * SIGTERM to the real server (the compiled bundle `npm start` runs, embedded queue, offline
 * providers) while a real job is in a step: the process drains and exits by itself within the
 * grace, the job goes back to the queue, and the next start finishes it once, without running again
 * a step whose checkpoint was written before the signal.
 */
const GRACE_SECONDS = 20;
const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-drain-'));
let port = 18_700 + Math.floor(Math.random() * 200);
let mainBundle = '';
let server: ChildProcess | null = null;
let database: DatabaseHandle;
let token = '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const base = () => `http://127.0.0.1:${port}`;

async function startServer(): Promise<ChildProcess> {
  port += 1;
  const child = spawn(process.execPath, [mainBundle], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      GALLERY_EXAMPLES: 'off',
      RESEARCH_PROVIDER: 'off',
      RATE_LIMIT_AUTH_MAX: '1000',
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      JWT_SECRET: 'drain-test-secret-drain-test-secret-0123',
      ENCRYPTION_KEY: 'drain-test-encryption-key-0123456789abcdef',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  for (let tries = 0; ; tries += 1) {
    const ready = await fetch(`${base()}/ready`).catch(() => null);
    if (ready?.status === 200) return child;
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (tries > 1_200) throw new Error('the server did not become ready');
    await sleep(50);
  }
}

async function status(jobId: string): Promise<VideoJob> {
  const response = await fetch(`${base()}/api/videos/${jobId}/status`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as VideoJob;
}

/** SIGTERM and the seconds until the process has exited by itself, with its exit code. */
async function terminate(child: ChildProcess): Promise<{ seconds: number; code: number | null }> {
  const started = performance.now();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await exited;
  return { seconds: (performance.now() - started) / 1000, code };
}

const manifest = (jobId: string, step: string) => join(dataDir, 'jobs', jobId, step, 'manifest.json');

beforeAll(async () => {
  ({ main: mainBundle } = (await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR)) as { main: string });
  mainBundle = fileURLToPath(mainBundle);
  server = await startServer();
  const email = `drain-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await fetch(`${base()}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Drain', email, password: 'correct horse battery staple 42' }),
  });
  const body = (await registered.json()) as { token: string; user: { id: string } };
  token = body.token;
  database = createDatabase({ dialect: 'sqlite', file: join(dataDir, 'reelsmith.db') });
  const now = new Date();
  await database.db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      user_id: body.user.id,
      plan_id: 'pro_plan',
      currency: 'USD',
      status: 'active',
      start_date: now.toISOString(),
      end_date: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      cancelled_at: null,
      cancellation_reason: null,
      last_order_id: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
}, 180_000);

afterAll(async () => {
  server?.kill('SIGKILL');
  await database?.db.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGTERM drains the real server and loses nothing', () => {
  for (const step of ['voice', 'video'] as const) {
    it(`during the ${step} step: exits within the grace, then the next start finishes the job once, from its checkpoints`, async () => {
      const submitted = await fetch(`${base()}/api/videos/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          topic: `How lighthouses guided ships (${step})`,
          style: 'educational',
          language: 'en',
          duration: 30,
          voice: 'en-us-m3',
          resolution: '1:1',
        }),
      });
      expect(submitted.status).toBe(200);
      const { jobId } = (await submitted.json()) as { jobId: string };
      for (;;) {
        const current = await status(jobId);
        if (current.status === 'completed' || current.status === 'failed')
          throw new Error(`the job ended (${current.status}) before its ${step} step was seen`);
        if (current.currentStep === step) break;
        await sleep(100);
      }
      // The steps finished before the signal: their checkpoints must survive it untouched.
      const earlier = ['story', 'voice', 'images'].filter((name) => name !== step && existsSync(manifest(jobId, name)));
      expect(earlier.length).toBeGreaterThan(0);
      const writtenAt = new Map(earlier.map((name) => [name, statSync(manifest(jobId, name)).mtimeMs]));

      const { seconds, code } = await terminate(server!);
      expect(code).toBe(0);
      expect(seconds).toBeLessThan(GRACE_SECONDS);
      const row = await database.db.selectFrom('video_jobs').select(['status']).where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(row.status).toBe('queued');

      server = await startServer();
      // The resumed run reaches the interrupted step with the earlier checkpoints as they were (the
      // workspace goes when the job finishes, so they are compared while it runs).
      let compared = false;
      for (let waited = 0; ; waited += 100) {
        const current = await status(jobId);
        if (!compared && current.status !== 'queued' && current.currentStep === step) {
          for (const [name, at] of writtenAt) expect(statSync(manifest(jobId, name)).mtimeMs, `${name} ran again`).toBe(at);
          compared = true;
        }
        if (current.status === 'completed') break;
        expect(current.status, current.error ?? '').not.toBe('failed');
        if (waited > 240_000) throw new Error('the resumed job did not finish');
        await sleep(100);
      }
      expect(compared, `the resumed run was seen in its ${step} step`).toBe(true);
      // Finished once: the first version, published under one output token.
      const done = await database.db
        .selectFrom('video_jobs')
        .select(['version', 'output_token', 'status'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      expect(done).toMatchObject({ version: 1, status: 'completed' });
      expect(done.output_token).toBeTruthy();
    }, 420_000);
  }
});
