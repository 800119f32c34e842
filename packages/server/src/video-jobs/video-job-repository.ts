import {
  type PostKit,
  ACTIVE_JOB_STATUSES,
  completeSteps,
  FINISHED_JOB_STATUSES,
  MESSAGES,
  NEW_JOB_PROGRESS,
  type GenerationParams,
  type JobStatus,
  type JobSteps,
  type PipelineStep,
  type VideoResult,
} from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, VideoBatchRow, VideoJobRow } from '../db/schema.js';
import { preparedQuery } from '../db/prepared-query.js';
import type { JobEvent } from '../events/job-events.js';
import { checkCanGenerate, remainingVideos } from '../payments/can-generate.js';
import { forgetUncountedVideo, recordVideoMade } from '../payments/subscription-state.js';
import { crashedItsRuns, initialSteps, parseParams, parseResult, parseSteps } from './video-job-view.js';

/*
 * The video job repository: the only module that writes `video_jobs`. Each transition is one
 * conditional write, and returns the events it implies (empty when nothing was written) for the
 * caller to publish on the job event bus, so what clients hear is always what was stored.
 */

type Db = Kysely<Database>;

const ACTIVE = ACTIVE_JOB_STATUSES as JobStatus[];
const FINISHED = FINISHED_JOB_STATUSES as JobStatus[];
type JobOwner = Pick<VideoJobRow, 'id' | 'user_id'>;

/** The progress event of a stored row: what a client shows for it. */
function progressEvent(row: Pick<VideoJobRow, 'id' | 'user_id' | 'status' | 'progress' | 'current_step' | 'step_progress'>): JobEvent {
  return {
    name: 'job_progress',
    userId: row.user_id,
    event: {
      jobId: row.id,
      progress: Number(row.progress),
      step: (row.current_step as PipelineStep | null) ?? 'setup',
      stepProgress: Number(row.step_progress),
      status: row.status,
    },
  };
}
/** Statuses a job is in while a worker owns it; both go back to 'queued' after a restart. */
// This server stores a running job as 'processing' only; 'in_progress' stays in the contract because
// the spec's clients accept it, but nothing here writes it.
const RUNNING: JobStatus[] = ['processing'];

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

/** The job if it belongs to the user; another user's job is indistinguishable from a missing one. */
// Prepared once per database: every status poll and job page reads through here (see db/prepared-query.ts).
const userJobQueries = new WeakMap<Db, (values: { userId: string; jobId: string }) => Promise<VideoJobRow[]>>();

export async function findUserJob(db: Db, userId: string, jobId: string): Promise<VideoJobRow | undefined> {
  let query = userJobQueries.get(db);
  if (!query) {
    query = preparedQuery(db, ['userId', 'jobId'] as const, (slot) =>
      db.selectFrom('video_jobs').selectAll().where('id', '=', slot.jobId).where('user_id', '=', slot.userId),
    );
    userJobQueries.set(db, query);
  }
  const [row] = await query({ userId, jobId });
  return row;
}

