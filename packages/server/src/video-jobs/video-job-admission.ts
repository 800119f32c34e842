import { MESSAGES, NEW_JOB_PROGRESS, type GenerationParams, type PipelineStep } from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import type { VideoBatchRow, VideoJobRow } from '../db/schema.js';
import { checkCanGenerate, remainingVideos } from '../payments/can-generate.js';
import { recordVideoMade } from '../payments/subscription-state.js';
import { crashedItsRuns, initialSteps, parseParams, parseSteps } from './video-job-view.js';
import { type Db } from './video-job-states.js';

/* Admission: a new job, a batch's jobs or a retry, each checked against the plan's quota in the transaction that writes it. */

export type CreateJobOutcome = { created: true; job: VideoJobRow } | { created: false; reason: string | null };

let lastSubmission = 0;
/**
 * A job's created_at orders a user's queued jobs (claimNextJob), so two submits in the same
 * millisecond must not tie: the id that breaks a tie is random, and a creator's second video could
 * start before the first. Within this process every submission gets a distinct, increasing time
 * (at most a few milliseconds ahead of the clock under a burst). Across processes, submits that
 * close are concurrent requests whose order nobody can see anyway. The routes that queue jobs pass it
 * as `now`.
 */
export function submissionTime(): Date {
  lastSubmission = Math.max(Date.now(), lastSubmission + 1);
  return new Date(lastSubmission);
}

/**
 * Checks the account's quota and inserts the job in ONE transaction, so concurrent submits at the
 * limit cannot both pass the check: PostgreSQL serialises them on the user's row (locked by
 * checkCanGenerate), SQLite runs one write transaction at a time.
 */
export async function createJobWithinQuota(
  db: Db,
  userId: string,
  params: GenerationParams,
  now = new Date(),
  brand: string | null = null,
): Promise<CreateJobOutcome> {
  return db.transaction().execute(async (trx) => {
    const verdict = await checkCanGenerate(trx, userId, params.duration, now);
    if (!verdict.canGenerate) return { created: false, reason: verdict.reason };
    return { created: true, job: await insertCountedJob(trx, userId, params, now.toISOString(), brand, null) };
  });
}

/** Inserts a queued job and counts it against the plan: the caller's transaction has checked the quota. */
async function insertCountedJob(
  trx: Db,
  userId: string,
  params: GenerationParams,
  timestamp: string,
  brand: string | null,
  batch: { id: string; index: number } | null,
): Promise<VideoJobRow> {
  const job = await trx
    .insertInto('video_jobs')
    .values({
      id: randomUUID(),
      user_id: userId,
      status: 'queued',
      params: JSON.stringify(params),
      progress: NEW_JOB_PROGRESS,
      current_step: null,
      step_progress: 0,
      steps: JSON.stringify(initialSteps()),
      result: null,
      error: null,
      created_at: timestamp,
      updated_at: timestamp,
      started_at: null,
      completed_at: null,
      brand,
      batch_id: batch?.id ?? null,
      batch_index: batch?.index ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordVideoMade(trx, { jobId: job.id, userId, createdAt: timestamp });
  return job;
}

export type CreateBatchOutcome =
  | { created: true; batch: VideoBatchRow; jobs: VideoJobRow[] }
  | { created: false; needed: number; remaining: number; reason: string | null };

/** Thrown inside the batch's transaction to roll every row back. */
class BatchRefused extends Error {
  constructor(readonly reason: string | null) {
    super(reason ?? 'refused');
  }
}

/**
 * A batch and one job per row in ONE transaction, under the same quota rules as a single video
 * (checkCanGenerate per row, which sees the rows inserted before it): either every row is queued
 * or none. `needed`/`remaining` tell a batch beyond what the plan has left this month.
 */
export async function createBatchWithinQuota(
  db: Db,
  userId: string,
  batch: { name: string | null; rows: readonly GenerationParams[]; brand: string | null },
  now = new Date(),
): Promise<CreateBatchOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      // The first check locks the user's row (PostgreSQL), so the count below cannot change under us.
      const first = await checkCanGenerate(trx, userId, batch.rows[0]?.duration, now);
      const remaining = await remainingVideos(trx, userId, now);
      if (remaining !== null && remaining < batch.rows.length) {
        return { created: false, needed: batch.rows.length, remaining, reason: first.reason };
      }
      const timestamp = now.toISOString();
      const row = await trx
        .insertInto('video_batches')
        .values({ id: randomUUID(), user_id: userId, name: batch.name, created_at: timestamp, completed_at: null, cancelled_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      const jobs: VideoJobRow[] = [];
      for (const [index, params] of batch.rows.entries()) {
        const verdict = index === 0 ? first : await checkCanGenerate(trx, userId, params.duration, now);
        if (!verdict.canGenerate) throw new BatchRefused(verdict.reason);
        jobs.push(await insertCountedJob(trx, userId, params, timestamp, batch.brand, { id: row.id, index }));
      }
      return { created: true, batch: row, jobs };
    });
  } catch (error) {
    if (!(error instanceof BatchRefused)) throw error;
    return {
      created: false,
      needed: batch.rows.length,
      remaining: (await remainingVideos(db, userId, now)) ?? batch.rows.length,
      reason: error.reason,
    };
  }
}

export type RetryJobOutcome = { retried: true; job: VideoJobRow } | { retried: false; reason: string };

export const RETRY_ONLY_FAILED = 'Only a failed video can be retried.';
/** Retry of a job that crashed its server twice: it would only be failed again at once. */
export const RETRY_CRASHED =
  'This video stopped the server twice while it was being made, so it cannot be retried. Make a new video instead; this one does not count against your plan.';

/**
 * Puts the user's failed job back in the queue, keeping its id, progress and finished steps: the
 * worker keeps a failed job's workspace, so the rerun resumes from its checkpoints. A failed job is
 * not counted against the plan (nor as the free video), so the retry is checked exactly like a new
 * submit would be: the video counts once if it now succeeds, never twice; the check and the update
 * share one transaction so a concurrent submit cannot take the same slot.
 */
export async function retryFailedUserJob(db: Db, userId: string, jobId: string, now = new Date()): Promise<RetryJobOutcome | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('video_jobs').selectAll().where('id', '=', jobId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    if (row.status !== 'failed') return { retried: false, reason: RETRY_ONLY_FAILED };
    if (crashedItsRuns(row)) return { retried: false, reason: RETRY_CRASHED };
    const params = parseParams(row.params);
    const verdict = await checkCanGenerate(trx, userId, params.duration, now);
    if (!verdict.canGenerate) return { retried: false, reason: verdict.reason ?? MESSAGES.subscriptionRequired };
    const steps = parseSteps(row.steps);
    for (const step of Object.keys(steps) as PipelineStep[]) {
      if (steps[step].status === 'failed') steps[step] = { ...steps[step], status: 'pending' };
    }
    const job = await trx
      .updateTable('video_jobs')
      .set({ status: 'queued', error: null, steps: JSON.stringify(steps), completed_at: null, updated_at: now.toISOString() })
      .where('id', '=', jobId)
      .where('status', '=', 'failed')
      .returningAll()
      .executeTakeFirst();
    return job ? { retried: true, job } : { retried: false, reason: RETRY_ONLY_FAILED };
  });
}
