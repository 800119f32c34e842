import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/connection.js';
import { createTestDatabase, type TestDatabase } from '../db/dialect-test-database.js';
import { videoJobRow } from '../testing/test-rows.js';
import { percentile, recordStepTiming, throughput } from './throughput.js';

describe('throughput', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const now = new Date('2026-11-27T12:30:00.000Z');
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    handle = createDatabase(database.config().database);
    await migrateToLatest(handle.db);
    await handle.db
      .insertInto('users')
      .values({
        id: 'u',
        email: 'u@example.com',
        name: 'U',
        password_hash: null,
        google_sub: null,
        role: 'user',
        created_at: at(30),
        updated_at: at(30),
      })
      .execute();
    const job = (
      id: string,
      status: 'queued' | 'completed' | 'failed' | 'cancelled',
      created: number,
      started: number | null,
      finished: number | null,
    ) =>
      videoJobRow({
        id,
        user_id: 'u',
        status,
        created_at: at(created),
        updated_at: at(finished ?? created),
        started_at: started === null ? null : at(started),
        completed_at: finished === null ? null : at(finished),
      });
    await handle.db
      .insertInto('video_jobs')
      .values([
        job('a', 'completed', 3.2, 3.1, 3.0), // waits 0.1 h, finishes 3 h ago
        job('b', 'completed', 3.2, 2.6, 2.5), // waits across the 3 h mark
        job('c', 'failed', 1.6, 1.5, 1.4),
        job('d', 'queued', 2.1, null, null), // still waiting
        job('e', 'cancelled', 5.4, null, 5.2), // cancelled while waiting, 07:06 to 07:18
        job('old', 'completed', 40, 40, 39.9), // outside the window
        job('f', 'completed', 0.4, 0.3, 0.2), // waits 12:06-12:12, finishes 12:18: in the last hour
      ])
      .execute();
    for (const [step, seconds] of [
      ['voice', 1],
      ['voice', 2],
      ['voice', 3],
      ['voice', 10],
      ['video', 8],
    ] as const)
      await recordStepTiming(handle.db, { jobId: 'a', step, seconds, finishedAt: new Date(at(1)) });
    await recordStepTiming(handle.db, { jobId: 'old', step: 'video', seconds: 99, finishedAt: new Date(at(30)) });
  });
  afterAll(async () => {
    await handle?.db.destroy();
    await database?.cleanup();
  });

  it('counts finished jobs per hour, the largest queue in each hour, the last hour of videos and step percentiles over 24 h', async () => {
    const result = await throughput(handle.db, now);
    expect(result.buckets).toHaveLength(24);
    expect(result.until).toBe('2026-11-27T13:00:00.000Z');
    const bucketAt = (iso: string) => result.buckets.find((bucket) => bucket.start === iso)!;
    // 12:30 less 3 h is 09:30: in the 09:00 bucket; 2.5 h ago is 10:00, the 10:00 bucket; failed 1.4 h ago is 11:06.
    expect(bucketAt('2026-11-27T09:00:00.000Z').completed).toBe(1);
    expect(bucketAt('2026-11-27T10:00:00.000Z').completed).toBe(1);
    expect(bucketAt('2026-11-27T11:00:00.000Z').failed).toBe(1);
    expect(bucketAt('2026-11-27T12:00:00.000Z').completed).toBe(1);
    expect(result.buckets.reduce((sum, bucket) => sum + bucket.completed, 0)).toBe(3);
    // a waits 09:18-09:24 and b 09:18-09:54: two at once, though none waits when the hour ends.
    expect(bucketAt('2026-11-27T09:00:00.000Z').queueDepth).toBe(2);
    // d waits from 10:24 on; c 10:54-11:00.
    expect(bucketAt('2026-11-27T10:00:00.000Z').queueDepth).toBe(2);
    expect(bucketAt('2026-11-27T11:00:00.000Z').queueDepth).toBe(1);
    // d, and f 12:06-12:12.
    expect(bucketAt('2026-11-27T12:00:00.000Z').queueDepth).toBe(2);
    // e waited 07:06-07:18 (cancelled before starting).
    expect(bucketAt('2026-11-27T07:00:00.000Z').queueDepth).toBe(1);
    expect(bucketAt('2026-11-27T06:00:00.000Z').queueDepth).toBe(0);
    expect(bucketAt('2026-11-27T08:00:00.000Z').queueDepth).toBe(0);
    // The chip: videos completed from 11:30 to 12:30 (f), not 24 h of them spread over 24.
    expect(result.videosPerHour).toBe(1);
    expect(result.failureRate).toBeCloseTo(1 / 4);
    const voice = result.steps.find((step) => step.step === 'voice')!;
    expect(voice).toEqual({ step: 'voice', runs: 4, medianSeconds: 2, p95Seconds: 10 });
    expect(result.steps.find((step) => step.step === 'video')).toEqual({ step: 'video', runs: 1, medianSeconds: 8, p95Seconds: 8 });
    expect(result.steps.find((step) => step.step === 'story')).toEqual({ step: 'story', runs: 0, medianSeconds: null, p95Seconds: null });
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5)).toBe(5);
  });
});
