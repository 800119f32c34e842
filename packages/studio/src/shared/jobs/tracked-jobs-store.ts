import {
  applyCancelled,
  applyCompleted,
  applyFailed,
  applyProgress,
  isActiveJobStatus,
  mergeJob,
  newJob,
  type GenerationParams,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type VideoJob,
} from '@reelsmith/contracts';
import { createStore, type StoreApi } from 'zustand/vanilla';

export { isFinishedJobStatus, mergeJob, NEW_JOB_PROGRESS } from '@reelsmith/contracts';

/** The step text of a job the client has just created and the server has not reported on yet. */
export const QUEUED_STEP_TEXT = 'Queued for processing';

/** A job as the studio tracks it: the server's shape plus the local step text of a fresh job. */
export interface TrackedJob extends VideoJob {
  /** Set only while the job is the client's own fresh, not yet reported job. */
  stepText?: string;
}

export interface JobState {
  jobs: Record<string, TrackedJob>;
  /** Follows the live connection's connect and disconnect. */
  connected: boolean;
  /** True while a POST /api/videos/generate is in flight. */
  generating: boolean;
}

/** The rules of each change are @reelsmith/contracts' job-state; this store only holds the jobs. */
export interface JobActions {
  /** A job the user just submitted: pending, 'Queued for processing', progress 1. */
  addSubmittedJob(jobId: string, params: GenerationParams, now?: Date): void;
  applyProgress(event: JobProgressEvent): void;
  applyCompleted(event: JobCompletedEvent): void;
  applyFailed(event: JobFailedEvent): void;
  markCancelled(jobId: string): void;
  /** Removes every completed, failed or cancelled job. */
  clearFinished(): void;
  /** Merges server snapshots (list or status): the further view of each job wins. */
  mergeServerJobs(jobs: readonly VideoJob[]): void;
  /** Puts the server's copy in place as it is: a re-render or retry reopens a finished job on purpose. */
  replaceJob(job: VideoJob): void;
  /** The whole list as another owner keeps it (the extension's worker). */
  replaceAll(jobs: readonly VideoJob[], connected: boolean): void;
  setConnected(connected: boolean): void;
  setGenerating(generating: boolean): void;
  reset(): void;
}

export type JobStore = JobState & JobActions;
export type JobStoreApi = StoreApi<JobStore>;

/** The server's view replaces the local step text of a fresh job once it reports. */
const reported = (job: TrackedJob): TrackedJob => {
  if (job.stepText === undefined) return job;
  const { stepText: _fresh, ...rest } = job;
  return rest;
};

export function createJobStore(): JobStoreApi {
  const update = (set: JobStoreApi['setState'], jobId: string, change: (job: TrackedJob) => TrackedJob) =>
    set((state) => {
      const job = state.jobs[jobId];
      if (!job) return state;
      const next = change(job);
      return next === job ? state : { jobs: { ...state.jobs, [jobId]: reported(next) } };
    });

  return createStore<JobStore>()((set) => ({
    jobs: {},
    connected: false,
    generating: false,

    addSubmittedJob(jobId, params, now = new Date()) {
      set((state) => ({ jobs: { ...state.jobs, [jobId]: { ...newJob(jobId, params, now), stepText: QUEUED_STEP_TEXT } } }));
    },

    applyProgress(event) {
      update(set, event.jobId, (job) => applyProgress(job, event));
    },

    applyCompleted(event) {
      update(set, event.jobId, (job) => applyCompleted(job, event));
    },

    applyFailed(event) {
      update(set, event.jobId, (job) => applyFailed(job, event));
    },

    markCancelled(jobId) {
      update(set, jobId, (job) => applyCancelled(job));
    },

    clearFinished() {
      set((state) => ({ jobs: Object.fromEntries(Object.entries(state.jobs).filter(([, job]) => isActiveJobStatus(job.status))) }));
    },

    mergeServerJobs(serverJobs) {
      if (serverJobs.length === 0) return;
      set((state) => {
        const jobs = { ...state.jobs };
        let changed = false;
        for (const job of serverJobs) {
          const local = jobs[job.id];
          const merged = mergeJob<TrackedJob>(local, job);
          if (merged !== local) {
            jobs[job.id] = merged === job ? reported(job) : merged;
            changed = true;
          }
        }
        return changed ? { jobs } : state;
      });
    },

    replaceJob(job) {
      set((state) => ({ jobs: { ...state.jobs, [job.id]: job } }));
    },

    replaceAll(jobs, connected) {
      set({ jobs: Object.fromEntries(jobs.map((job) => [job.id, job])), connected });
    },

    setConnected(connected) {
      set({ connected });
    },

    setGenerating(generating) {
      set({ generating });
    },

    reset() {
      set({ jobs: {}, connected: false, generating: false });
    },
  }));
}

/** Newest first, the order every list shows. */
export function sortedJobs(jobs: Record<string, TrackedJob>): TrackedJob[] {
  const time = (job: TrackedJob) => Date.parse(job.created_at) || 0;
  return Object.values(jobs).sort((a, b) => time(b) - time(a));
}

export function activeJobs(jobs: readonly TrackedJob[]): TrackedJob[] {
  return jobs.filter((job) => isActiveJobStatus(job.status));
}
