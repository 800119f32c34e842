import { isActiveJobStatus, PIPELINE_STEPS, type JobStatus, type PipelineStep } from './enums.js';
import type { JobCompletedEvent, JobFailedEvent, JobProgressEvent } from './socket.js';
import type { GenerationParams, JobSteps, VideoJob } from './videos.js';
import { sourceCredit } from './source.js';
import { isRerender } from './job-transitions.js';

/**
 * The one model of a job's life, shared by the server (what it stores), the studio (what a page
 * shows) and the extension's worker (what every extension view reads). Pure functions: each takes
 * a job and returns the next one (the same object when nothing changes).
 *
 * The rules, decided once where the earlier copies disagreed:
 * - Progress never goes backwards, and a step once completed stays completed.
 * - A finished job (completed, failed, cancelled) never reopens from an event or a snapshot. A
 *   re-render or a retry reopens it on purpose, by replacing the job with the server's copy.
 * - Completed outranks failed, which outranks cancelled: a late failure never hides a video.
 * - Merging two views of one job keeps the further one, whichever arrives first (order-independent).
 * - A re-render (a finished video queued again for its next version) that fails or is cancelled
 *   keeps the previous version: the job is completed again, with that version's result, and a
 *   failure's message in `error`. The server stores it so and its `job_failed` event says so.
 */

export const FINISHED_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];
export const isFinishedJobStatus = (status: string): boolean => (FINISHED_JOB_STATUSES as readonly string[]).includes(status);

/** A new job's overall progress: it starts at 1, so a queued job never reads as not started. */
export const NEW_JOB_PROGRESS = 1;

/** A percentage as stored and shown: 0 to 100, and 0 for anything that is not a number. */
export const clampPercent = (value: number): number => (Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0);

/** Progress never goes back: the overall progress once `reported` arrives after `current`. */
export const laterProgress = (current: number, reported: number): number => Math.max(clampPercent(current), clampPercent(reported));
const isStepDone = (status: string): boolean => status === 'completed' || status === 'skipped';

/** Every step pending: a new job's `steps`. */
export function initialSteps(): JobSteps {
  return Object.fromEntries(PIPELINE_STEPS.map((step) => [step, { status: 'pending', progress: 0 }])) as JobSteps;
}

/**
 * The steps once `step` reports `stepProgress`: every step before it is done (a resumed run may
 * skip them silently), this one runs (or is completed at 100), and no step's progress goes back.
 */
export function advanceSteps(steps: JobSteps, step: PipelineStep, stepProgress: number): JobSteps {
  const index = PIPELINE_STEPS.indexOf(step);
  const next = { ...steps };
  PIPELINE_STEPS.forEach((name, position) => {
    const entry = steps[name];
    if (isStepDone(entry.status)) return;
    if (position < index) next[name] = { status: 'completed', progress: 100 };
    else if (position === index) {
      const progress = Math.max(entry.progress, clampPercent(stepProgress));
      next[name] = { status: progress >= 100 ? 'completed' : 'running', progress };
    }
  });
  return next;
}

/** Every step done: a completed job's steps. */
export function completeSteps(steps: JobSteps): JobSteps {
  return Object.fromEntries(
    PIPELINE_STEPS.map((step) => [step, isStepDone(steps[step].status) ? steps[step] : { status: 'completed', progress: 100 }]),
  ) as JobSteps;
}

/** Marks `step` failed, or else the running (or the first unfinished) step. */
export function failSteps(steps: JobSteps, step?: PipelineStep): JobSteps {
  const failing =
    step ??
    PIPELINE_STEPS.find((name) => steps[name].status === 'running') ??
    PIPELINE_STEPS.find((name) => !isStepDone(steps[name].status));
  if (!failing) return steps;
  return { ...steps, [failing]: { status: 'failed', progress: steps[failing].progress } };
}

/** A job just submitted, before the server has reported on it. */
export function newJob(jobId: string, { source, ...params }: GenerationParams, now: Date): VideoJob {
  return {
    id: jobId,
    status: 'pending',
    progress: NEW_JOB_PROGRESS,
    currentStep: null,
    stepProgress: 0,
    // As the server will show it: the source's credit, not its text.
    params: source ? { ...params, source: sourceCredit(source) } : params,
    created_at: now.toISOString(),
    result: null,
    error: null,
    steps: initialSteps(),
  };
}

