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
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the repository's plain ES module script, typed by use
import { ensureBundles, SERVER_BUNDLE_DIR, SERVER_ENTRIES } from '../../scripts/node-bundle.mjs';

/**
 * SIGTERM to the real processes (the compiled bundles `npm start` and `npm run worker` run, offline
 * providers) while a real job is in a step: the process drains and exits by itself within the
 * grace, the job goes back to the queue, and the next start (embedded) or another worker (scale
 * mode, at once: not after a lock expiry) finishes it once, without running again a step whose
 * checkpoint was written before the signal.
 */
const GRACE_SECONDS = 20;
const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let bundles: { main: string; worker: string };
let nextPort = 18_700 + Math.floor(Math.random() * 400);

beforeAll(async () => {
  const built = (await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR)) as { main: string; worker: string };
  bundles = { main: fileURLToPath(built.main), worker: fileURLToPath(built.worker) };
}, 180_000);

/** One service: its DATA_DIR, the processes it started, a creator with a plan. */
class Service {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-drain-'));
  readonly processes = new Set<ChildProcess>();
  port = 0;
  token = '';
  db!: DatabaseHandle;

  constructor(private readonly env: Record<string, string>) {}

  private spawn(bundle: string, extra: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [bundle], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: this.dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        GALLERY_EXAMPLES: 'off',
        RESEARCH_PROVIDER: 'off',
        // Never the natural voices' model from the internet (this small environment has no VITEST or CI).
        VOICE_MODEL_URL: 'off',
        RATE_LIMIT_AUTH_MAX: '1000',
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
        JWT_SECRET: 'drain-test-secret-drain-test-secret-0123',
        ENCRYPTION_KEY: 'drain-test-encryption-key-0123456789abcdef',
        ...this.env,
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.processes.add(child);
    child.once('exit', () => this.processes.delete(child));
    return child;
  }

  async startApi(): Promise<ChildProcess> {
    this.port = nextPort++;
    const child = this.spawn(bundles.main, { PORT: String(this.port) });
    await this.until(`${this.base}/ready`, child);
    return child;
  }

  async startWorker(): Promise<ChildProcess> {
    const metricsPort = nextPort++;
    const child = this.spawn(bundles.worker, { METRICS_PORT: String(metricsPort) });
    await this.until(`http://127.0.0.1:${metricsPort}/ready`, child);
    return child;
  }

