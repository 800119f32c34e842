import {
  type PostKit,
  completeSteps,
  NEW_JOB_PROGRESS,
  type JobStatus,
  type JobSteps,
  type PipelineStep,
  type VideoResult,
} from '@reelsmith/contracts';
import type { VideoJobRow } from '../db/schema.js';
import type { JobEvent } from '../events/job-events.js';
import { forgetUncountedVideo } from '../payments/subscription-state.js';
import { initialSteps, parseResult, parseSteps } from './video-job-view.js';
import { ACTIVE, FINISHED, RUNNING, type Db, type JobOwner } from './video-job-states.js';
import { claimState, fenced, type ProgressOutcome } from './video-job-claims.js';

/*
 * State transitions of a job: progress, completion, failure, a re-render, cancellation, deletion
 * and the creator's post kit. Each is one conditional write returning the events it implies (empty
 * when nothing was written) for the caller to publish, so what clients hear is what was stored.
 */

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

export interface ProgressWrite {
  progress: number;
  currentStep: PipelineStep;
  stepProgress: number;
  steps: JobSteps;
}

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
