import {
  isActiveJobStatus,
  PIPELINE_STEPS,
  type ExtensionJobState,
  type GenerationParams,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type JobSteps,
  type VideoJob,
} from '@reelsmith/contracts';

/**
 * The job list the worker keeps, as pure functions over ExtensionJobState (spec section 4, "Video
 * jobs"): progress never decreases, completion sets 100, a failure keeps its error.
 */

/** How many finished jobs' notification marks are remembered (one notification per job). */
const NOTIFIED_MEMORY = 300;
/** A job the server has not listed yet may simply be too new to be in the list. */
const UNLISTED_GRACE_MS = 60_000;

const pendingSteps = (): JobSteps =>
  Object.fromEntries(PIPELINE_STEPS.map((step) => [step, { status: 'pending', progress: 0 }])) as JobSteps;

/** A job just submitted: pending at 1 % until the server reports (spec: "A new job starts at 1"). */
export function newLocalJob(jobId: string, params: GenerationParams, now: Date): VideoJob {
  return {
    id: jobId,
    status: 'pending',
    progress: 1,
    currentStep: null,
    stepProgress: 0,
    params,
    created_at: now.toISOString(),
    result: null,
    error: null,
    steps: pendingSteps(),
  };
}

const sortNewestFirst = (jobs: VideoJob[]): VideoJob[] => [...jobs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));

function updateJob(state: ExtensionJobState, jobId: string, change: (job: VideoJob) => VideoJob): ExtensionJobState {
  let found = false;
  const jobs = state.jobs.map((job) => {
    if (job.id !== jobId) return job;
    found = true;
    return change(job);
  });
  return found ? { ...state, jobs } : state;
}

export function addJob(state: ExtensionJobState, job: VideoJob): ExtensionJobState {
  return { ...state, jobs: sortNewestFirst([job, ...state.jobs.filter((j) => j.id !== job.id)]) };
}

export function hasJob(state: ExtensionJobState, jobId: string): boolean {
  return state.jobs.some((job) => job.id === jobId);
}

export function applyProgress(state: ExtensionJobState, event: JobProgressEvent): ExtensionJobState {
  return updateJob(state, event.jobId, (job) => {
    // A late progress event never reopens a finished job.
    if (!isActiveJobStatus(job.status)) return job;
    return {
      ...job,
      progress: Math.max(job.progress, event.progress),
      currentStep: event.step,
      stepProgress: event.stepProgress,
      status: event.status ?? job.status,
    };
  });
}

export function applyCompleted(state: ExtensionJobState, event: JobCompletedEvent): ExtensionJobState {
  return updateJob(state, event.jobId, (job) => ({ ...job, status: 'completed', progress: 100, result: event.result, error: null }));
}

export function applyFailed(state: ExtensionJobState, event: JobFailedEvent): ExtensionJobState {
  return updateJob(state, event.jobId, (job) => (job.status === 'completed' ? job : { ...job, status: 'failed', error: event.error }));
}

export function applyCancelled(state: ExtensionJobState, jobId: string): ExtensionJobState {
  return updateJob(state, jobId, (job) => ({ ...job, status: 'cancelled' }));
}

/**
 * The server's list (GET /api/videos) is the truth after a restart; a known job's progress still
 * never goes backwards. Jobs the list does not name are dropped unless they were submitted moments ago.
 */
export function mergeServerJobs(state: ExtensionJobState, serverJobs: readonly VideoJob[], now: Date): ExtensionJobState {
  const known = new Map(state.jobs.map((job) => [job.id, job]));
  const listed = new Set(serverJobs.map((job) => job.id));
  const merged = serverJobs.map((server) => {
    const local = known.get(server.id);
    if (!local || !isActiveJobStatus(server.status)) return server;
    return { ...server, progress: Math.max(server.progress, local.progress) };
  });
  const recentUnlisted = state.jobs.filter(
    (job) => !listed.has(job.id) && isActiveJobStatus(job.status) && now.getTime() - Date.parse(job.created_at) < UNLISTED_GRACE_MS,
  );
  return { ...state, jobs: sortNewestFirst([...recentUnlisted, ...merged]) };
}

/** One job's status from GET /api/videos/:id/status. */
export function mergeServerJob(state: ExtensionJobState, server: VideoJob): ExtensionJobState {
  const local = state.jobs.find((job) => job.id === server.id);
  if (!local) return addJob(state, server);
  return updateJob(state, server.id, () =>
    isActiveJobStatus(server.status) ? { ...server, progress: Math.max(server.progress, local.progress) } : server,
  );
}

export const activeJobs = (state: ExtensionJobState): VideoJob[] => state.jobs.filter((job) => isActiveJobStatus(job.status));

/**
 * Jobs that finished (completed or failed) between two states and have not been announced: a job
 * must have been followed while active, so signing in never announces old videos.
 */
export function newlyFinished(before: ExtensionJobState, after: ExtensionJobState): VideoJob[] {
  const wasActive = new Set(activeJobs(before).map((job) => job.id));
  const notified = new Set(after.notified);
  return after.jobs.filter((job) => (job.status === 'completed' || job.status === 'failed') && wasActive.has(job.id) && !notified.has(job.id));
}

export function markNotified(state: ExtensionJobState, jobIds: readonly string[]): ExtensionJobState {
  if (jobIds.length === 0) return state;
  const notified = [...state.notified.filter((id) => !jobIds.includes(id)), ...jobIds].slice(-NOTIFIED_MEMORY);
  return { ...state, notified };
}
