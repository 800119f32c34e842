import { jobFailureText, jobTransitions, MESSAGES, type VideoJob } from '@reelsmith/contracts';

/** What the popup says when a job it showed as running stops without a video. */
export interface JobOutcome {
  jobId: string;
  tone: 'error' | 'success';
  text: string;
}

/** A failed job reads as the server's reason; a failure the server gave no reason for keeps the plain message. */
export const failureText = jobFailureText;

/**
 * The jobs that left the active list between two worker states by failing or being cancelled
 * (here or in the side panel), from the contracts' job transitions. A completed job needs no word:
 * it stays listed with Watch.
 */
export function jobOutcomes(before: readonly VideoJob[], after: readonly VideoJob[]): JobOutcome[] {
  return jobTransitions(before, after).flatMap((transition): JobOutcome[] => {
    if (transition.kind === 'failed') return [{ jobId: transition.job.id, tone: 'error', text: jobFailureText(transition.job) }];
    if (transition.kind === 'cancelled') return [{ jobId: transition.job.id, tone: 'success', text: MESSAGES.jobCancelled }];
    return [];
  });
}

/** The popup's short history under the running jobs: the two latest that finished or failed. */
export function recentFinishedJobs(list: readonly VideoJob[], limit = 2): VideoJob[] {
  return list.filter((job) => (job.status === 'completed' && job.result) || job.status === 'failed').slice(0, limit);
}
