import { isActiveJobStatus, MESSAGES, type VideoJob } from '@reelsmith/contracts';

/** What the popup says when a job it showed as running stops without a video. */
export interface JobOutcome {
  jobId: string;
  tone: 'error' | 'success';
  text: string;
}

/** Spec section 8 "Job failed event"; a failure the server gave no reason for keeps the plain message. */
export function failureText(job: Pick<VideoJob, 'error'>): string {
  return job.error ? MESSAGES.jobFailedEvent(job.error) : MESSAGES.generationFailed;
}

/**
 * The jobs that left the active list between two worker states by failing or being cancelled
 * (here or in the side panel). A completed job needs no word: it stays listed with Watch.
 */
export function jobOutcomes(before: readonly VideoJob[], after: readonly VideoJob[]): JobOutcome[] {
  const wasActive = new Set(before.filter((job) => isActiveJobStatus(job.status)).map((job) => job.id));
  const outcomes: JobOutcome[] = [];
  for (const job of after) {
    if (!wasActive.has(job.id)) continue;
    if (job.status === 'failed') outcomes.push({ jobId: job.id, tone: 'error', text: failureText(job) });
    else if (job.status === 'cancelled') outcomes.push({ jobId: job.id, tone: 'success', text: MESSAGES.jobCancelled });
  }
  return outcomes;
}

/** The popup's short history under the running jobs: the two latest that finished or failed. */
export function recentFinishedJobs(list: readonly VideoJob[], limit = 2): VideoJob[] {
  return list.filter((job) => (job.status === 'completed' && job.result) || job.status === 'failed').slice(0, limit);
}