/**
 * The job once its re-render failed (`error`) or was cancelled (null): completed again, at the
 * previous version (its result is the one the job already holds), every step done.
 */
export function keepPreviousVersion<J extends VideoJob>(job: J, error: string | null): J {
  return { ...job, status: 'completed', progress: 100, currentStep: 'video', stepProgress: 100, error, steps: completeSteps(job.steps) };
}

export function applyProgress<J extends VideoJob>(job: J, event: JobProgressEvent): J {
  // A late progress event never reopens a finished job.
  if (isFinishedJobStatus(job.status)) return job;
  // Events carry the overall status; a finished one arrives as its own completed/failed event.
  const status = isActiveJobStatus(event.status) ? event.status : job.status;
  return {
    ...job,
    status,
    progress: laterProgress(job.progress, event.progress),
    currentStep: event.step,
    stepProgress: clampPercent(event.stepProgress),
    steps: advanceSteps(job.steps, event.step, event.stepProgress),
  };
}

export function applyCompleted<J extends VideoJob>(job: J, event: JobCompletedEvent): J {
  if (job.status === 'completed' && job.result) return job;
  return { ...job, status: 'completed', progress: 100, result: event.result, error: null, steps: completeSteps(job.steps) };
}

export function applyFailed<J extends VideoJob>(job: J, event: JobFailedEvent): J {
  // A video that was made stays made; a failure (or cancel) already recorded stays as it was.
  if (isFinishedJobStatus(job.status)) return job;
  if (isRerender(job)) return keepPreviousVersion(job, event.error);
  return {
    ...job,
    status: 'failed',
    error: event.error,
    steps: failSteps(job.steps),
    ...(event.retryable === false ? { retryable: false } : {}),
  };
}

export function applyCancelled<J extends VideoJob>(job: J): J {
  if (isFinishedJobStatus(job.status)) return job;
  if (isRerender(job)) return keepPreviousVersion(job, null);
  return { ...job, status: 'cancelled' };
}

const STATUS_RANK: Record<JobStatus, number> = {
  pending: 0,
  queued: 1,
  in_progress: 2,
  processing: 2,
  cancelled: 10,
  failed: 11,
  completed: 12,
};

/** Which of two views of one job is further along: positive when `a` is. */
function compareProgress(a: VideoJob, b: VideoJob): number {
  const aFinished = isFinishedJobStatus(a.status);
  const bFinished = isFinishedJobStatus(b.status);
  if (aFinished !== bFinished) return aFinished ? 1 : -1;
  if (aFinished)
    return (
      STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
      Number(Boolean(a.result)) - Number(Boolean(b.result)) ||
      (a.updated_at ?? '').localeCompare(b.updated_at ?? '')
    );
  return (
    a.progress - b.progress ||
    PIPELINE_STEPS.indexOf(a.currentStep ?? 'setup') - PIPELINE_STEPS.indexOf(b.currentStep ?? 'setup') ||
    a.stepProgress - b.stepProgress ||
    STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
    (a.updated_at ?? '').localeCompare(b.updated_at ?? '')
  );
}

/**
 * Two views of one job (a local one moved by live events, a server snapshot): the one further
 * along, whole, so its step and steps stay consistent with its progress. Order-independent: two
 * views that tie on every measure of progress but differ are told apart by their JSON text.
 */
export function mergeJob<J extends VideoJob>(a: J | undefined, b: J): J;
export function mergeJob<J extends VideoJob>(a: J, b: J | undefined): J;
export function mergeJob<J extends VideoJob>(a: J | undefined, b: J | undefined): J | undefined {
  if (!a) return b;
  if (!b) return a;
  const order = compareProgress(a, b);
  if (order !== 0) return order > 0 ? a : b;
  if (a === b) return a;
  return JSON.stringify(a) >= JSON.stringify(b) ? a : b;
}
