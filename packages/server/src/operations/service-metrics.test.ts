import { MESSAGES, SERVICE_UNAVAILABLE_MESSAGES, type PipelineStep } from '@reelsmith/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/connection.js';
import { createTestDatabase, type TestDatabase } from '../db/dialect-test-database.js';
import { readScrape } from './prometheus-test-text.js';
import { failureReasonOf, ServiceMetrics } from './service-metrics.js';

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
    const job = (id: string, status: 'queued' | 'completed', createdAt: Date) => ({
      id,
      user_id: user,
      status,
      params: '{}',
      steps: '{}',
      result: null,
      error: null,
      current_step: null,
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      started_at: null,
      completed_at: null,
    });
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

describe('failureReasonOf', () => {
  it('classes the service messages and the unexpected-error message, everything else as other', () => {
    for (const message of Object.values(SERVICE_UNAVAILABLE_MESSAGES)) expect(failureReasonOf(message)).toBe('service_unavailable');
    expect(failureReasonOf(MESSAGES.generationUnexpectedError)).toBe('internal');
    expect(failureReasonOf('anything a creator could read')).toBe('other');
  });
});
