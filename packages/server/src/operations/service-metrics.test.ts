import { MESSAGES, SERVICE_UNAVAILABLE_MESSAGES, type PipelineStep } from '@reelsmith/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/connection.js';
import { createTestDatabase, type TestDatabase } from '../db/dialect-test-database.js';
import { videoJobRow } from '../testing/test-rows.js';
import { readScrape } from './prometheus-test-text.js';
import { DURATION_BUCKETS, failureReasonOf, KNOWN_SERVICE_PROVIDERS, ServiceMetrics } from './service-metrics.js';

describe('ServiceMetrics', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let clock = 0;
  let metrics: ServiceMetrics;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    handle = createDatabase(database.config().database);
    await migrateToLatest(handle.db);
    metrics = new ServiceMetrics({ db: handle.db, activeSockets: () => 3 }, () => clock);
  });
  afterAll(async () => {
    await handle?.db.destroy();
    await database?.cleanup();
  });

  const progress = (jobId: string, step: PipelineStep, at: number, status: 'processing' | 'cancelled' = 'processing') => {
    clock = at;
    metrics.jobProgressed({ jobId, step, progress: 10, stepProgress: 0, status });
  };

  it('times each step from the change of step in the progress events, and the render against the video length', async () => {
    progress('a', 'setup', 0);
    progress('a', 'story', 500);
    progress('a', 'voice', 1_500);
    progress('a', 'voice', 2_000);
    progress('a', 'images', 4_500);
    progress('a', 'video', 5_000);
    clock = 20_000;
    metrics.jobCompleted({ jobId: 'a', result: { durationSeconds: 30 } as never });

    const scrape = readScrape(await metrics.render());
    expect(scrape.typeOf('reelsmith_job_step_duration_seconds')).toBe('HISTOGRAM');
    const sumOf = (step: string) => scrape.value('reelsmith_job_step_duration_seconds_sum', { step })!;
    expect(sumOf('setup')).toBeCloseTo(0.5);
    expect(sumOf('story')).toBeCloseTo(1);
    expect(sumOf('voice')).toBeCloseTo(3);
    expect(sumOf('images')).toBeCloseTo(0.5);
    expect(sumOf('video')).toBeCloseTo(15);
    expect(scrape.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(1);
    expect(scrape.value('reelsmith_job_duration_seconds_sum', { outcome: 'completed' })).toBeCloseTo(20);
    expect(scrape.value('reelsmith_render_seconds_per_video_second_sum')).toBeCloseTo(0.5);
    expect(scrape.value('reelsmith_active_sockets')).toBe(3);
  });

  it('counts a failure under the step that was running and a fixed reason, never the message', async () => {
    progress('b', 'setup', 0);
    progress('b', 'voice', 100);
    metrics.jobFailed({ jobId: 'b', error: SERVICE_UNAVAILABLE_MESSAGES.voice });
    progress('c', 'story', 0);
    metrics.jobFailed({ jobId: 'c', error: 'Your script is longer than a 30 s video can hold' });
    progress('d', 'images', 0);
    progress('d', 'images', 50, 'cancelled');

    const text = await metrics.render();
    const scrape = readScrape(text);
    expect(scrape.typeOf('reelsmith_job_failures_total')).toBe('COUNTER');
    expect(scrape.value('reelsmith_job_failures_total', { step: 'voice', reason: 'service_unavailable' })).toBe(1);
    expect(scrape.value('reelsmith_job_failures_total', { step: 'story', reason: 'other' })).toBe(1);
    expect(text).not.toContain('longer than');
    for (const outcome of ['completed', 'failed', 'cancelled'])
      expect(scrape.value('reelsmith_job_duration_seconds_count', { outcome })).toBeGreaterThan(0);
  });

  it('reads job states, the queue and webhook outcomes from the database at scrape time', async () => {
    const user = 'u1';
    const now = new Date();
    await handle.db
      .insertInto('users')
      .values({
        id: user,
        email: 'm@example.com',
        name: 'M',
        password_hash: null,
        google_sub: null,
        role: 'user',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    const job = (id: string, status: 'queued' | 'completed', createdAt: Date) =>
      videoJobRow({ id, user_id: user, status, created_at: createdAt.toISOString() });
    clock = now.getTime();
    await handle.db
      .insertInto('video_jobs')
      .values([
        job('q1', 'queued', new Date(clock - 42_000)),
        job('q2', 'queued', new Date(clock - 5_000)),
        job('c1', 'completed', new Date(clock - 90_000)),
      ])
      .execute();

    const scrape = readScrape(await metrics.render());
    expect([scrape.value('reelsmith_jobs', { state: 'queued' }), scrape.value('reelsmith_jobs', { state: 'completed' })]).toEqual([2, 1]);
    expect(scrape.value('reelsmith_jobs', { state: 'failed' })).toBe(0);
    expect(scrape.value('reelsmith_queue_depth')).toBe(2);
    expect(scrape.value('reelsmith_queue_oldest_waiting_seconds')).toBeCloseTo(42, 0);
    expect(scrape.total('reelsmith_webhook_deliveries_total')).toBe(0);
    // The default process metrics are there, under the service's prefix.
    expect(scrape.typeOf('reelsmith_process_resident_memory_bytes')).toBe('GAUGE');
  });
});

describe('ServiceMetrics on a fresh process', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    handle = createDatabase(database.config().database);
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle?.db.destroy();
    await database?.cleanup();
  });

  it('has every job counter and histogram series at 0 before the first event, then 1 after it', async () => {
    const metrics = new ServiceMetrics({ db: handle.db });
    const fresh = readScrape(await metrics.render());
    for (const outcome of ['completed', 'failed', 'cancelled'])
      expect(fresh.value('reelsmith_job_duration_seconds_count', { outcome }), outcome).toBe(0);
    for (const step of ['setup', 'story', 'voice', 'images', 'video']) {
      expect(fresh.value('reelsmith_job_step_duration_seconds_count', { step }), step).toBe(0);
      for (const reason of ['service_unavailable', 'internal', 'other'])
        expect(fresh.value('reelsmith_job_failures_total', { step, reason }), `${step} ${reason}`).toBe(0);
    }
    expect(fresh.value('reelsmith_render_seconds_per_video_second_count')).toBe(0);
    metrics.jobProgressed({ jobId: 'first', step: 'setup', progress: 0, stepProgress: 0, status: 'processing' });
    metrics.jobProgressed({ jobId: 'first', step: 'video', progress: 90, stepProgress: 0, status: 'processing' });
    metrics.jobCompleted({ jobId: 'first', result: { durationSeconds: 30 } as never });
    const after = readScrape(await metrics.render());
    expect(after.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(1);
  });

  it('has every provider call and queue attempt series at 0 before the first call, then counts calls and errors by code', async () => {
    const metrics = new ServiceMetrics({ db: handle.db });
    const fresh = readScrape(await metrics.render());
    expect(fresh.typeOf('reelsmith_provider_call_duration_seconds')).toBe('HISTOGRAM');
    const pairs = Object.entries(KNOWN_SERVICE_PROVIDERS).flatMap(([kind, providers]) => providers.map((provider) => ({ kind, provider })));
    expect(pairs).toContainEqual({ kind: 'voice', provider: 'elevenlabs' });
    expect(pairs).toContainEqual({ kind: 'research', provider: 'wikipedia' });
    expect(pairs).toContainEqual({ kind: 'publishing', provider: 'tiktok' });
    for (const labels of pairs) {
      expect(fresh.value('reelsmith_provider_call_duration_seconds_count', labels), JSON.stringify(labels)).toBe(0);
      for (const code of ['auth', 'rate_limited', 'unavailable', 'rejected', 'aborted', 'other'])
        expect(fresh.value('reelsmith_provider_call_errors_total', { ...labels, code }), `${JSON.stringify(labels)} ${code}`).toBe(0);
    }
    expect(fresh.value('reelsmith_queue_stalled_jobs_total')).toBe(0);
    expect(fresh.value('reelsmith_queue_retried_attempts_total')).toBe(0);

    metrics.providerCalled({ kind: 'story', provider: 'openai', seconds: 3.2 });
    metrics.providerCalled({ kind: 'story', provider: 'openai', seconds: 0.4, error: 'rate_limited' });
    metrics.providerCalled({ kind: 'publishing', provider: 'youtube', seconds: 80, error: 'unavailable' });
    metrics.queueAttempt('stalled');
    metrics.queueAttempt('retried');
    metrics.queueAttempt('retried');
    const after = readScrape(await metrics.render());
    expect(after.value('reelsmith_provider_call_duration_seconds_count', { kind: 'story', provider: 'openai' })).toBe(2);
    expect(after.value('reelsmith_provider_call_duration_seconds_sum', { kind: 'story', provider: 'openai' })).toBeCloseTo(3.6);
    expect(after.value('reelsmith_provider_call_errors_total', { kind: 'story', provider: 'openai', code: 'rate_limited' })).toBe(1);
    expect(after.value('reelsmith_provider_call_errors_total', { kind: 'publishing', provider: 'youtube', code: 'unavailable' })).toBe(1);
    expect(after.total('reelsmith_provider_call_errors_total')).toBe(2);
    expect(after.value('reelsmith_queue_stalled_jobs_total')).toBe(1);
    expect(after.value('reelsmith_queue_retried_attempts_total')).toBe(2);
  });

  it('counts a resumed job only for the steps no earlier run timed', async () => {
    const timed: string[] = [];
    let clock = 0;
    const metrics = new ServiceMetrics(
      { db: handle.db, onStepTimed: (timing) => timed.push(timing.step), stepsTimedBefore: async () => new Set(['setup', 'story']) },
      () => clock,
    );
    // The resumed run shows images for a moment before voice reports again (they run at once).
    for (const [step, at] of [
      ['setup', 0],
      ['story', 10],
      ['voice', 20],
      ['images', 1_000],
      ['voice', 2_000],
      ['images', 40_000],
      ['video', 50_000],
    ] as const) {
      clock = at;
      metrics.jobProgressed({ jobId: 'resumed', step, progress: 10, stepProgress: 0, status: 'processing' });
    }
    clock = 60_000;
    metrics.jobCompleted({ jobId: 'resumed', result: { durationSeconds: 30 } as never });
    const scrape = readScrape(await metrics.render());
    expect(timed).toEqual(['voice', 'images', 'video']);
    expect(scrape.value('reelsmith_job_step_duration_seconds_count', { step: 'setup' })).toBe(0);
    expect(scrape.value('reelsmith_job_step_duration_seconds_count', { step: 'story' })).toBe(0);
    expect(scrape.value('reelsmith_job_step_duration_seconds_count', { step: 'voice' })).toBe(1);
  });

  it('finds the steps an earlier run timed in job_step_timings', async () => {
    const now = new Date().toISOString();
    await handle.db
      .insertInto('job_step_timings')
      .values([
        { id: 't1', job_id: 'earlier', step: 'setup', seconds: 1, finished_at: now },
        { id: 't2', job_id: 'earlier', step: 'story', seconds: 2, finished_at: now },
      ])
      .execute();
    const timed: string[] = [];
    const metrics = new ServiceMetrics({ db: handle.db, onStepTimed: (timing) => timed.push(timing.step) });
    for (const step of ['setup', 'story', 'voice'] as const)
      metrics.jobProgressed({ jobId: 'earlier', step, progress: 10, stepProgress: 0, status: 'processing' });
    await metrics.render();
    expect(timed).toEqual([]);
    metrics.jobProgressed({ jobId: 'earlier', step: 'images', progress: 50, stepProgress: 0, status: 'processing' });
    await metrics.render();
    expect(timed).toEqual(['voice']);
  });

  it('says which version and commit it runs', async () => {
    const text = await new ServiceMetrics({ db: handle.db }).render();
    expect(text).toMatch(/^reelsmith_build_info\{version="\d+\.\d+\.\d+[^"]*",commit="([0-9a-f]{7,40}|unknown)"\} 1$/m);
  });

  it('serves its own metrics when the database is down: the database gauges left out, never an error', async () => {
    const down = createDatabase({ dialect: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      const metrics = new ServiceMetrics({ db: down.db, activeSockets: () => 2 });
      const started = performance.now();
      const scrape = readScrape(await metrics.render());
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(scrape.value('reelsmith_database_gauges_up')).toBe(0);
      expect(scrape.value('reelsmith_queue_depth')).toBeUndefined();
      expect(scrape.value('reelsmith_queue_oldest_waiting_seconds')).toBeUndefined();
      expect(scrape.value('reelsmith_jobs', { state: 'queued' })).toBeUndefined();
      expect(scrape.value('reelsmith_active_sockets')).toBe(2);
      expect(scrape.typeOf('reelsmith_process_resident_memory_bytes')).toBe('GAUGE');
      expect(scrape.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(0);
    } finally {
      await down.db.destroy().catch(() => undefined);
    }
  });

  it('reads the database once for many scrapes in a row, each scrape costing well under 20 ms of CPU', async () => {
    let queries = 0;
    const counted = handle.db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    // A still clock: the cache's lifetime does not run out however slow the loop is here.
    const metrics = new ServiceMetrics({ db: counted }, () => 1_000_000);
    await metrics.render();
    const afterFirst = queries;
    expect(afterFirst).toBe(4);
    // CPU time, not wall time: on a loaded machine the wait for a core is not the scrape's cost.
    const costs: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const before = process.cpuUsage();
      await metrics.render();
      const used = process.cpuUsage(before);
      costs.push((used.user + used.system) / 1000);
    }
    expect(queries).toBe(afterFirst);
    costs.sort((a, b) => a - b);
    expect(costs[10]!).toBeLessThan(20);
  });
});

describe('DURATION_BUCKETS', () => {
  /** histogram_quantile's estimate: linear interpolation inside the bucket the rank falls in. */
  function histogramQuantile(q: number, values: readonly number[]): number {
    const rank = q * values.length;
    let below = 0;
    let lower = 0;
    for (const upper of DURATION_BUCKETS) {
      const inBucket = values.filter((value) => value > lower && value <= upper).length;
      if (below + inBucket >= rank) return lower + ((upper - lower) * (rank - below)) / inBucket;
      below += inBucket;
      lower = upper;
    }
    return lower;
  }

  it('resolves the p50 and p95 of 5-120 s renders within 10%', () => {
    for (let centre = 5; centre <= 110; centre *= 1.07) {
      // A spread of renders around the centre (0.8x to 1.2x), as a loaded machine gives.
      const values = Array.from({ length: 200 }, (_, index) => Math.min(120, centre * (0.8 + (0.4 * index) / 199)));
      const sorted = [...values].sort((a, b) => a - b);
      for (const q of [0.5, 0.95]) {
        const exact = sorted[Math.ceil(q * sorted.length) - 1]!;
        const estimate = histogramQuantile(q, values);
        expect(Math.abs(estimate - exact) / exact, `q${q} around ${centre.toFixed(1)} s`).toBeLessThan(0.1);
      }
    }
  });
});

describe('failureReasonOf', () => {
  it('classes the service messages and the unexpected-error message, everything else as other', () => {
    for (const message of Object.values(SERVICE_UNAVAILABLE_MESSAGES)) expect(failureReasonOf(message)).toBe('service_unavailable');
    expect(failureReasonOf(MESSAGES.generationUnexpectedError)).toBe('internal');
    expect(failureReasonOf('anything a creator could read')).toBe('other');
  });
});
