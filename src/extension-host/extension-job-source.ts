import {
  EMPTY_EXTENSION_JOB_STATE,
  EXTENSION_STORAGE_KEYS,
  extensionJobStateSchema,
  extensionResponseSchema,
  type ExtensionJobState,
  type ExtensionRequest,
  type GenerationParams,
  type JobStatus,
} from '@reelsmith/contracts';
import { useSyncExternalStore } from 'react';

type StorageListener = (changes: Record<string, chrome.storage.StorageChange>, areaName: string) => void;

export interface ExtensionJobSourceDeps {
  area: { get(keys: string): Promise<Record<string, unknown>> };
  onChanged: { addListener(listener: StorageListener): void; removeListener(listener: StorageListener): void };
  sendMessage(request: ExtensionRequest): Promise<unknown>;
}

/**
 * The popup's and side panel's view of the jobs: the background worker's state in
 * chrome.storage.local, followed through onChanged. These pages open no socket of their own; they
 * ask the worker to submit, cancel and refresh.
 */
export interface ExtensionJobSource {
  getState(): ExtensionJobState;
  subscribe(listener: () => void): () => void;
  /** The one submit path of the extension: the worker calls the API. Rejects with the server's message. */
  submit(params: GenerationParams): Promise<{ jobId: string; status: JobStatus; message: string }>;
  cancel(jobId: string): Promise<void>;
  /** A retried or re-rendered job is active again: the worker takes the server's copy. */
  reopen(jobId: string): Promise<void>;
  refresh(): Promise<void>;
  close(): void;
}

const parseState = (value: unknown): ExtensionJobState => {
  const parsed = extensionJobStateSchema.safeParse(value);
  return parsed.success ? parsed.data : EMPTY_EXTENSION_JOB_STATE;
};

export async function createExtensionJobSource(deps: ExtensionJobSourceDeps): Promise<ExtensionJobSource> {
  let state = parseState((await deps.area.get(EXTENSION_STORAGE_KEYS.jobs))[EXTENSION_STORAGE_KEYS.jobs]);
  const listeners = new Set<() => void>();
  const onChange: StorageListener = (changes, areaName) => {
    if (areaName !== 'local' || !(EXTENSION_STORAGE_KEYS.jobs in changes)) return;
    state = parseState(changes[EXTENSION_STORAGE_KEYS.jobs]?.newValue);
    listeners.forEach((listener) => listener());
  };
  deps.onChanged.addListener(onChange);

  const ask = async (request: ExtensionRequest) => {
    const parsed = extensionResponseSchema.safeParse(await deps.sendMessage(request));
    if (!parsed.success) throw new Error('The extension background did not answer');
    if (!parsed.data.ok) throw new Error(parsed.data.error);
    return parsed.data;
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async submit(params) {
      const { jobId, status, message } = await ask({ type: 'submit', params });
      if (!jobId || !status || message === undefined) throw new Error('The extension background did not return the new job');
      return { jobId, status, message };
    },
    async reopen(jobId) {
      await ask({ type: 'reopen', jobId });
    },
    async cancel(jobId) {
      await ask({ type: 'cancel', jobId });
    },
    async refresh() {
      await ask({ type: 'refresh' });
    },
    close: () => deps.onChanged.removeListener(onChange),
  };
}

/** The worker's job state, re-rendering on every change. */
export function useExtensionJobState(source: ExtensionJobSource): ExtensionJobState {
  return useSyncExternalStore(source.subscribe, source.getState);
}

/** chrome.* for the real extension pages. */
export function chromeJobSourceDeps(): ExtensionJobSourceDeps {
  return {
    area: chrome.storage.local,
    onChanged: chrome.storage.onChanged,
    sendMessage: (request) => chrome.runtime.sendMessage(request),
  };
}
