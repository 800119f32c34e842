/**
 * Batch throughput on this machine, with the real pipeline and the offline providers (no network):
 *   single video        one 30 s video on its own, submit to completed
 *   embedded queue      a 20-row batch (POST /api/batches) on the in-process queue, QUEUE_CONCURRENCY=1
 *   BullMQ, 2 workers   the same batch on BullMQ (REDIS_URL, else TEST_REDIS_URL) with two workers of one job each
 * Each line gives the wall time and the videos per hour, with the load average (`uptime`) before and
 * after: other work on the machine slows every figure, so they are printed, never asserted.
 *
 *   npm run bench:batch                   20 rows
 *   npm run bench:batch -- --rows 6       a shorter batch
 *   npm run bench:batch -- --no-bullmq    the embedded queue only
 *   npm run bench:batch -- --no-embedded  BullMQ only (no single-video time either)
 */
import { batchDetailSchema, type BatchDetail } from '@reelsmith/contracts';
import {
  AppSettings,
  buildApp,
  BullmqJobWorkers,
  createDatabase,
  createJobRuntime,
  createLogger,
  loadConfig,
  type App,
  subscribeUserDirectly,
} from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const rowsArg = args.indexOf('--rows');
const ROWS = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 20;
if (!Number.isInteger(ROWS) || ROWS < 1 || ROWS > 100) throw new Error('--rows takes a whole number from 1 to 100');
const redisUrl = args.includes('--no-bullmq') ? undefined : (process.env.REDIS_URL ?? process.env.TEST_REDIS_URL);

/** The pipeline's environment: offline providers, no Wikipedia look-up (no network), the system's tools. */
const PIPELINE_ENV = { PATH: process.env.PATH, RESEARCH_PROVIDER: 'off', VOICE_MODEL_URL: 'off' };
const DEFAULTS = { style: 'educational', language: 'en', duration: 30, resolution: '9:16', voice: 'en-us-m3' };
const TOPICS = [
  'Why cats purr',
  'How volcanoes form',
  'The deep sea',
  'Why the sky is blue',
  'How bees make honey',
  'The first lighthouses',
  'Why leaves change colour',
  'How octopuses hide',
  'The Silk Road',
  'Why we dream',
];

function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')}`;
  }
}

async function setUp(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-bench-batch-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
    ENCRYPTION_KEY: 'bench-encryption-key-that-is-long-enough-0123',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_AUTH_MAX: '1000',
    GALLERY_EXAMPLES: 'off',
    QUEUE_CONCURRENCY: '1',
    ...env,
  });
  const app = await buildApp(config, { voices: { autoGenerateOfflineSamples: false }, jobs: { env: PIPELINE_ENV } });
  await app.ready();
  const registered = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Bench Creator', email: `bench-${randomUUID()}@example.com`, password: 'bench-password' },
  });
  const { token, user } = registered.json() as { token: string; user: { id: string } };
  // An unlimited plan, straight into the database (payments are not what is measured).
  await subscribeUserDirectly(app.db, user.id, 'pro_plan');
  return { app, config, dataDir, headers: { authorization: `Bearer ${token}` } };
}

