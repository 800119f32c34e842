import { ACTIVE_JOB_STATUSES, MESSAGES, type GenerationParams, type JobStatus, type JobSteps, type PipelineStep, type VideoResult } from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, VideoJobRow } from '../db/schema.js';
import { preparedQuery } from '../db/prepared-query.js';
import { checkCanGenerate } from '../payments/can-generate.js';
import { forgetUncountedVideo, recordVideoMade } from '../payments/subscription-state.js';
import { initialSteps, parseParams, parseSteps } from './video-job-view.js';

type Db = Kysely<Database>;

/** A new job's overall progress (spec: "A new job starts at 1"). */
export const NEW_JOB_PROGRESS = 1;
const ACTIVE = ACTIVE_JOB_STATUSES as JobStatus[];
const FINISHED: JobStatus[] = ['completed', 'failed', 'cancelled'];
/** Statuses a job is in while a worker owns it; both go back to 'queued' after a restart. */
// This server stores a running job as 'processing' only; 'in_progress' stays in the contract because
// the spec's clients accept it, but nothing here writes it.
const RUNNING: JobStatus[] = ['processing'];

export type CreateJobOutcome = { created: true; job: VideoJobRow } | { created: false; reason: string | null };

/**
 * Checks the account's quota and inserts the job in ONE transaction, so concurrent submits at the
 * limit cannot both pass the check: PostgreSQL serialises them on the user's row (locked by
 * checkCanGenerate), SQLite runs one write transaction at a time.
 */
export async function createJobWithinQuota(db: Db, userId: string, params: GenerationParams, now = new Date(), brand: string | null = null): Promise<CreateJobOutcome> {
  return db.transaction().execute(async (trx) => {
    const verdict = await checkCanGenerate(trx, userId, params.duration, now);
    if (!verdict.canGenerate) return { created: false, reason: verdict.reason };
    const timestamp = now.toISOString();
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
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordVideoMade(trx, { jobId: job.id, userId, createdAt: timestamp });
    return { created: true, job };
  });
}

export type RetryJobOutcome = { retried: true; job: VideoJobRow } | { retried: false; reason: string };

export const RETRY_ONLY_FAILED = 'Only a failed video can be retried.';

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
    query = preparedQuery(db, ['userId', 'jobId'] as const, (slot) => db.selectFrom('video_jobs').selectAll().where('id', '=', slot.jobId).where('user_id', '=', slot.userId));
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
      .orderBy('queued.id', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const timestamp = now.toISOString();
    const claimed = await db
      .updateTable('video_jobs')
      // A fresh token fences this run's writes, as in scale mode; in one process the claim never expires.
      .set({ status: 'processing', started_at: timestamp, updated_at: timestamp, claim_token: randomUUID(), claim_expires_at: null })
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
    .set({ status: 'processing', started_at: timestamp, updated_at: timestamp, claim_token: token, claim_expires_at: new Date(now.getTime() + lockMs).toISOString() })
    .where('id', '=', jobId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([
          eb('status', 'in', RUNNING),
          eb.or([eb('claim_token', 'is', null), eb('claim_token', '=', token), eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<=', timestamp)]),
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
 * Writes a running job's progress under its claim token; a smaller overall progress than stored is
 * not written but is no error while the claim is still ours (a resumed run may report less).
 */
export async function recordProgress(db: Db, jobId: string, update: ProgressWrite, claimToken: string | null): Promise<ProgressOutcome> {
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
  if (Number(updated.numUpdatedRows) === 1) return 'written';
  return claimState(db, jobId, claimToken);
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

/** Finishes a running job; false when it was cancelled meanwhile (then the caller discards the output). */
export async function markCompleted(
  db: Db,
  jobId: string,
  done: { result: VideoResult; outputToken: string; sizeBytes: number; steps: JobSteps },
  claimToken: string | null,
): Promise<boolean> {
  const timestamp = new Date().toISOString();
  const updated = await fenced(db
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
    .where('status', 'in', RUNNING), claimToken)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function markFailed(db: Db, jobId: string, error: string, steps: JobSteps, claimToken: string | null): Promise<boolean> {
  const timestamp = new Date().toISOString();
  const updated = await fenced(
    db
      .updateTable('video_jobs')
      .set({ status: 'failed', error, steps: JSON.stringify(steps), updated_at: timestamp, completed_at: timestamp, claim_token: null, claim_expires_at: null })
      .where('id', '=', jobId)
      .where('status', 'in', RUNNING),
    claimToken,
  ).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** A running job interrupted by shutdown: back to the queue for the next start. */
export async function markRequeued(db: Db, jobId: string, claimToken: string | null): Promise<void> {
  await fenced(
    db
      .updateTable('video_jobs')
      .set({ status: 'queued', updated_at: new Date().toISOString(), claim_token: null, claim_expires_at: null })
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

/** Marks the user's active job cancelled; false when it is not active (finished, another user's, missing). */
export async function cancelUserJob(db: Db, userId: string, jobId: string): Promise<boolean> {
  const timestamp = new Date().toISOString();
  const updated = await db
    .updateTable('video_jobs')
    .set({ status: 'cancelled', updated_at: timestamp, completed_at: timestamp })
    .where('id', '=', jobId)
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/**
 * Cancels every queued and running job of the user (suspension), in the caller's transaction.
 * Cancelled jobs are not counted against the plan. Returns what each job was, for the caller to
 * stop the running ones and put re-renders back at their previous version.
 */
export async function cancelActiveUserJobs(db: Db, userId: string, now = new Date()): Promise<Array<{ id: string; status: JobStatus; version: number }>> {
  const active = await db.selectFrom('video_jobs').select(['id', 'status', 'version']).where('user_id', '=', userId).where('status', 'in', ACTIVE).execute();
  if (active.length === 0) return [];
  const timestamp = now.toISOString();
  await db
    .updateTable('video_jobs')
    .set({ status: 'cancelled', updated_at: timestamp, completed_at: timestamp, claim_token: null, claim_expires_at: null })
    .where('id', 'in', active.map((job) => job.id))
    .where('status', 'in', ACTIVE)
    .execute();
  return active.map((job) => ({ id: job.id, status: job.status, version: Number(job.version) }));
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
