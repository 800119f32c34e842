import { EXTENSION_STORAGE_KEYS, pendingRequestSchema, type FormRequest } from '@reelsmith/contracts';
import type { FormRequests } from '@reelsmith/studio/popup';
import type { StorageAreaLike } from './storage-area.js';

/** The side panel takes the pending request (stored by the worker's context menu) once. */
export async function takePendingRequest(session: StorageAreaLike): Promise<FormRequest | null> {
  const stored = await session.get(EXTENSION_STORAGE_KEYS.pendingRequest);
  const parsed = pendingRequestSchema.safeParse(stored[EXTENSION_STORAGE_KEYS.pendingRequest]);
  if (!parsed.success) return null;
  await session.remove(EXTENSION_STORAGE_KEYS.pendingRequest);
  return parsed.data.request;
}

type StorageListener = (changes: Record<string, chrome.storage.StorageChange>, areaName: string) => void;

/**
 * The side panel's form prefill: the context menu stores the selected text (as a topic or a script)
 * or the page's article in chrome.storage.session; the studio form takes it when it opens, or as
 * soon as it arrives.
 */
export function createFormRequests(deps: {
  session: StorageAreaLike;
  onChanged: { addListener(listener: StorageListener): void; removeListener(listener: StorageListener): void };
}): FormRequests {
  return {
    subscribe(listener) {
      let active = true;
      const deliver = () =>
        void takePendingRequest(deps.session).then((request) => {
          if (active && request) listener(request);
        });
      const onChange: StorageListener = (changes, areaName) => {
        if (areaName === 'session' && changes[EXTENSION_STORAGE_KEYS.pendingRequest]?.newValue !== undefined) deliver();
      };
      deps.onChanged.addListener(onChange);
      deliver();
      return () => {
        active = false;
        deps.onChanged.removeListener(onChange);
      };
    },
  };
}
