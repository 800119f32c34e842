import type { ReadinessResponse, Throughput } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScrape } from '../../packages/server/src/operations/prometheus-test-text.js';
import { bearer, registerUser, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';
import { TcpCutProxy } from './tcp-cut-proxy.js';
import { createDatabase } from '@reelsmith/server';

const METRICS_TOKEN = 'metrics-token-for-the-test-0123456789';

describe('GET /metrics with real jobs (embedded queue, offline providers)', () => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', METRICS_TOKEN }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { env: { PATH: process.env.PATH, RESEARCH_PROVIDER: 'off' } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const scrape = async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return readScrape(response.body);
  };

  it('answers only the metrics token when one is set', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toContain('METRICS_TOKEN');
    const wrong = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all-nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('moves its counters with a real video job: requests, job states, every step, the render, and no user ids or free text in labels', async () => {
    const before = await scrape();
    const user = await registerUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why octopuses have three hearts', { voice: 'en-us-m3', resolution: '1:1', enableCaptions: false }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    await waitForStatus(app, user, jobId, 'completed', 200_000);
    // The completion event reaches the metrics in the same tick as the row's write; give it a moment.
    const after = await waitFor(async () => {
      const current = await scrape();
      return (current.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' }) ?? 0) >= 1 ? current : undefined;
    }, 'the completed job in the metrics');

    expect(after.value('reelsmith_jobs', { state: 'completed' })).toBe((before.value('reelsmith_jobs', { state: 'completed' }) ?? 0) + 1);
    for (const step of ['setup', 'story', 'voice', 'images', 'video'])
      expect(after.value('reelsmith_job_step_duration_seconds_count', { step }), step).toBeGreaterThanOrEqual(1);
    const ratio = after.value('reelsmith_render_seconds_per_video_second_sum')!;
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(10);
    // The providers the job called, each call timed under its kind (the offline writer and painter, espeak-ng), none failed.
    for (const kind of ['story', 'voice', 'images'])
      expect(after.total('reelsmith_provider_call_duration_seconds_count', { kind }), kind).toBeGreaterThanOrEqual(1);
    expect(after.value('reelsmith_provider_call_duration_seconds_count', { kind: 'story', provider: 'offline' })).toBe(1);
    expect(after.total('reelsmith_provider_call_errors_total')).toBe(0);
    expect(after.total('reelsmith_http_request_duration_seconds_count', { route: '/api/videos/generate', status_code: '200' })).toBe(1);
    expect(after.total('reelsmith_http_request_duration_seconds_count', { route: '/api/videos/:id/status' })).toBeGreaterThan(0);
    expect(after.value('reelsmith_queue_depth')).toBe(0);
    expect(after.typeOf('reelsmith_nodejs_eventloop_lag_seconds')).toBe('GAUGE');

    // The admin's throughput charts show the same job and the same step runs (from job_step_timings).
    await app.db.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
    const charts = await waitFor(async () => {
      const answer = await app.inject({ method: 'GET', url: '/api/admin/throughput', headers: bearer(user) });
      expect(answer.statusCode, answer.body).toBe(200);
      const body = answer.json() as Throughput;
      return body.steps.every((step) => step.runs >= 1) ? body : undefined;
    }, 'the step timings written');
    expect(charts.buckets.reduce((sum, bucket) => sum + bucket.completed, 0)).toBe(1);
    expect(charts.failureRate).toBe(0);
    for (const step of charts.steps) {
      expect(step.runs, step.step).toBe(after.value('reelsmith_job_step_duration_seconds_count', { step: step.step }));
      expect(step.medianSeconds!, step.step).toBeCloseTo(
        after.value('reelsmith_job_step_duration_seconds_sum', { step: step.step })! / step.runs,
        1,
      );
    }

    const text = (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(text).not.toContain(user.id);
    expect(text).not.toContain(jobId);
    expect(text).not.toContain('octopus');
  }, 240_000);

  it("counts the voice previews' synthesis as voice calls (their providers are the voices plugin's own)", async () => {
    const before = await scrape();
    const counted = before.value('reelsmith_provider_call_duration_seconds_count', { kind: 'voice', provider: 'offline' }) ?? 0;
    expect(app.voiceSamples.generateMissing('offline')).toMatchObject({ started: true });
    try {
      // espeak-ng makes the first preview within a second or so; the rest are not needed here.
      await waitFor(
        async () => {
          const current = await scrape();
          const calls = current.value('reelsmith_provider_call_duration_seconds_count', { kind: 'voice', provider: 'offline' }) ?? 0;
          return calls > counted ? current : undefined;
        },
        'a voice preview counted as a voice call',
        60_000,
      );
    } finally {
      await app.voiceSamples.stop();
    }
  }, 90_000);
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('GET /ready in scale mode (PostgreSQL and Redis behind proxies the test cuts)', () => {
  let database: TestDatabase;
  let app: App;
  const postgres = { proxy: null as TcpCutProxy | null };
  const redis = { proxy: null as TcpCutProxy | null };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const databaseUrl = new URL(database.env.DATABASE_URL!);
    postgres.proxy = new TcpCutProxy(databaseUrl.hostname, Number(databaseUrl.port || 5432));
    const redisTarget = new URL(redisUrl!);
    redis.proxy = new TcpCutProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
    await Promise.all([postgres.proxy.start(), redis.proxy.start()]);
    app = await buildApp(
      database.config({
        DATABASE_URL: postgres.proxy.rewrite(database.env.DATABASE_URL!),
        QUEUE_BACKEND: 'bullmq',
        REDIS_URL: redis.proxy.rewrite(redisUrl!),
        QUEUE_PREFIX: `reelsmith-ready-${randomBytes(4).toString('hex')}`,
      }),
      { voices: { autoGenerateOfflineSamples: false } },
    );
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await postgres.proxy?.restore().catch(() => undefined);
    await redis.proxy?.restore().catch(() => undefined);
    await app?.close();
    await Promise.all([postgres.proxy?.cut(), redis.proxy?.cut()]);
    await database?.cleanup();
  });

  const ready = async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });
    return { status: response.statusCode, body: response.json() as ReadinessResponse };
  };
  const until = (status: number, what: string) =>
    waitFor(
      async () => {
        const answer = await ready();
        return answer.status === status ? answer : undefined;
      },
      what,
      20_000,
    );

  it('is 200 with every check passing, while /health stays the liveness answer', async () => {
    const answer = await until(200, 'ready');
    expect(answer.body).toMatchObject({
      ready: true,
      draining: false,
      checks: { database: { ok: true }, queue: { ok: true }, storage: { ok: true } },
    });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('turns 503 naming the database when PostgreSQL stops answering, and 200 again when it returns', async () => {
    await postgres.proxy!.cut();
    const down = await until(503, 'not ready without PostgreSQL');
    expect(down.body.checks.database.ok).toBe(false);
    expect(down.body.ready).toBe(false);
    await postgres.proxy!.restore();
    await until(200, 'ready again with PostgreSQL back');
  }, 60_000);

  it('turns 503 naming the queue when Redis stops answering, and 200 again when it returns', async () => {
    await redis.proxy!.cut();
    const down = await until(503, 'not ready without Redis');
    expect(down.body.checks.queue.ok).toBe(false);
    expect(down.body.checks.database.ok).toBe(true);
    await redis.proxy!.restore();
    await until(200, 'ready again with Redis back');
  }, 60_000);

  it('turns 503 while draining, with the checks still passing', async () => {
    app.startDraining();
    const answer = await until(503, 'draining');
    expect(answer.body).toMatchObject({ ready: false, draining: true, checks: { database: { ok: true }, queue: { ok: true } } });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL pool when the connection drops mid-query', () => {
  it('fails the query and leaves no unhandled error behind, then answers on a new connection', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = new TcpCutProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const { db } = createDatabase({ dialect: 'postgres', url: proxy.rewrite(target.toString()) });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      // The client is lent out of the pool for the query when the connection is cut.
      const query = db.selectNoFrom((eb) => eb.fn('pg_sleep', [eb.val(5)]).as('slept')).execute();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await proxy.cut();
      await expect(query).rejects.toThrow(/terminated/i);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught).toEqual([]);
      await proxy.restore();
      const rows = await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
      expect(rows).toHaveLength(1);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.destroy();
      await proxy.cut();
    }
  }, 30_000);
});
