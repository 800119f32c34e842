import type { VideoJob } from '@reelsmith/contracts';
import {
  createDatabase,
  createTestDatabase,
  subscribeUserDirectly,
  type DatabaseHandle,
  type TestDatabase,
} from '@reelsmith/server/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScrape } from '../../packages/server/src/operations/prometheus-test-text.js';
// @ts-expect-error -- the repository's plain ES module script, typed by use
import { ensureBundles, SERVER_BUNDLE_DIR, SERVER_ENTRIES } from '../../scripts/node-bundle.mjs';

/**
 * The commands an operator's process manager runs (`npm start`, `npm run worker`), each started in
 * its own process group as systemd, Docker or a terminal would. SIGTERM goes to npm alone (what
 * `docker stop` sends when npm is PID 1), then, on the next start, to the whole group (systemd's
 * default, Ctrl-C): each time every process of the tree is gone within the grace with exit code 0,
 * the running job is back in the queue, and the third start finishes it exactly once, each step's
 * time recorded once for the admin page and the job counted once in /metrics.
 */
const GRACE_SECONDS = 20;
const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let nextPort = 19_200 + Math.floor(Math.random() * 400);

beforeAll(async () => {
  // Built once here, so the timed starts below only check the bundles.
  await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR);
}, 180_000);

/** Pids of every process with this variable in its environment (a whole tree: children inherit it, ffmpeg too). */
function processesWith(variable: string): number[] {
  const marker = `${variable}\0`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // exited, waiting for its parent to read its status
      if (`\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`.includes(`\0${marker}`)) found.push(Number(entry));
    } catch {
      // Gone while listed.
    }
  }
  return found;
}
const processesOf = (dataDir: string) => processesWith(`DATA_DIR=${dataDir}`);

class Service {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-npm-signals-'));
  readonly groups = new Set<ChildProcess>();
  port = 0;
  token = '';
  timings = '';
  db!: DatabaseHandle;

  constructor(private readonly env: Record<string, string>) {}

