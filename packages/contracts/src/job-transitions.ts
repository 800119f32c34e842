import { isActiveJobStatus } from './enums.js';
import { MESSAGES } from './messages.js';
import type { JobCompletedEvent, JobFailedEvent, JobProgressEvent } from './socket.js';
import type { VideoJob } from './videos.js';

// Apart from job-state.ts: the extension popup announces transitions and never applies events, so
// it loads these alone (the popup's JavaScript stays within 100 KB gzip).

/**
 * A re-render in flight: an active job that already has a video (the row keeps the latest version's
 * result while the next one renders).
 */
export const isRerender = (job: Pick<VideoJob, 'status' | 'result'>): boolean => isActiveJobStatus(job.status) && job.result !== null;

/**
 * What became of a re-render that ended without a new version, read from the job before and after:
 * null when the re-render made its version (or `before` was no re-render).
 */
export function rerenderOutcome(
  before: Pick<VideoJob, 'status' | 'result'> | undefined,
  after: Pick<VideoJob, 'status' | 'result' | 'error'>,
): { kind: 'failed'; error: string } | { kind: 'cancelled' } | null {
  if (!before || !isRerender(before) || after.status !== 'completed' || !after.result) return null;
  if ((after.result.version ?? 1) !== (before.result?.version ?? 1)) return null;
  return after.error ? { kind: 'failed', error: after.error } : { kind: 'cancelled' };
}

/** What changed between two views of one job that a person should hear about. */
export type JobTransition =
  | { kind: 'progress'; job: VideoJob; event: JobProgressEvent }
  | { kind: 'completed'; job: VideoJob; event: JobCompletedEvent }
  | { kind: 'failed'; job: VideoJob; event: JobFailedEvent }
  | { kind: 'cancelled'; job: VideoJob };

/**
 * The transition from `before` (undefined: not known yet) to `after`, or null when nothing worth
 * telling happened. A completion counts once its result is there, and only the first time.
 */
export function jobTransition(before: VideoJob | undefined, after: VideoJob): JobTransition | null {
  // A re-render that kept the previous version made no video: its failure is told as one, a cancel as a cancel.
  const kept = rerenderOutcome(before, after);
  if (kept?.kind === 'failed')
    return { kind: 'failed', job: after, event: { jobId: after.id, error: kept.error, version: (after.result?.version ?? 1) + 1 } };
  if (kept?.kind === 'cancelled') return { kind: 'cancelled', job: after };
  if (after.status === 'completed') {
    const announced = before?.status === 'completed' && Boolean(before.result);
    return !announced && after.result ? { kind: 'completed', job: after, event: { jobId: after.id, result: after.result } } : null;
  }
  if (after.status === 'failed') {
    return before?.status === 'failed'
      ? null
      : { kind: 'failed', job: after, event: { jobId: after.id, error: after.error ?? MESSAGES.generationFailed } };
  }
  if (after.status === 'cancelled') return before?.status === 'cancelled' ? null : { kind: 'cancelled', job: after };
  if (
    before &&
    before.status === after.status &&
    before.progress === after.progress &&
    before.currentStep === after.currentStep &&
    before.stepProgress === after.stepProgress
  )
    return null;
  return {
    kind: 'progress',
    job: after,
    event: {
      jobId: after.id,
      progress: after.progress,
      step: after.currentStep ?? 'setup',
      stepProgress: after.stepProgress,
      status: after.status,
    },
  };
}

/**
 * The transitions between two lists of jobs, for jobs that were known and active before: what a
 * view that was watching them should announce. Jobs that appear already finished (an old video
 * listed at sign-in) announce nothing.
 */
export function jobTransitions(before: readonly VideoJob[], after: readonly VideoJob[], { includeNew = false } = {}): JobTransition[] {
  const known = new Map(before.map((job) => [job.id, job]));
  const transitions: JobTransition[] = [];
  for (const job of after) {
    const previous = known.get(job.id);
    if (previous ? !isActiveJobStatus(previous.status) && !(previous.status === 'completed' && !previous.result) : !includeNew) continue;
    const transition = jobTransition(previous, job);
    if (transition) transitions.push(transition);
  }
  return transitions;
}

/** What a creator reads when a job fails: the server's reason, or the plain failure message. */
export function jobFailureText(job: Pick<VideoJob, 'error'>): string {
  return job.error ? MESSAGES.jobFailedEvent(job.error) : MESSAGES.generationFailed;
}
