import {
  isActiveJobStatus,
  type GenerateVideoResponse,
  type GenerationParams,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type RenderVideoResponse,
  type VideoJob,
} from '@reelsmith/contracts';
import type { ApiClient } from '../api/api-client.js';
import type { JobRealtimeClient } from './job-realtime.js';
import { createJobStore, type JobStoreApi, type TrackedJob } from './job-store.js';

/** What the user sees when live events arrive (toasts, auto-download); injected so tests can watch. */
export interface JobEventEffects {
  progress(event: JobProgressEvent, job: TrackedJob): void;
  completed(event: JobCompletedEvent, job: TrackedJob): void;
  failed(event: JobFailedEvent, job: TrackedJob | undefined): void;
}

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

export function createJobService({ api, realtime, effects = {}, log = (m, d) => console.warn(m, d), releaseGraceMs = 3000, onClosedByServer }: JobServiceOptions): JobService {
  const store = createJobStore();
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

  const activeIds = () => Object.values(store.getState().jobs).filter((job) => isActiveJobStatus(job.status)).map((job) => job.id);

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
      progress(event) {
        const before = store.getState().jobs[event.jobId];
        store.getState().applyProgress(event);
        const after = store.getState().jobs[event.jobId];
        if (after && after !== before) effects.progress?.(event, after);
      },
      completed(event) {
        const before = store.getState().jobs[event.jobId];
        store.getState().applyCompleted(event);
        const after = store.getState().jobs[event.jobId];
        // Once per job: the server reports 100 % (status completed) just before this event, so the
        // first result, not the status change, marks it; a repeated event downloads nothing twice.
        if (after && !before?.result) effects.completed?.(event, after);
        // A job started elsewhere (the extension, another tab) is not in the store yet.
        if (!after) void refreshJob(event.jobId);
      },
      failed(event) {
        const before = store.getState().jobs[event.jobId];
        store.getState().applyFailed(event);
        if (before?.status !== 'failed') effects.failed?.(event, store.getState().jobs[event.jobId]);
        if (!before) void refreshJob(event.jobId);
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
      const job = await api.call('videoStatus', { params: { id: videoId } }).catch(() => null);
      // The store never reopens a finished job from a snapshot; a re-render is one, so it is put back as the server has it.
      if (job) store.setState((state) => ({ jobs: { ...state.jobs, [videoId]: job } }));
      void realtime.subscribe(videoId);
      return response;
    },

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