  private async until(url: string, child: ChildProcess): Promise<void> {
    for (let tries = 0; ; tries += 1) {
      const ready = await fetch(url).catch(() => null);
      if (ready?.status === 200) return;
      if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
      if (tries > 1_200) throw new Error(`${url} did not become ready`);
      await sleep(50);
    }
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async signUp(database: DatabaseHandle['db'] | null): Promise<void> {
    const response = await fetch(`${this.base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Drain',
        email: `drain-${randomUUID().slice(0, 8)}@example.com`,
        password: 'correct horse battery staple 42',
      }),
    });
    const body = (await response.json()) as { token: string; user: { id: string } };
    this.token = body.token;
    const db = database ?? (this.db = createDatabase({ dialect: 'sqlite', file: join(this.dataDir, 'reelsmith.db') })).db;
    if (database) this.db = { db: database, dialect: 'postgres' };
    await subscribeUserDirectly(db, body.user.id, 'pro_plan');
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

  manifest(jobId: string, step: string): string {
    return join(this.dataDir, 'jobs', jobId, step, 'manifest.json');
  }

  /** Waits for the job's `step`, then notes when each earlier step's checkpoint was written. */
  async reach(jobId: string, step: string): Promise<Map<string, number>> {
    for (;;) {
      const current = await this.status(jobId);
      if (current.status === 'completed' || current.status === 'failed')
        throw new Error(`the job ended (${current.status}) before its ${step} step was seen`);
      if (current.currentStep === step) break;
      await sleep(50);
    }
    const earlier = ['story', 'voice', 'images'].filter((name) => name !== step && existsSync(this.manifest(jobId, name)));
    expect(earlier.length).toBeGreaterThan(0);
    return new Map(earlier.map((name) => [name, statSync(this.manifest(jobId, name)).mtimeMs]));
  }

  /**
   * The resumed run reaches `step` with the earlier checkpoints as they were (the workspace goes
   * when the job finishes, so they are compared while it runs), then the job completes once.
   */
  async finishesFromCheckpoints(jobId: string, step: string, writtenAt: Map<string, number>): Promise<void> {
    let compared = false;
    for (let waited = 0; ; waited += 100) {
      const current = await this.status(jobId);
      if (!compared && current.status !== 'queued' && current.currentStep === step) {
        for (const [name, at] of writtenAt) expect(statSync(this.manifest(jobId, name)).mtimeMs, `${name} ran again`).toBe(at);
        compared = true;
      }
      if (current.status === 'completed') break;
      expect(current.status, current.error ?? '').not.toBe('failed');
      if (waited > 240_000) throw new Error('the resumed job did not finish');
      await sleep(100);
    }
    expect(compared, `the resumed run was seen in its ${step} step`).toBe(true);
    const done = await this.db.db
      .selectFrom('video_jobs')
      .select(['version', 'output_token', 'status'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ version: 1, status: 'completed' });
    expect(done.output_token).toBeTruthy();
  }

  async stop(): Promise<void> {
    for (const child of this.processes) child.kill('SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** SIGTERM and the seconds until the process has exited by itself, with its exit code. */
async function terminate(child: ChildProcess): Promise<{ seconds: number; code: number | null }> {
  const started = performance.now();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await exited;
  return { seconds: (performance.now() - started) / 1000, code };
}

describe('SIGTERM to the server with the embedded queue', () => {
  const service = new Service({});
  let server: ChildProcess;
  beforeAll(async () => {
    server = await service.startApi();
    await service.signUp(null);
  }, 180_000);
  afterAll(async () => {
    await service.db?.db.destroy();
    await service.stop();
  });

  for (const step of ['voice', 'video'] as const) {
    it(`during the ${step} step: exits within the grace, then the next start finishes the job once, from its checkpoints`, async () => {
      const jobId = await service.submit(`How lighthouses guided ships (${step})`);
      const writtenAt = await service.reach(jobId, step);
      const { seconds, code } = await terminate(server);
      expect(code).toBe(0);
      expect(seconds).toBeLessThan(GRACE_SECONDS);
      const row = await service.db.db.selectFrom('video_jobs').select(['status']).where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(row.status).toBe('queued');
      server = await service.startApi();
      await service.finishesFromCheckpoints(jobId, step, writtenAt);
    }, 420_000);
  }
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('SIGTERM to a worker in scale mode (PostgreSQL, BullMQ)', () => {
  let database: TestDatabase;
  let service: Service;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    service = new Service({
      DATABASE_URL: database.env.DATABASE_URL!,
      QUEUE_BACKEND: 'bullmq',
      REDIS_URL: redisUrl!,
      QUEUE_PREFIX: `reelsmith-drain-${randomUUID().slice(0, 8)}`,
      QUEUE_CONCURRENCY: '1',
    });
    await service.startApi();
    const handle = createDatabase(database.config().database);
    await service.signUp(handle.db);
  }, 180_000);
  afterAll(async () => {
    await service?.db?.db.destroy();
    await service?.stop();
    await database?.cleanup();
  });

  it('during the voice step: the worker exits within the grace and another worker resumes the job at once, from its checkpoints', async () => {
    const first = await service.startWorker();
    const jobId = await service.submit('How lighthouses guided ships (scale)');
    const writtenAt = await service.reach(jobId, 'voice');
    const { seconds, code } = await terminate(first);
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(GRACE_SECONDS);
    await service.startWorker();
    const workerReady = performance.now();
    // Taken again as soon as a worker is there: the stopped worker handed it back rather than
    // leaving BullMQ to notice its lock expire.
    for (;;) {
      const current = await service.status(jobId);
      if (current.status !== 'queued') break;
      await sleep(50);
    }
    expect((performance.now() - workerReady) / 1000).toBeLessThan(10);
    await service.finishesFromCheckpoints(jobId, 'voice', writtenAt);
  }, 420_000);
});
