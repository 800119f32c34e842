import { EXTENSION_STORAGE_KEYS, extensionJobStateSchema, type ExtensionJobState, type ExtensionRequest, type VideoJob } from '@reelsmith/contracts';
import type { JobRealtimeClient, JobRealtimeHandlers } from '@reelsmith/studio/jobs/job-realtime';
import { extensionResponseSchema } from '@reelsmith/contracts';

type StorageListener = (changes: Record<string, chrome.storage.StorageChange>, areaName: string) => void;

export interface WorkerJobRealtimeDeps {
  area: { get(keys: string): Promise<Record<string, unknown>> };
  onChanged: { addListener(listener: StorageListener): void; removeListener(listener: StorageListener): void };
  sendMessage(request: ExtensionRequest): Promise<unknown>;
}

const parse = (value: unknown): ExtensionJobState | null => {
  const parsed = extensionJobStateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** The live events one job's change between two stored states amounts to. */
export function eventsBetween(before: VideoJob | undefined, after: VideoJob, handlers: Pick<JobRealtimeHandlers, 'progress' | 'completed' | 'failed'>): void {
  if (after.status === 'completed') {
    // The worker may store a 'completed' progress event before the result arrives: the
    // completion counts once the result is there, and only the first time.
    const announced = before?.status === 'completed' && Boolean(before.result);
    if (!announced && after.result) handlers.completed({ jobId: after.id, result: after.result });
    return;
  }
  if (before && before.status === after.status && before.progress === after.progress && before.currentStep === after.currentStep && before.stepProgress === after.stepProgress) return;
  if (after.status === 'failed') {
    if (before?.status !== 'failed') handlers.failed({ jobId: after.id, error: after.error ?? 'Video generation failed' });
    return;
  }
  if (after.status === 'cancelled') return;
  handlers.progress({ jobId: after.id, progress: after.progress, step: after.currentStep ?? 'setup', stepProgress: after.stepProgress, status: after.status });
}

/**
 * The studio's live job channel inside the extension, backed by the background worker: the
 * worker owns the one socket and writes every job change to chrome.storage.local; this replays
 * those changes as the socket events the studio's job service expects. It opens no socket.
 */
export function createWorkerJobRealtime(deps: WorkerJobRealtimeDeps): JobRealtimeClient {
  let listener: StorageListener | null = null;

  const ask = async (request: ExtensionRequest): Promise<boolean> => {
    try {
      const parsed = extensionResponseSchema.safeParse(await deps.sendMessage(request));
      return parsed.success && parsed.data.ok;
    } catch {
      return false;
    }
  };

  return {
    connect(_token, handlers) {
      if (listener) deps.onChanged.removeListener(listener);
      let previous: ExtensionJobState | null = null;
      let connectedBefore = false;
      const apply = (next: ExtensionJobState) => {
        const known = new Map((previous?.jobs ?? []).map((job) => [job.id, job]));
        const wasConnected = previous?.connected ?? false;
        previous = next;
        if (next.connected !== wasConnected) {
          handlers.connectionChange(next.connected, { resumed: next.connected && connectedBefore });
          if (next.connected) connectedBefore = true;
        }
        for (const job of next.jobs) eventsBetween(known.get(job.id), job, handlers);
      };
      const current: StorageListener = (changes, areaName) => {
        if (areaName !== 'local' || !(EXTENSION_STORAGE_KEYS.jobs in changes)) return;
        const next = parse(changes[EXTENSION_STORAGE_KEYS.jobs]?.newValue);
        if (next) apply(next);
      };
      listener = current;
      deps.onChanged.addListener(current);
      void deps.area.get(EXTENSION_STORAGE_KEYS.jobs).then((stored) => {
        // Seeds the known state silently: these jobs come to the studio through its REST list.
        const initial = parse(stored[EXTENSION_STORAGE_KEYS.jobs]);
        if (listener === current && previous === null && initial) {
          previous = { ...initial, connected: false };
          apply(initial);
        }
      });
      // Wakes the worker so it connects and catches up.
      void ask({ type: 'refresh' });
    },

    disconnect() {
      if (listener) deps.onChanged.removeListener(listener);
      listener = null;
    },

    // The worker hears every job of the user; asking it to re-read the list makes it follow this one now.
    subscribe: () => ask({ type: 'refresh' }),
  };
}