export function listUserJobs(db: Db, userId: string, limit: number): Promise<VideoJobRow[]> {
  return db
    .selectFrom('video_jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** After a restart: jobs a worker owned go back to the queue; their workspace checkpoints let the rerun skip finished steps. */
export async function requeueInterruptedJobs(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .updateTable('video_jobs')
    .set({ status: 'queued', updated_at: now.toISOString(), claim_token: null, claim_expires_at: null })
    .where('status', 'in', RUNNING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Takes the next job fairly: the oldest queued job of the user who least recently started one (users
 * who never started one first), so one user's burst waits behind everyone else's first job. Returns
 * undefined when nothing is queued. The claim is a conditional update, so a job cancelled meanwhile is skipped.
 */
export async function claimNextJob(db: Db, now = new Date()): Promise<VideoJobRow | undefined> {
  for (;;) {
    const lastStarts = db
      .selectFrom('video_jobs')
      .select(['user_id', (eb) => eb.fn.max('started_at').as('last_started')])
      .where('started_at', 'is not', null)
      .groupBy('user_id')
      .as('starts');
    const next = await db
      .selectFrom('video_jobs as queued')
      .leftJoin(lastStarts, 'starts.user_id', 'queued.user_id')
      .select(['queued.id'])
      .where('queued.status', '=', 'queued')
      // NULLs sort first in SQLite and last in PostgreSQL, so spell the order out.
      .orderBy(sql`case when starts.last_started is null then 0 else 1 end`)
      .orderBy('starts.last_started', 'asc')
      .orderBy('queued.created_at', 'asc')
      // A batch's rows share one created_at: they run in row order.
      .orderBy('queued.batch_index', 'asc')
      .orderBy('queued.id', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const timestamp = now.toISOString();
    const claimed = await db
      .updateTable('video_jobs')
      // A fresh token fences this run's writes, as in scale mode; in one process the claim never expires.
      .set((eb) => ({
        status: 'processing',
        started_at: timestamp,
        updated_at: timestamp,
        claim_token: randomUUID(),
        claim_expires_at: null,
        // Counted before any step runs: a run that crashes the process is counted too.
        unfinished_runs: eb('unfinished_runs', '+', 1),
      }))
      .where('id', '=', next.id)
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
  }
}

export interface ProgressWrite {
  progress: number;
  currentStep: PipelineStep;
  stepProgress: number;
  steps: JobSteps;
}

export type ClaimOutcome = { claimed: true; job: VideoJobRow } | { claimed: false; heldUntil: string | null };

/**
 * Scale mode's claim, fenced by the BullMQ job token: a queued job, or a running one whose claim is
 * this token's or has expired (its worker died or stalled past the lock). While another token's
 * claim is fresh the caller must back off (`heldUntil`); a finished, cancelled or deleted job gives
 * `heldUntil: null`: nothing to run.
 */
export async function claimJobWithToken(db: Db, jobId: string, token: string, lockMs: number, now = new Date()): Promise<ClaimOutcome> {
  const timestamp = now.toISOString();
  const job = await db
    .updateTable('video_jobs')
    .set((eb) => ({
      status: 'processing',
      started_at: timestamp,
      updated_at: timestamp,
      claim_token: token,
      claim_expires_at: new Date(now.getTime() + lockMs).toISOString(),
      // Counted before any step runs: a worker killed mid-step leaves its run counted.
      unfinished_runs: eb('unfinished_runs', '+', 1),
    }))
    .where('id', '=', jobId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([
          eb('status', 'in', RUNNING),
          eb.or([
            eb('claim_token', 'is', null),
            eb('claim_token', '=', token),
            eb('claim_expires_at', 'is', null),
            eb('claim_expires_at', '<=', timestamp),
          ]),
        ]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (job) return { claimed: true, job };
  const held = await db.selectFrom('video_jobs').select(['status', 'claim_expires_at']).where('id', '=', jobId).executeTakeFirst();
  return { claimed: false, heldUntil: held && RUNNING.includes(held.status) ? held.claim_expires_at : null };
}

/** Extends this token's claim; false when the claim is no longer ours (taken over, cancelled, finished). */
export async function renewJobClaim(db: Db, jobId: string, token: string, lockMs: number, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('video_jobs')
    .set({ claim_expires_at: new Date(now.getTime() + lockMs).toISOString() })
    .where('id', '=', jobId)
    .where('claim_token', '=', token)
    .where('status', 'in', RUNNING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Jobs not yet finished (queued or running), oldest first, with their owners. */
export function unfinishedJobs(db: Db): Promise<Array<{ id: string; user_id: string }>> {
  return db
    .selectFrom('video_jobs')
    .select(['id', 'user_id'])
    .where('status', 'in', ['queued', ...RUNNING])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** How many of a user's jobs are waiting or running. */
export async function unfinishedJobCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('video_jobs')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', ...RUNNING])
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * What a progress write found: written (or nothing newer to write), the job no longer running
 * (cancelled, deleted, finished) or running under another claim (this worker stalled and was replaced).
 */
export type ProgressOutcome = 'written' | 'inactive' | 'claim-lost';

/**
 * Writes a running job's progress under its claim token: the last of `updates`, the reports that
 * arrived since the previous write (the pipeline may report faster than the database writes). Once
 * written, each of them is announced in order: all lead, without going back, to the stored state.
 * A smaller overall progress than stored is not written but is no error while the claim is still
 * ours (a resumed run may report less).
 */
export async function recordProgress(
  db: Db,
  job: JobOwner,
  updates: readonly ProgressWrite[],
  claimToken: string | null,
): Promise<{ outcome: ProgressOutcome; events: JobEvent[] }> {
  const jobId = job.id;
  const update = updates.at(-1);
  if (!update) return { outcome: 'written', events: [] };
  const updated = await fenced(
    db
      .updateTable('video_jobs')
      .set({
        progress: update.progress,
        current_step: update.currentStep,
        step_progress: update.stepProgress,
        steps: JSON.stringify(update.steps),
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', jobId)
      .where('status', 'in', RUNNING)
      .where('progress', '<=', update.progress),
    claimToken,
  ).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) {
    const events = updates.map((passed): JobEvent => ({
      name: 'job_progress',
      userId: job.user_id,
      event: { jobId, progress: passed.progress, step: passed.currentStep, stepProgress: passed.stepProgress, status: 'processing' },
    }));
    return { outcome: 'written', events };
  }
  return { outcome: await claimState(db, jobId, claimToken), events: [] };
}

/** Whether the running job is still under this claim: 'written' when it is (nothing to do), else why not. */
export async function claimState(db: Db, jobId: string, claimToken: string | null): Promise<ProgressOutcome> {
  const row = await db.selectFrom('video_jobs').select(['status', 'claim_token']).where('id', '=', jobId).executeTakeFirst();
  if (!row || !RUNNING.includes(row.status)) return 'inactive';
  return claimToken === null || row.claim_token === claimToken ? 'written' : 'claim-lost';
}

/**
 * Every write a worker makes to a running job names the claim it runs under: a worker that stalled
 * past its lock (and was replaced) finds its writes refused, and the current claimant is untouched.
 */
function fenced<Q extends { where: (column: 'claim_token', op: '=', value: string) => Q }>(query: Q, claimToken: string | null): Q {
  return claimToken === null ? query : query.where('claim_token', '=', claimToken);
}

/** Finishes a running job; null when it was cancelled meanwhile (then the caller discards the output). */
export async function markCompleted(
  db: Db,
  job: JobOwner,
  done: { result: VideoResult; outputToken: string; sizeBytes: number; steps: JobSteps },
  claimToken: string | null,
): Promise<JobEvent[] | null> {
  const jobId = job.id;
  const timestamp = new Date().toISOString();
  const updated = await fenced(
    db
      .updateTable('video_jobs')
      .set({
        status: 'completed',
        progress: 100,
        current_step: 'video',
        step_progress: 100,
        steps: JSON.stringify(done.steps),
        result: JSON.stringify(done.result),
        error: null,
        output_token: done.outputToken,
        size_bytes: done.sizeBytes,
        updated_at: timestamp,
        completed_at: timestamp,
        claim_token: null,
        claim_expires_at: null,
      })
      .where('id', '=', jobId)
      .where('status', 'in', RUNNING),
    claimToken,
  ).executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  return [
    { name: 'job_progress', userId: job.user_id, event: { jobId, progress: 100, step: 'video', stepProgress: 100, status: 'completed' } },
    { name: 'job_completed', userId: job.user_id, event: { jobId, result: done.result } },
  ];
}

/** The columns of a re-render that ended without its version: completed again, at the previous version. */
function previousVersion(error: string | null, steps: JobSteps, timestamp: string) {
  return {
    status: 'completed' as const,
    progress: 100,
    current_step: 'video',
    step_progress: 100,
    steps: JSON.stringify(completeSteps(steps)),
    error,
    updated_at: timestamp,
    completed_at: timestamp,
    claim_token: null,
    claim_expires_at: null,
  };
}

/**
 * A running job failed. A first render is stored failed; a re-render keeps the previous version
 * (completed, its result, `error` saying what went wrong). Either way the event is `job_failed`
 * naming the version that failed, and clients apply it to the same state (contracts' job-state).
 * Null when the job was no longer this claim's to fail.
 */
export async function markFailed(
  db: Db,
  job: Pick<VideoJobRow, 'id' | 'user_id' | 'version'>,
  error: string,
  steps: JobSteps,
  claimToken: string | null,
  /** False for a job failed because its runs kept crashing: a retry of it is failed again at once. */
  ranToTheEnd = true,
): Promise<JobEvent[] | null> {
  const timestamp = new Date().toISOString();
  const rerender = job.version > 1;
  const runs = ranToTheEnd ? { unfinished_runs: 0 } : {};
  const updated = await fenced(
    rerender
      ? db
          .updateTable('video_jobs')
          .set((eb) => ({ ...previousVersion(error, steps, timestamp), version: eb('version', '-', 1), ...runs }))
          .where('id', '=', job.id)
          .where('version', '=', job.version)
          .where('status', 'in', RUNNING)
      : db
          .updateTable('video_jobs')
          .set({
            status: 'failed',
            error,
            steps: JSON.stringify(steps),
            updated_at: timestamp,
            completed_at: timestamp,
            claim_token: null,
            claim_expires_at: null,
            ...runs,
          })
          .where('id', '=', job.id)
          .where('status', 'in', RUNNING),
    claimToken,
  ).executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  // A first render failed for crashing is not offered Retry (it would crash, or fail, again).
  const retryable = rerender || ranToTheEnd ? {} : { retryable: false };
  return [{ name: 'job_failed', userId: job.user_id, event: { jobId: job.id, error, version: job.version, ...retryable } }];
}

/**
 * Puts a finished video back in the queue to make its next version. Conditional on the row being
 * completed and under the render limit, so two clicks cannot start two renders. The row keeps the
 * latest version's result while it renders; the allowance is untouched (it is the same video).
 */
export async function queueRerender(
  db: Db,
  userId: string,
  videoId: string,
  maxVersion: number,
  now = new Date(),
): Promise<{ version: number; events: JobEvent[] } | undefined> {
  const row = await db
    .updateTable('video_jobs')
    .set((eb) => ({
      status: 'queued',
      version: eb('version', '+', 1),
      progress: NEW_JOB_PROGRESS,
      current_step: null,
      step_progress: 0,
      steps: JSON.stringify(initialSteps()),
      error: null,
      updated_at: now.toISOString(),
      completed_at: null,
      unfinished_runs: 0,
    }))
    .where('id', '=', videoId)
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .where('version', '<', maxVersion)
    .returningAll()
    .executeTakeFirst();
  return row ? { version: row.version, events: [progressEvent(row)] } : undefined;
}

/** A running job interrupted by shutdown: back to the queue for the next start. */
export async function markRequeued(db: Db, jobId: string, claimToken: string | null): Promise<void> {
  await fenced(
    db
      .updateTable('video_jobs')
      // A clean interruption: the run did not crash, so it does not count towards failing the job.
      .set({ status: 'queued', updated_at: new Date().toISOString(), claim_token: null, claim_expires_at: null, unfinished_runs: 0 })
      .where('id', '=', jobId)
      .where('status', 'in', RUNNING),
    claimToken,
  ).execute();
}

/**
 * Scale mode's sweeper: running jobs whose claim lapsed more than `graceMs` ago (their worker died,
 * stalled or gave up without handing them back) go back to 'queued' with no claim, so a late write
 * of the old claimant is refused. Returns them, for the caller to put back on the queue.
 */
export async function requeueLapsedClaims(db: Db, graceMs: number, now = new Date()): Promise<Array<{ id: string; user_id: string }>> {
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  const lapsed = await db
    .selectFrom('video_jobs')
    .select(['id', 'user_id'])
    .where('status', 'in', RUNNING)
    .where((eb) => eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<', cutoff)]))
    .execute();
  const requeued: Array<{ id: string; user_id: string }> = [];
  for (const job of lapsed) {
    const result = await db
      .updateTable('video_jobs')
      .set({ status: 'queued', updated_at: now.toISOString(), claim_token: null, claim_expires_at: null })
      .where('id', '=', job.id)
      .where('status', 'in', RUNNING)
      .where((eb) => eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<', cutoff)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) requeued.push(job);
  }
  return requeued;
}

/**
 * Cancels active jobs (queued or running): a first render becomes 'cancelled'; a re-render keeps the
 * previous version (completed again). Both announce a 'cancelled' progress event, at the progress
 * stored. The rows are final before any worker is stopped, so a worker records nothing afterwards.
 */
async function cancelActive(
  db: Db,
  filter: { userId: string; jobId?: string },
  now: Date,
): Promise<Array<{ row: VideoJobRow; events: JobEvent[] }>> {
  const timestamp = now.toISOString();
  let active = db.selectFrom('video_jobs').selectAll().where('user_id', '=', filter.userId).where('status', 'in', ACTIVE);
  if (filter.jobId !== undefined) active = active.where('id', '=', filter.jobId);
  const cancelled: Array<{ row: VideoJobRow; events: JobEvent[] }> = [];
  for (const job of await active.execute()) {
    const rerender = job.version > 1;
    const row = rerender
      ? await db
          .updateTable('video_jobs')
          .set((eb) => ({ ...previousVersion(null, parseSteps(job.steps), timestamp), version: eb('version', '-', 1) }))
          .where('id', '=', job.id)
          .where('version', '=', job.version)
          .where('status', 'in', ACTIVE)
          .returningAll()
          .executeTakeFirst()
      : await db
          .updateTable('video_jobs')
          .set({ status: 'cancelled', updated_at: timestamp, completed_at: timestamp, claim_token: null, claim_expires_at: null })
          .where('id', '=', job.id)
          .where('status', 'in', ACTIVE)
          .returningAll()
          .executeTakeFirst();
    if (!row) continue;
    // The event tells the progress the job had reached, as the cancel found it.
    cancelled.push({ row: job, events: [progressEvent({ ...job, status: 'cancelled' })] });
  }
  return cancelled;
}

/** Cancels the user's active job; null when it is not active (finished, another user's, missing). */
export async function cancelUserJob(db: Db, userId: string, jobId: string, now = new Date()): Promise<{ events: JobEvent[] } | null> {
  const [cancelled] = await cancelActive(db, { userId, jobId }, now);
  return cancelled ? { events: cancelled.events } : null;
}

/**
 * Cancels every queued and running job of the user (suspension), in the caller's transaction.
 * Cancelled jobs are not counted against the plan. Returns what each job was, for the caller to
 * stop the running ones, and the events to publish once the transaction is committed.
 */
export async function cancelActiveUserJobs(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<{ jobs: Array<{ id: string; status: JobStatus; version: number }>; events: JobEvent[] }> {
  const cancelled = await cancelActive(db, { userId }, now);
  return {
    jobs: cancelled.map(({ row }) => ({ id: row.id, status: row.status, version: Number(row.version) })),
    events: cancelled.flatMap(({ events }) => events),
  };
}

/** Deletes the user's finished job, returning its output directory token; undefined when nothing was deleted. */
export async function deleteFinishedUserJob(db: Db, userId: string, jobId: string): Promise<{ outputToken: string | null } | undefined> {
  // A completed video keeps its usage row: deleting it does not give the quota back.
  const deleted = await db.transaction().execute(async (trx) => {
    await forgetUncountedVideo(trx, userId, jobId);
    return trx
      .deleteFrom('video_jobs')
      .where('id', '=', jobId)
      .where('user_id', '=', userId)
      .where('status', 'in', FINISHED)
      .returning(['output_token'])
      .executeTakeFirst();
  });
  return deleted ? { outputToken: deleted.output_token } : undefined;
}

const toCount = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

/** Counts for GET /api/queue/status, across all users, or of one user's jobs. */
/** Whether any creator's job is queued or running (one indexed look-up, not a count). */
export async function hasActiveJobs(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('video_jobs')
    .select('id')
    .where('status', 'in', ['queued', ...RUNNING])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function jobCounts(
  db: Db,
  userId?: string,
): Promise<{ queued: number; processing: number; total: number; completed: number; failed: number; cancelled: number }> {
  let query = db.selectFrom('video_jobs');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const row = await query
    .select((eb) => [
      eb.fn.sum<string | number | null>(eb.case().when('status', 'in', RUNNING).then(1).else(0).end()).as('processing'),
      eb.fn.countAll<string | number>().as('total'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'queued').then(1).else(0).end()).as('queued'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'completed').then(1).else(0).end()).as('completed'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'failed').then(1).else(0).end()).as('failed'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'cancelled').then(1).else(0).end()).as('cancelled'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: toCount(row.total),
    queued: toCount(row.queued),
    processing: toCount(row.processing),
    completed: toCount(row.completed),
    failed: toCount(row.failed),
    cancelled: toCount(row.cancelled),
  };
}

/** The user's finished videos, and the bytes they and the user's uploads take in storage. */
export async function userStorage(db: Db, userId: string): Promise<{ totalVideos: number; totalBytes: number; uploadBytes: number }> {
  const row = await db
    .selectFrom('video_jobs')
    .select((eb) => [eb.fn.countAll<string | number>().as('videos'), eb.fn.sum<string | number | null>('size_bytes').as('bytes')])
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  const uploads = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.sum<string | number | null>('size_bytes').as('bytes'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const uploadBytes = toCount(uploads.bytes);
  return { totalVideos: toCount(row.videos), totalBytes: toCount(row.bytes) + uploadBytes, uploadBytes };
}

/**
 * Stores the creator's own title, description and hashtags in a finished video's result (marked
 * edited, so a re-render keeps them). Undefined when the video is not the user's or has no result.
 */
export async function updateUserPostKit(
  db: Db,
  userId: string,
  jobId: string,
  post: Omit<PostKit, 'editedAt'>,
  now = new Date(),
): Promise<PostKit | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('video_jobs')
      .select(['result'])
      .where('id', '=', jobId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const result = row ? parseResult(row.result) : null;
    if (!result) return undefined;
    const edited: PostKit = { ...post, editedAt: now.toISOString() };
    await trx
      .updateTable('video_jobs')
      .set({ result: JSON.stringify({ ...result, post: edited }) })
      .where('id', '=', jobId)
      .where('user_id', '=', userId)
      .execute();
    return edited;
  });
}
