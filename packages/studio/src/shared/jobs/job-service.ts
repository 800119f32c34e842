import {
  isActiveJobStatus,
  jobTransitions,
  type GenerateVideoResponse,
  type GenerationParams,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type RenderVideoResponse,
  type VideoJob,
} from '@reelsmith/contracts';
import type { ApiClient } from '../../api/api-client.js';
import type { JobRealtimeClient } from './job-realtime.js';
import { createJobStore, type JobStoreApi, type TrackedJob } from './tracked-jobs-store.js';

/**
 * What the user sees when a job moves (toasts, auto-download); injected so tests can watch. They
 * follow the store's transitions (contracts' jobTransitions), whoever moved the job: the web's
 * socket events or the extension worker's stored state.
 */
export interface JobEventEffects {
  progress(event: JobProgressEvent, job: TrackedJob): void;
  completed(event: JobCompletedEvent, job: TrackedJob): void;
  failed(event: JobFailedEvent, job: TrackedJob): void;
  cancelled?(job: TrackedJob): void;
}

/**
 * Runs the effects for every transition of a job the store was already following while it was
 * active: a job listed already finished (an old video at sign-in) announces nothing.
 */
export function followJobTransitions(store: JobStoreApi, effects: Partial<JobEventEffects>): () => void {
  return store.subscribe((state, previous) => {
    if (state.jobs === previous.jobs) return;
    for (const transition of jobTransitions(Object.values(previous.jobs), Object.values(state.jobs))) {
      const job = state.jobs[transition.job.id]!;
      if (transition.kind === 'progress') effects.progress?.(transition.event, job);
      else if (transition.kind === 'completed') effects.completed?.(transition.event, job);
      else if (transition.kind === 'failed') effects.failed?.(transition.event, job);
      else effects.cancelled?.(job);
    }
  });
}

/**
 * The studio's port to the jobs: state (the store), submit, cancel, refresh. The web implements it
 * over REST and socket.io (createJobService); the extension over its background worker, which owns
 * the one connection and submits for every extension view.
 */
export interface JobService {
  store: JobStoreApi;
  /** POST /api/videos/generate, then tracks the job and subscribes to its live events. */
  submit(params: GenerationParams): Promise<GenerateVideoResponse>;
  /**
   * POST /api/videos/:id/render: the finished video is queued again for its next version, and is
   * tracked (live events, progress) like a new job.
   */
  render(videoId: string): Promise<RenderVideoResponse>;
  /** DELETE /api/videos/:id; the job reads cancelled afterwards. */
  cancel(jobId: string): Promise<string>;
  /** GET /api/videos/:id/status; null on failure (logged only). */
  refreshJob(jobId: string): Promise<VideoJob | null>;
  /**
   * A retried or re-rendered job is active again: the server's copy replaces the finished one (the
   * job-state rules never reopen a finished job by themselves).
   */
  reopen(jobId: string): Promise<void>;
  /** Re-reads every active job over REST (after a reconnect nothing is missed). */
  refreshActiveJobs(): Promise<void>;
  /**
   * Keeps the live connection open for one consumer; the returned function lets go. The
   * connection closes shortly after the last consumer leaves, so moving between pages keeps it.
   */
  retain(token: string): () => void;
  /** Signs out: closes the connection and forgets every job. */
  stop(): void;
}

export interface JobServiceOptions {
  api: ApiClient;
  realtime: JobRealtimeClient;
  effects?: Partial<JobEventEffects>;
  log?: (message: string, detail?: unknown) => void;
  /** How long the connection outlives its last consumer. */
  releaseGraceMs?: number;
  /** The server closed the live connection (a revoked session): the caller re-checks the sign-in. */
  onClosedByServer?: () => void;
}

export function createJobService({
  api,
  realtime,
  effects = {},
  log = (m, d) => console.warn(m, d),
  releaseGraceMs = 3000,
  onClosedByServer,
}: JobServiceOptions): JobService {
  const store = createJobStore();
  followJobTransitions(store, effects);
  let connectedToken: string | null = null;
  let consumers = 0;
  let closeTimer: ReturnType<typeof setTimeout> | null = null;

  const refreshJob = async (jobId: string): Promise<VideoJob | null> => {
    try {
      const job = await api.call('videoStatus', { params: { id: jobId } });
      store.getState().mergeServerJobs([job]);
      return job;
    } catch (error) {
      log('Fetching the job status failed', error);
      return null;
    }
  };

  const reopen = async (jobId: string) => {
    const job = await api.call('videoStatus', { params: { id: jobId } }).catch((error: unknown) => {
      log('Fetching the reopened job failed', error);
      return null;
    });
    if (job) store.getState().replaceJob(job);
    void realtime.subscribe(jobId);
  };

  const activeIds = () =>
    Object.values(store.getState().jobs)
      .filter((job) => isActiveJobStatus(job.status))
      .map((job) => job.id);

  const refreshActiveJobs = async () => {
    await Promise.all(activeIds().map((id) => refreshJob(id)));
  };

  const disconnect = () => {
    if (closeTimer) clearTimeout(closeTimer);
    closeTimer = null;
    if (connectedToken === null) return;
    connectedToken = null;
    realtime.disconnect();
    store.getState().setConnected(false);
  };

  const connect = (token: string) => {
    if (connectedToken === token) return;
    disconnect();
    connectedToken = token;
    realtime.connect(token, {
      // A job started elsewhere (the extension, another tab) is not in the store yet: it is fetched.
      progress(event) {
        if (!store.getState().jobs[event.jobId]) void refreshJob(event.jobId);
        store.getState().applyProgress(event);
      },
      completed(event) {
        if (!store.getState().jobs[event.jobId]) void refreshJob(event.jobId);
        store.getState().applyCompleted(event);
      },
      failed(event) {
        if (!store.getState().jobs[event.jobId]) void refreshJob(event.jobId);
        store.getState().applyFailed(event);
      },
      closedByServer() {
        onClosedByServer?.();
      },
      connectionChange(connected, { resumed }) {
        store.getState().setConnected(connected);
        if (connected && resumed) {
          for (const id of activeIds()) void realtime.subscribe(id);
          void refreshActiveJobs();
        }
      },
    });
  };

  return {
    store,

    async submit(params) {
      store.getState().setGenerating(true);
      try {
        const response = await api.call('generateVideo', { body: params });
        store.getState().addSubmittedJob(response.jobId, params);
        void realtime.subscribe(response.jobId).then((ok) => {
          // Without live events the job still moves through the 10 s list refresh.
          if (!ok) log('Live updates for the new job are unavailable', response.jobId);
        });
        return response;
      } finally {
        store.getState().setGenerating(false);
      }
    },

    async render(videoId) {
      const response = await api.call('renderVideo', { params: { id: videoId } });
      await reopen(videoId);
      return response;
    },

    reopen,

    async cancel(jobId) {
      const response = await api.call('deleteVideo', { params: { id: jobId } });
      store.getState().markCancelled(jobId);
      return response.message;
    },

    refreshJob,
    refreshActiveJobs,

    retain(token) {
      if (closeTimer) clearTimeout(closeTimer);
      closeTimer = null;
      consumers += 1;
      connect(token);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        consumers -= 1;
        if (consumers > 0) return;
        closeTimer = setTimeout(disconnect, releaseGraceMs);
      };
    },

    stop() {
      consumers = 0;
      disconnect();
      store.getState().reset();
    },
  };
}
