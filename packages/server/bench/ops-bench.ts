/**
 * Operations benchmark, the way an operator's Grafana would see the service:
 *
 *   npm run bench:ops                 20 real offline jobs (30 s, 9:16) through two BullMQ workers
 *   npm run bench:ops -- --jobs 6     fewer jobs
 *
 * Starts the compiled API and two compiled workers (QUEUE_BACKEND=bullmq, QUEUE_CONCURRENCY=1 each)
 * on PostgreSQL (a fresh schema at BENCH_DATABASE_URL, default the machine's
 * postgres://postgres@127.0.0.1:5432/test) and Redis (BENCH_REDIS_URL, default
 * redis://127.0.0.1:6379), submits the jobs at once through the HTTP API, scrapes the API's and
 * the workers' GET /metrics every second, and prints videos per hour, the median and p95 of each
 * step from the workers' histograms beside the admin page's figures (GET /api/admin/throughput,
 * exact percentiles from job_step_timings), and the queue depth curve. Printed, never asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { Throughput } from '@reelsmith/contracts';
import { REPO_ROOT } from '../src/config.js';
import { createDatabase } from '../src/db/connection.js';
import { createTestDatabase } from '../src/db/dialect-test-database.js';
import { readScrape } from '../src/operations/prometheus-test-text.js';
import { subscribeUserDirectly } from '../src/testing/test-plan.js';

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const JOBS = argument('jobs', 20);
const WORKERS = 2;
const API_PORT = 18_600;
const WORKER_PORTS = [18_611, 18_612];
const STEPS = ['setup', 'story', 'voice', 'images', 'video'] as const;

process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** histogram_quantile as Prometheus computes it: linear inside the bucket the rank falls in. */
function histogramQuantile(buckets: Array<[number, number]>, q: number): number | null {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let previousBound = 0;
  let previousCount = 0;
  for (const [bound, count] of buckets) {
    if (count >= rank) {
      if (!Number.isFinite(bound)) return previousBound;
      return previousBound + ((bound - previousBound) * (rank - previousCount)) / Math.max(1, count - previousCount);
    }
    previousBound = bound;
    previousCount = count;
  }
  return previousBound;
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres');
  const env = {
    ...process.env,
    ...database.env,
    QUEUE_BACKEND: 'bullmq',
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `reelsmith-bench-ops-${randomUUID().slice(0, 8)}`,
    QUEUE_CONCURRENCY: '1',
    RESEARCH_PROVIDER: 'off',
    VOICE_MODEL_URL: 'off',
    GALLERY_EXAMPLES: 'off',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    RATE_LIMIT_AUTH_MAX: '1000',
  };
  const children: ChildProcess[] = [];
  // The API and the workers run as an operator runs them (`npm run serve`, `npm run worker` exec
  // scripts/run-server.mjs): the compiled server, its bundle rebuilt first when a source changed.
  const start = (entry: 'main' | 'worker', extra: Record<string, string>) => {
    const child = spawn(process.execPath, ['scripts/run-server.mjs', entry], {
      cwd: REPO_ROOT,
      env: { ...env, ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  };
  const stopAll = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
  };
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

  try {
    start('main', { PORT: String(API_PORT) });
    const api = `http://127.0.0.1:${API_PORT}`;
    for (let tries = 0; ; tries += 1) {
      const ready = await fetch(`${api}/ready`).catch(() => null);
      if (ready?.status === 200) break;
      // Two minutes: the first start may build the server's bundle before it listens.
      if (tries > 1200) throw new Error('the API did not become ready');
      await sleep(100);
    }
    for (const port of WORKER_PORTS) start('worker', { METRICS_PORT: String(port) });

    // A creator with a plan, and an admin to read the throughput page.
    const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
    const registered = (await (
      await fetch(`${api}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench', email, password: 'correct horse battery staple 42' }),
      })
    ).json()) as { user: { id: string }; token: string };
    const handle = createDatabase(database.config().database);
    await subscribeUserDirectly(handle.db, registered.user.id, 'pro_plan');
    await handle.db.updateTable('users').set({ role: 'admin' }).where('id', '=', registered.user.id).execute();
    const headers = { authorization: `Bearer ${registered.token}`, 'content-type': 'application/json' };

    for (let tries = 0; ; tries += 1) {
      const ready = await Promise.all(WORKER_PORTS.map((port) => fetch(`http://127.0.0.1:${port}/ready`).catch(() => null)));
      if (ready.every((answer) => answer?.status === 200)) break;
      if (tries > 600) throw new Error('the workers did not become ready');
      await sleep(100);
    }

    console.log(`load average ${load()} · ${JOBS} jobs (30 s, 9:16, offline) · ${WORKERS} workers, one job each at a time`);
    const started = performance.now();
    const topics = ['Why octopuses have three hearts', 'How lighthouses guided ships', 'Why volcanoes erupt', 'How bees make honey'];
    for (let index = 0; index < JOBS; index += 1) {
      const response = await fetch(`${api}/api/videos/generate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          topic: `${topics[index % topics.length]} (${index + 1})`,
          style: 'educational',
          language: 'en',
          duration: 30,
          voice: 'en-us-m3',
        }),
      });
      if (response.status !== 200) throw new Error(`submit ${index + 1}: ${response.status} ${await response.text()}`);
    }

    const curve: Array<{ at: number; depth: number; done: number }> = [];
    let done = 0;
    while (done < JOBS) {
      await sleep(1_000);
      const scrape = readScrape(await (await fetch(`${api}/metrics`)).text());
      done = (scrape.value('reelsmith_jobs', { state: 'completed' }) ?? 0) + (scrape.value('reelsmith_jobs', { state: 'failed' }) ?? 0);
      curve.push({ at: (performance.now() - started) / 1000, depth: scrape.value('reelsmith_queue_depth') ?? 0, done });
      // Workers are scraped every second too, as Prometheus would (their figures are read at the end).
      await Promise.all(WORKER_PORTS.map((port) => fetch(`http://127.0.0.1:${port}/metrics`).then((answer) => answer.text())));
    }
    const seconds = (performance.now() - started) / 1000;
    const finalApi = readScrape(await (await fetch(`${api}/metrics`)).text());
    const failed = finalApi.value('reelsmith_jobs', { state: 'failed' }) ?? 0;

    const workerScrapes = await Promise.all(
      WORKER_PORTS.map(async (port) => readScrape(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text())),
    );
    const admin = (await (await fetch(`${api}/api/admin/throughput`, { headers })).json()) as Throughput;

    console.log(
      `\n${JOBS - failed} made, ${failed} failed in ${seconds.toFixed(1)} s: ${((3600 * (JOBS - failed)) / seconds).toFixed(0)} videos per hour`,
    );
    const perWorker = workerScrapes.map((scrape) => scrape.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' }) ?? 0);
    console.log(`jobs per worker: ${perWorker.join(', ')}`);
    console.log('\nstep      runs   p50 (metrics)  p50 (admin)   p95 (metrics)  p95 (admin)');
    for (const step of STEPS) {
      // The sum over both workers of each cumulative bucket is the service's histogram.
      const bounds = new Map<number, number>();
      let runs = 0;
      for (const scrape of workerScrapes) {
        runs += scrape.value('reelsmith_job_step_duration_seconds_count', { step }) ?? 0;
      }
      for (const scrape of workerScrapes)
        for (const bound of [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, Number.POSITIVE_INFINITY]) {
          const le = Number.isFinite(bound) ? String(bound) : '+Inf';
          bounds.set(bound, (bounds.get(bound) ?? 0) + (scrape.value('reelsmith_job_step_duration_seconds_bucket', { le, step }) ?? 0));
        }
      const buckets = [...bounds.entries()].sort((a, b) => a[0] - b[0]);
      const row = admin.steps.find((item) => item.step === step);
      const format = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${value.toFixed(2)} s`);
      console.log(
        `${step.padEnd(8)} ${String(runs).padStart(5)} ${format(histogramQuantile(buckets, 0.5)).padStart(14)} ${format(row?.medianSeconds).padStart(12)} ${format(
          histogramQuantile(buckets, 0.95),
        ).padStart(15)} ${format(row?.p95Seconds).padStart(12)}   (admin: ${row?.runs ?? 0} runs)`,
      );
    }
    console.log(
      `admin page: failure rate ${admin.failureRate === null ? '—' : `${(100 * admin.failureRate).toFixed(1)}%`}, made in the last hour bucket(s): ${admin.buckets
        .slice(-2)
        .map((bucket) => bucket.completed)
        .join(' + ')}`,
    );
    console.log('\nqueue depth (every 5 s):');
    for (const point of curve.filter((_, index) => index % 5 === 0 || index === curve.length - 1))
      console.log(
        `  ${point.at.toFixed(0).padStart(4)} s  ${'#'.repeat(point.depth).padEnd(JOBS)} ${point.depth} waiting, ${point.done} done`,
      );
    console.log(`\nload average ${load()}`);
    await handle.db.destroy();
  } finally {
    await stopAll();
    await database.cleanup();
  }
}

await main();
