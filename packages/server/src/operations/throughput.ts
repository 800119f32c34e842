import { PIPELINE_STEPS, THROUGHPUT_BUCKET_MINUTES, THROUGHPUT_WINDOW_HOURS, type Throughput } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/schema.js';
import type { StepTiming } from './service-metrics.js';

/** Keeps one finished step's time (the process that ran it writes it). */
export async function recordStepTiming(db: Kysely<Database>, timing: StepTiming): Promise<void> {
  await db
    .insertInto('job_step_timings')
    .values({
      id: randomUUID(),
      job_id: timing.jobId,
      step: timing.step,
      seconds: timing.seconds,
      finished_at: timing.finishedAt.toISOString(),
    })
    .execute();
}

/** Step timings older than this are deleted as new ones are written (the charts show 24 h). */
export const STEP_TIMINGS_KEPT_DAYS = 7;

export async function forgetOldStepTimings(db: Kysely<Database>, now = new Date()): Promise<void> {
  const before = new Date(now.getTime() - STEP_TIMINGS_KEPT_DAYS * 86_400_000).toISOString();
  await db.deleteFrom('job_step_timings').where('finished_at', '<', before).execute();
}

/** The value below which `fraction` of the sorted values lie (nearest rank), or null for none. */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1]!;
}

const round = (value: number | null, digits = 2) => (value === null ? null : Number(value.toFixed(digits)));

/**
 * The last 24 h in hourly buckets: jobs finished per hour (completed, failed), the queue's largest
 * depth in each hour (jobs created and not yet started: from the jobs' own times, so the chart needs
 * no sampling, and a queue that filled and emptied inside an hour still shows), each step's median
 * and p95, and the videos completed in the last 60 minutes.
 */
export async function throughput(db: Kysely<Database>, now = new Date()): Promise<Throughput> {
  const bucketMs = THROUGHPUT_BUCKET_MINUTES * 60_000;
  const until = Math.ceil(now.getTime() / bucketMs) * bucketMs;
  const since = until - THROUGHPUT_WINDOW_HOURS * 3_600_000;
  const sinceIso = new Date(since).toISOString();
  const count = (until - since) / bucketMs;
  const buckets = Array.from({ length: count }, (_, index) => ({
    start: new Date(since + index * bucketMs).toISOString(),
    completed: 0,
    failed: 0,
    queueDepth: 0,
  }));
  const bucketOf = (iso: string | null) => {
    if (!iso) return -1;
    const index = Math.floor((Date.parse(iso) - since) / bucketMs);
    return index >= 0 && index < count ? index : -1;
  };

  // Every job that finished in the window, or was waiting at some moment of it.
  const jobs = await db
    .selectFrom('video_jobs')
    .select(['status', 'created_at', 'started_at', 'completed_at', 'updated_at'])
    .where((eb) => eb.or([eb('completed_at', '>=', sinceIso), eb('started_at', '>=', sinceIso), eb('status', '=', 'queued')]))
    .execute();
  const lastHour = now.getTime() - 3_600_000;
  let completedLastHour = 0;
  // The queue's changes: +1 when a job is created, -1 when it leaves the queue (started, or
  // cancelled before starting).
  const changes: Array<{ at: number; delta: 1 | -1 }> = [];
  for (const job of jobs) {
    const finished = bucketOf(job.completed_at);
    if (finished >= 0 && job.status === 'completed') buckets[finished]!.completed += 1;
    if (finished >= 0 && job.status === 'failed') buckets[finished]!.failed += 1;
    if (job.status === 'completed' && job.completed_at) {
      const completedAt = Date.parse(job.completed_at);
      if (completedAt > lastHour && completedAt <= now.getTime()) completedLastHour += 1;
    }
    const created = Date.parse(job.created_at);
    const leftQueue = job.started_at
      ? Date.parse(job.started_at)
      : job.status === 'queued'
        ? Number.POSITIVE_INFINITY
        : Date.parse(job.completed_at ?? job.updated_at);
    if (!(leftQueue > created)) continue;
    changes.push({ at: created, delta: 1 });
    if (Number.isFinite(leftQueue)) changes.push({ at: leftQueue, delta: -1 });
  }
  // A job leaving and another arriving at the same moment never overlap.
  changes.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let depth = 0;
  let next = 0;
  for (; next < changes.length && changes[next]!.at <= since; next += 1) depth += changes[next]!.delta;
  buckets.forEach((bucket, index) => {
    const end = since + (index + 1) * bucketMs;
    let largest = depth;
    for (; next < changes.length && changes[next]!.at <= end; next += 1) {
      depth += changes[next]!.delta;
      largest = Math.max(largest, depth);
    }
    bucket.queueDepth = largest;
  });

  const timings = await db.selectFrom('job_step_timings').select(['step', 'seconds']).where('finished_at', '>=', sinceIso).execute();
  const byStep = new Map<string, number[]>();
  for (const timing of timings) (byStep.get(timing.step) ?? byStep.set(timing.step, []).get(timing.step)!).push(Number(timing.seconds));
  const steps = PIPELINE_STEPS.map((step) => {
    const sorted = (byStep.get(step) ?? []).sort((a, b) => a - b);
    return { step, runs: sorted.length, medianSeconds: round(percentile(sorted, 0.5)), p95Seconds: round(percentile(sorted, 0.95)) };
  });

  const completed = buckets.reduce((sum, bucket) => sum + bucket.completed, 0);
  const failed = buckets.reduce((sum, bucket) => sum + bucket.failed, 0);
  return {
    since: sinceIso,
    until: new Date(until).toISOString(),
    bucketMinutes: THROUGHPUT_BUCKET_MINUTES,
    buckets,
    videosPerHour: completedLastHour,
    failureRate: completed + failed === 0 ? null : round(failed / (completed + failed), 4),
    steps,
  };
}