  /** `npm run <script>` as the leader of its own process group. */
  npm(script: string, extra: Record<string, string> = {}): ChildProcess {
    const child = spawn('npm', script === 'start' ? ['start'] : ['run', script], {
      cwd: root,
      detached: true,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: this.dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        GALLERY_EXAMPLES: 'off',
        RESEARCH_PROVIDER: 'off',
        // No model download from outside: the tests never leave this machine (espeak-ng narrates).
        VOICE_MODEL_URL: 'off',
        RATE_LIMIT_AUTH_MAX: '1000',
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
        JWT_SECRET: 'npm-signals-secret-npm-signals-secret-01',
        ENCRYPTION_KEY: 'npm-signals-encryption-key-0123456789abc',
        ...this.env,
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.groups.add(child);
    child.once('exit', () => this.groups.delete(child));
    return child;
  }

  async start(): Promise<ChildProcess> {
    this.port = nextPort++;
    const child = this.npm('start', { PORT: String(this.port) });
    await until(`${this.base}/ready`, child);
    return child;
  }

  async startWorker(): Promise<{ child: ChildProcess; metrics: string; marker: string }> {
    const metricsPort = nextPort++;
    const child = this.npm('worker', { METRICS_PORT: String(metricsPort) });
    await until(`http://127.0.0.1:${metricsPort}/ready`, child);
    return { child, metrics: `http://127.0.0.1:${metricsPort}/metrics`, marker: `METRICS_PORT=${metricsPort}` };
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async signUp(database: DatabaseHandle['db'] | null): Promise<void> {
    const response = await fetch(`${this.base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Signals',
        email: `signals-${randomUUID().slice(0, 8)}@example.com`,
        password: 'correct horse battery 42',
      }),
    });
    const body = (await response.json()) as { token: string; user: { id: string } };
    this.token = body.token;
    if (database) this.db = { db: database, dialect: 'postgres' };
    else this.db = createDatabase({ dialect: 'sqlite', file: join(this.dataDir, 'reelsmith.db') });
    await subscribeUserDirectly(this.db.db, body.user.id, 'pro_plan');
  }

  async submit(topic: string): Promise<string> {
    const response = await fetch(`${this.base}/api/videos/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topic, style: 'educational', language: 'en', duration: 30, voice: 'en-us-m3', resolution: '1:1' }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { jobId: string }).jobId;
  }

  async status(jobId: string): Promise<VideoJob> {
    const response = await fetch(`${this.base}/api/videos/${jobId}/status`, { headers: { authorization: `Bearer ${this.token}` } });
    return (await response.json()) as VideoJob;
  }

  /** Waits until the job runs one of `steps` (read from the database: the API may be the process being stopped). */
  async reach(jobId: string, steps: readonly string[]): Promise<void> {
    for (let waited = 0; ; waited += 50) {
      const row = await this.db.db
        .selectFrom('video_jobs')
        .select(['status', 'current_step'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      if (row.status === 'completed' || row.status === 'failed') throw new Error(`the job ended (${row.status}) before ${steps.join('/')}`);
      if (row.status === 'processing' && row.current_step && steps.includes(row.current_step)) return;
      if (waited > 300_000) throw new Error(`the job did not reach ${steps.join('/')}`);
      await sleep(50);
    }
  }

  async jobRow(jobId: string) {
    return this.db.db
      .selectFrom('video_jobs')
      .select(['status', 'version', 'output_token'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
  }

  /** How many times each step's time was recorded for the job (the admin's throughput statistics). */
  async stepRuns(jobId: string): Promise<Record<string, number>> {
    const rows = await this.db.db
      .selectFrom('job_step_timings')
      .select(['step', 'seconds', 'finished_at'])
      .where('job_id', '=', jobId)
      .orderBy('finished_at')
      .execute();
    this.timings = rows.map((row) => `${row.step} ${Number(row.seconds).toFixed(2)} s at ${row.finished_at}`).join('; ');
    const runs: Record<string, number> = {};
    for (const row of rows) runs[row.step] = (runs[row.step] ?? 0) + 1;
    return runs;
  }

  async stop(): Promise<void> {
    for (const child of this.groups) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    for (const pid of processesOf(this.dataDir)) process.kill(pid, 'SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

async function until(url: string, child: ChildProcess): Promise<void> {
  for (let tries = 0; ; tries += 1) {
    const ready = await fetch(url).catch(() => null);
    if (ready?.status === 200) return;
    if (child.exitCode !== null) throw new Error(`${url}: npm exited with ${child.exitCode}`);
    if (tries > 3_000) throw new Error(`${url} did not become ready`);
    await sleep(50);
  }
}

/**
 * Sends SIGTERM to npm alone or to its whole group, then waits for npm's exit and for every process
 * that carried the service's DATA_DIR to be gone; returns npm's exit code and the seconds it all took.
 */
async function stopWith(target: 'npm' | 'group', npm: ChildProcess, dataDir: string): Promise<{ code: number | null; seconds: number }> {
  const pid = npm.pid!;
  expect(processesOf(dataDir).length).toBeGreaterThanOrEqual(2);
  const exited = new Promise<number | null>((resolve) =>
    npm.exitCode !== null ? resolve(npm.exitCode) : npm.once('exit', (code) => resolve(code)),
  );
  const started = performance.now();
  process.kill(target === 'npm' ? pid : -pid, 'SIGTERM');
  const code = await exited;
  for (;;) {
    const left = processesOf(dataDir);
    if (left.length === 0) break;
    if ((performance.now() - started) / 1000 > GRACE_SECONDS + 5) throw new Error(`still running after the grace: ${left.join(', ')}`);
    await sleep(50);
  }
  return { code, seconds: (performance.now() - started) / 1000 };
}

describe('SIGTERM to `npm start` (embedded queue)', () => {
  const service = new Service({});
  afterAll(async () => {
    await service.db?.db.destroy();
    await service.stop();
  });

  it('drains on SIGTERM to npm alone, then to the group, and the third start finishes the job exactly once', async () => {
    let npm = await service.start();
    await service.signUp(null);
    // A fresh process: every job counter is there at 0 before the first job.
    const fresh = readScrape(await (await fetch(`${service.base}/metrics`)).text());
    expect(fresh.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(0);

    const jobId = await service.submit('How lighthouses guided ships (npm start)');
    await service.reach(jobId, ['voice', 'images']);
    const first = await stopWith('npm', npm, service.dataDir);
    expect(first.code).toBe(0);
    expect(first.seconds).toBeLessThan(GRACE_SECONDS);
    expect((await service.jobRow(jobId)).status).toBe('queued');

    npm = await service.start();
    await service.reach(jobId, ['images', 'video']);
    const second = await stopWith('group', npm, service.dataDir);
    expect(second.code).toBe(0);
    expect(second.seconds).toBeLessThan(GRACE_SECONDS);
    expect((await service.jobRow(jobId)).status).toBe('queued');

    npm = await service.start();
    for (let waited = 0; (await service.jobRow(jobId)).status !== 'completed'; waited += 200) {
      expect((await service.jobRow(jobId)).status).not.toBe('failed');
      if (waited > 300_000) throw new Error('the resumed job did not finish');
      await sleep(200);
    }
    expect(await service.jobRow(jobId)).toMatchObject({ version: 1, status: 'completed' });
    // Each step recorded once across the three processes: a resumed step is not counted again.
    for (;;) {
      const runs = await service.stepRuns(jobId);
      if (Object.keys(runs).length >= 5) {
        for (const [step, count] of Object.entries(runs)) expect(count, `${step}: ${service.timings}`).toBe(1);
        break;
      }
      await sleep(100);
    }
    const after = readScrape(await (await fetch(`${service.base}/metrics`)).text());
    expect(after.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(1);
    await stopWith('group', npm, service.dataDir);
  }, 900_000);
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('SIGTERM to `npm run worker` (PostgreSQL, BullMQ)', () => {
  let database: TestDatabase;
  let service: Service;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    service = new Service({
      DATABASE_URL: database.env.DATABASE_URL!,
      QUEUE_BACKEND: 'bullmq',
      REDIS_URL: redisUrl!,
      QUEUE_PREFIX: `reelsmith-npm-signals-${randomUUID().slice(0, 8)}`,
      QUEUE_CONCURRENCY: '1',
    });
    await service.start();
    await service.signUp(createDatabase(database.config().database).db);
  }, 300_000);
  afterAll(async () => {
    await service?.db?.db.destroy();
    await service?.stop();
    await database?.cleanup();
  });

  async function stopWorker(
    target: 'npm' | 'group',
    { child: npm, marker }: { child: ChildProcess; marker: string },
  ): Promise<{ code: number | null; seconds: number }> {
    expect(processesWith(marker).length).toBeGreaterThanOrEqual(1);
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    const started = performance.now();
    process.kill(target === 'npm' ? npm.pid! : -npm.pid!, 'SIGTERM');
    const code = await exited;
    for (;;) {
      const left = processesWith(marker);
      if (left.length === 0) break;
      if ((performance.now() - started) / 1000 > GRACE_SECONDS + 5) throw new Error(`still running after the grace: ${left.join(', ')}`);
      await sleep(50);
    }
    return { code, seconds: (performance.now() - started) / 1000 };
  }

  it('drains on SIGTERM to npm alone, then to the group; the third worker finishes the job exactly once', async () => {
    let worker = await service.startWorker();
    const fresh = readScrape(await (await fetch(worker.metrics)).text());
    expect(fresh.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(0);
    const jobId = await service.submit('How lighthouses guided ships (npm run worker)');
    await service.reach(jobId, ['voice', 'images']);
    // The worker's own provider calls (worker-main wires its registry to its metrics): the story is written.
    const during = readScrape(await (await fetch(worker.metrics)).text());
    expect(during.total('reelsmith_provider_call_duration_seconds_count', { kind: 'story' })).toBe(1);
    expect(fresh.value('reelsmith_queue_stalled_jobs_total')).toBe(0);
    const first = await stopWorker('npm', worker);
    expect(first.code).toBe(0);
    expect(first.seconds).toBeLessThan(GRACE_SECONDS);
    expect((await service.jobRow(jobId)).status).toBe('queued');

    worker = await service.startWorker();
    await service.reach(jobId, ['images', 'video']);
    const second = await stopWorker('group', worker);
    expect(second.code).toBe(0);
    expect(second.seconds).toBeLessThan(GRACE_SECONDS);
    expect((await service.jobRow(jobId)).status).toBe('queued');

    worker = await service.startWorker();
    for (let waited = 0; (await service.jobRow(jobId)).status !== 'completed'; waited += 200) {
      expect((await service.jobRow(jobId)).status).not.toBe('failed');
      if (waited > 300_000) throw new Error('the resumed job did not finish');
      await sleep(200);
    }
    expect(await service.jobRow(jobId)).toMatchObject({ version: 1, status: 'completed' });
    for (;;) {
      const runs = await service.stepRuns(jobId);
      if (Object.keys(runs).length >= 5) {
        for (const [step, count] of Object.entries(runs)) expect(count, `${step}: ${service.timings}`).toBe(1);
        break;
      }
      await sleep(100);
    }
    const after = readScrape(await (await fetch(worker.metrics)).text());
    expect(after.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(1);
  }, 900_000);
});
