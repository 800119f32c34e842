import { type GenerationParams } from '@reelsmith/contracts';
import { createJobStore, followJobTransitions, type ApiClient, type JobEventEffects, type JobService } from '@reelsmith/studio';
import type { ExtensionJobSource } from './extension-job-source.js';

export interface WorkerJobServiceOptions {
  source: ExtensionJobSource;
  api: ApiClient;
  effects?: Partial<JobEventEffects>;
}

/**
 * The studio's job port inside the extension (side panel): the background worker owns the one
 * connection and the job list in chrome.storage, submits and cancels; this view mirrors the list
 * into the studio's store, and its toasts follow the same transitions as the web's. The popup uses
 * the same worker through the same source, so both views show one state.
 */
export function createWorkerJobService({ source, api, effects = {} }: WorkerJobServiceOptions): JobService {
  const store = createJobStore();
  followJobTransitions(store, effects);
  // The list the view opens with is its baseline: nothing in it is announced.
  const mirror = () => {
    const state = source.getState();
    store.getState().replaceAll(state.jobs, state.connected);
  };
  mirror();
  source.subscribe(mirror);

  const refreshJob = async (jobId: string) => {
    await source.refresh().catch(() => undefined);
    return store.getState().jobs[jobId] ?? null;
  };

  return {
    store,

    async submit(params: GenerationParams) {
      store.getState().setGenerating(true);
      try {
        const { jobId, status, message } = await source.submit(params);
        return { jobId, status, message };
      } finally {
        store.getState().setGenerating(false);
      }
    },

    async render(videoId) {
      const response = await api.call('renderVideo', { params: { id: videoId } });
      await source.reopen(videoId);
      return response;
    },

    async cancel(jobId) {
      await source.cancel(jobId);
      return 'Job cancelled';
    },

    refreshJob,
    async refreshActiveJobs() {
      await source.refresh().catch(() => undefined);
    },
    async reopen(jobId) {
      await source.reopen(jobId);
    },

    // The worker keeps the connection; a view that opens asks it to catch up.
    retain() {
      source.refresh().catch(() => undefined);
      return () => undefined;
    },
    stop() {
      store.getState().reset();
    },
  };
}
