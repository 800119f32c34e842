import {
  isActiveJobStatus,
  PIPELINE_STEPS,
  type GenerationParams,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type JobSteps,
  type VideoJob,
} from '@reelsmith/contracts';
import { createStore, type StoreApi } from 'zustand/vanilla';

/** The step text of a job the client has just created and the server has not reported on yet. */
export const QUEUED_STEP_TEXT = 'Queued for processing';
/** Spec section 3: "A new job starts at 1". */
export const NEW_JOB_PROGRESS = 1;

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

export interface JobActions {
  /** A job the user just submitted: pending, 'Queued for processing', progress 1. */
  addSubmittedJob(jobId: string, params: GenerationParams, now?: Date): void;
  /** Progress only moves forward; step, step progress and status follow the event. */
  applyProgress(event: JobProgressEvent): void;
  applyCompleted(event: JobCompletedEvent): void;
  applyFailed(event: JobFailedEvent): void;
  markCancelled(jobId: string): void;
  /** Removes every completed, failed or cancelled job. */
  clearFinished(): void;
  /** Merges a server snapshot (list or status) without letting it move a job backwards. */
  mergeServerJobs(jobs: readonly VideoJob[]): void;
  setConnected(connected: boolean): void;
  setGenerating(generating: boolean): void;
  reset(): void;
}

export type JobStore = JobState & JobActions;
export type JobStoreApi = StoreApi<JobStore>;

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
export const isFinishedJobStatus = (status: string): boolean => FINISHED.has(status);

function pendingSteps(): JobSteps {
  return Object.fromEntries(PIPELINE_STEPS.map((step) => [step, { status: 'pending', progress: 0 }])) as JobSteps;
}

/** The later of two views of one job: finished beats active, and progress never goes back. */
export function mergeJob(local: TrackedJob | undefined, server: VideoJob): TrackedJob {
  if (!local) return server;
  if (isFinishedJobStatus(local.status) && !isFinishedJobStatus(server.status)) return local;
  if (isFinishedJobStatus(server.status)) return server;
  if (server.progress >= local.progress) return server;
  // The live events are ahead of this snapshot: keep their progress and step.
  return { ...server, progress: local.progress, currentStep: local.currentStep, stepProgress: local.stepProgress, steps: local.steps, ...(local.stepText ? { stepText: local.stepText } : {}) };
}

export function createJobStore(): JobStoreApi {
  const update = (set: JobStoreApi['setState'], jobId: string, change: (job: TrackedJob) => TrackedJob | null) =>
    set((state) => {
      const job = state.jobs[jobId];
      if (!job) return state;
      const next = change(job);
      return next === null || next === job ? state : { jobs: { ...state.jobs, [jobId]: next } };
    });

  return createStore<JobStore>()((set) => ({
    jobs: {},
    connected: false,
    generating: false,

    addSubmittedJob(jobId, params, now = new Date()) {
      set((state) => ({
        jobs: {
          ...state.jobs,
          [jobId]: {
            id: jobId,
            status: 'pending',
            progress: NEW_JOB_PROGRESS,
            currentStep: null,
            stepProgress: 0,
            params,
            created_at: now.toISOString(),
            result: null,
            error: null,
            steps: pendingSteps(),
            stepText: QUEUED_STEP_TEXT,
          },
        },
      }));
    },

    applyProgress(event) {
      update(set, event.jobId, (job) => {
        // A late progress event must not reopen a finished job.
        if (isFinishedJobStatus(job.status)) return null;
        const steps = { ...job.steps, [event.step]: { status: 'running' as const, progress: event.stepProgress } };
        const { stepText: _fresh, ...rest } = job;
        return {
          ...rest,
          progress: Math.max(job.progress, event.progress),
          currentStep: event.step,
          stepProgress: event.stepProgress,
          status: event.status,
          steps,
        };
      });
    },

    applyCompleted(event) {
      update(set, event.jobId, (job) => {
        const { stepText: _fresh, ...rest } = job;
        return { ...rest, status: 'completed', result: event.result, progress: 100 };
      });
    },

    applyFailed(event) {
      update(set, event.jobId, (job) => {
        const { stepText: _fresh, ...rest } = job;
        return { ...rest, status: 'failed', error: event.error };
      });
    },

    markCancelled(jobId) {
      update(set, jobId, (job) => {
        const { stepText: _fresh, ...rest } = job;
        return { ...rest, status: 'cancelled' };
      });
    },

    clearFinished() {
      set((state) => ({ jobs: Object.fromEntries(Object.entries(state.jobs).filter(([, job]) => !isFinishedJobStatus(job.status))) }));
    },

    mergeServerJobs(serverJobs) {
      if (serverJobs.length === 0) return;
      set((state) => {
        const jobs = { ...state.jobs };
        for (const job of serverJobs) jobs[job.id] = mergeJob(jobs[job.id], job);
        return { jobs };
      });
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