async function waitForBatch(app: App, headers: Record<string, string>, id: string): Promise<BatchDetail> {
  for (;;) {
    const batch = batchDetailSchema.parse((await app.inject({ method: 'GET', url: `/api/batches/${id}`, headers })).json());
    if (batch.status === 'completed' || batch.status === 'cancelled') return batch;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function runBatch(app: App, headers: Record<string, string>): Promise<{ seconds: number; batch: BatchDetail }> {
  const rows = Array.from({ length: ROWS }, (_, index) => ({ topic: `${TOPICS[index % TOPICS.length]} ${index + 1}` }));
  const started = performance.now();
  const response = await app.inject({ method: 'POST', url: '/api/batches', headers, payload: { name: 'Bench', defaults: DEFAULTS, rows } });
  if (response.statusCode !== 202) throw new Error(`POST /api/batches answered ${response.statusCode}: ${response.body}`);
  const batch = await waitForBatch(app, headers, batchDetailSchema.parse(response.json()).id);
  return { seconds: (performance.now() - started) / 1000, batch };
}

function report(title: string, videos: number, seconds: number, batch?: BatchDetail) {
  const perHour = (videos / seconds) * 3600;
  const failed = batch
    ? `   completed ${batch.counts.completed}/${batch.counts.total}${batch.counts.failed ? `, failed ${batch.counts.failed}` : ''}`
    : '';
  console.log(
    `${title.padEnd(34)} ${String(videos).padStart(3)} video${videos === 1 ? ' ' : 's'}  ${seconds.toFixed(1).padStart(7)} s  ${perHour.toFixed(0).padStart(5)} videos/hour${failed}`,
  );
}

async function singleAndEmbedded(): Promise<number> {
  const { app, dataDir, headers } = await setUp({});
  try {
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers,
      payload: { ...DEFAULTS, topic: 'Why cats purr' },
    });
    if (response.statusCode !== 200) throw new Error(`generate answered ${response.statusCode}: ${response.body}`);
    const { jobId } = response.json() as { jobId: string };
    for (;;) {
      const job = (await app.inject({ method: 'GET', url: `/api/videos/${jobId}/status`, headers })).json() as {
        status: string;
        error?: string;
      };
      if (job.status === 'completed') break;
      if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`the single video ${job.status}: ${job.error ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const single = (performance.now() - started) / 1000;
    report('single video (embedded queue)', 1, single);
    console.log(`  ${uptime()}`);

    const { seconds, batch } = await runBatch(app, headers);
    report(`${ROWS}-row batch, embedded queue`, ROWS, seconds, batch);
    console.log(`  ${uptime()}`);
    return single;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function bullmq(url: string): Promise<void> {
  const prefix = `reelsmith-bench-${randomBytes(4).toString('hex')}`;
  const { app, config, dataDir, headers } = await setUp({ QUEUE_BACKEND: 'bullmq', REDIS_URL: url, QUEUE_PREFIX: prefix });
  const log = createLogger('silent');
  const workers: Array<{ workers: BullmqJobWorkers; close: () => Promise<void> }> = [];
  try {
    // Two workers, each as `npm run worker` builds one (its own database connection and Redis
    // connections), in this process: their ffmpeg and espeak run as child processes either way.
    for (let i = 0; i < 2; i++) {
      const handle = createDatabase(config.database);
      const settings = new AppSettings(handle.db);
      await settings.start();
      const runtime = createJobRuntime({ config, db: handle.db, log, env: PIPELINE_ENV, settings });
      const jobWorkers = new BullmqJobWorkers({
        db: handle.db,
        worker: runtime.worker,
        events: runtime.events,
        redis: { url, prefix },
        concurrency: 1,
        log,
      });
      await jobWorkers.start();
      workers.push({
        workers: jobWorkers,
        close: async () => {
          await settings.stop();
          await handle.db.destroy();
        },
      });
    }
    const { seconds, batch } = await runBatch(app, headers);
    report(`${ROWS}-row batch, BullMQ, 2 workers`, ROWS, seconds, batch);
    console.log(`  ${uptime()}`);
  } finally {
    for (const worker of workers) {
      await worker.workers.stop();
      await worker.close();
    }
    await app.close();
    const queue = new Queue('video-jobs', { connection: { url, maxRetriesPerRequest: null }, prefix });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`Reelsmith batch bench: real pipeline, offline providers, 30 s 9:16 videos; ${ROWS} rows`);
  console.log(`  before: ${uptime()}`);
  if (!args.includes('--no-embedded')) await singleAndEmbedded();
  if (redisUrl) await bullmq(redisUrl);
  else console.log('BullMQ: skipped (no REDIS_URL or TEST_REDIS_URL, or --no-bullmq)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
