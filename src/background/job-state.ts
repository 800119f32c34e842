import {
  applyCancelled,
  applyCompleted,
  applyFailed,
  applyProgress,
  isActiveJobStatus,
  jobTransitions,
  mergeJob,
  type ExtensionJobState,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type VideoJob,
} from '@reelsmith/contracts';

/**
 * The worker's job list (ExtensionJobState) as pure functions. What happens to one job is the
 * contracts' job-state (progress never decreases, a finished job never reopens by itself, the
 * further view wins a merge); this module only keeps the list: order, the grace for jobs too new to
 * be listed, and which finished jobs were announced.
 */

/** How many finished jobs' notification marks are remembered (one notification per job). */
const NOTIFIED_MEMORY = 300;
/** A job the server has not listed yet may simply be too new to be in the list. */
const UNLISTED_GRACE_MS = 60_000;

const sortNewestFirst = (jobs: VideoJob[]): VideoJob[] => [...jobs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));

function updateJob(state: ExtensionJobState, jobId: string, change: (job: VideoJob) => VideoJob): ExtensionJobState {
  let changed = false;
  const jobs = state.jobs.map((job) => {
    if (job.id !== jobId) return job;
    const next = change(job);
    if (next !== job) changed = true;
    return next;
  });
  return changed ? { ...state, jobs } : state;
}

/** Adds a job, or puts it in place of the one with its id as it is (a submit, a reopen). */
export function putJob(state: ExtensionJobState, job: VideoJob): ExtensionJobState {
  return { ...state, jobs: sortNewestFirst([job, ...state.jobs.filter((j) => j.id !== job.id)]) };
}

export function hasJob(state: ExtensionJobState, jobId: string): boolean {
  return state.jobs.some((job) => job.id === jobId);
}

export const progressed = (state: ExtensionJobState, event: JobProgressEvent) =>
  updateJob(state, event.jobId, (job) => applyProgress(job, event));
export const completed = (state: ExtensionJobState, event: JobCompletedEvent) =>
  updateJob(state, event.jobId, (job) => applyCompleted(job, event));
export const failed = (state: ExtensionJobState, event: JobFailedEvent) => updateJob(state, event.jobId, (job) => applyFailed(job, event));
export const cancelled = (state: ExtensionJobState, jobId: string) => updateJob(state, jobId, (job) => applyCancelled(job));

/**
 * The server's list (GET /api/videos) after a wake: each listed job merged with what the worker
 * knew. Jobs the list does not name are dropped unless they were submitted moments ago.
 */
export function mergeServerJobs(state: ExtensionJobState, serverJobs: readonly VideoJob[], now: Date): ExtensionJobState {
  const known = new Map(state.jobs.map((job) => [job.id, job]));
  const listed = new Set(serverJobs.map((job) => job.id));
  const merged = serverJobs.map((server) => mergeJob(known.get(server.id), server));
  const recentUnlisted = state.jobs.filter(
    (job) => !listed.has(job.id) && isActiveJobStatus(job.status) && now.getTime() - Date.parse(job.created_at) < UNLISTED_GRACE_MS,
  );
  return { ...state, jobs: sortNewestFirst([...recentUnlisted, ...merged]) };
}

/** One job's status from GET /api/videos/:id/status, merged like the list's. */
export function mergeServerJob(state: ExtensionJobState, server: VideoJob): ExtensionJobState {
  const local = state.jobs.find((job) => job.id === server.id);
  if (!local) return putJob(state, server);
  return updateJob(state, server.id, () => mergeJob(local, server));
}

export const activeJobs = (state: ExtensionJobState): VideoJob[] => state.jobs.filter((job) => isActiveJobStatus(job.status));

/**
 * Jobs that finished (completed or failed) between two states and have not been announced: a job
 * must have been followed while active, so signing in never announces old videos.
 */
export function newlyFinished(before: ExtensionJobState, after: ExtensionJobState): VideoJob[] {
  const notified = new Set(after.notified);
  return jobTransitions(before.jobs, after.jobs)
    .filter((transition) => (transition.kind === 'completed' || transition.kind === 'failed') && !notified.has(transition.job.id))
    .map((transition) => transition.job);
}

export function markNotified(state: ExtensionJobState, jobIds: readonly string[]): ExtensionJobState {
  if (jobIds.length === 0) return state;
  const notified = [...state.notified.filter((id) => !jobIds.includes(id)), ...jobIds].slice(-NOTIFIED_MEMORY);
  return { ...state, notified };
}
