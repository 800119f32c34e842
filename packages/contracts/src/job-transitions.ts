import { isActiveJobStatus } from './enums.js';
import { MESSAGES } from './messages.js';
import type { JobCompletedEvent, JobFailedEvent, JobProgressEvent } from './socket.js';
import type { VideoJob } from './videos.js';

// Apart from job-state.ts: the extension popup announces transitions and never applies events, so
// it loads these alone (the popup's JavaScript stays within 100 KB gzip).

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
  if (after.status === 'completed') {
    const announced = before?.status === 'completed' && Boolean(before.result);
    return !announced && after.result ? { kind: 'completed', job: after, event: { jobId: after.id, result: after.result } } : null;
  }
  if (after.status === 'failed') {
    return before?.status === 'failed' ? null : { kind: 'failed', job: after, event: { jobId: after.id, error: after.error ?? MESSAGES.generationFailed } };
  }
  if (after.status === 'cancelled') return before?.status === 'cancelled' ? null : { kind: 'cancelled', job: after };
  if (before && before.status === after.status && before.progress === after.progress && before.currentStep === after.currentStep && before.stepProgress === after.stepProgress) return null;
  return { kind: 'progress', job: after, event: { jobId: after.id, progress: after.progress, step: after.currentStep ?? 'setup', stepProgress: after.stepProgress, status: after.status } };
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
