import { EXTENSION_STORAGE_KEYS, pendingTopicSchema } from '@reelsmith/contracts';
import type { TopicRequests } from '@reelsmith/studio/popup';
import type { StorageAreaLike } from '../background/job-store.js';

/** The side panel takes the pending topic (stored by the worker's context menu) once. */
export async function takePendingTopic(session: StorageAreaLike): Promise<string | null> {
  const stored = await session.get(EXTENSION_STORAGE_KEYS.pendingTopic);
  const parsed = pendingTopicSchema.safeParse(stored[EXTENSION_STORAGE_KEYS.pendingTopic]);
  if (!parsed.success) return null;
  await session.remove(EXTENSION_STORAGE_KEYS.pendingTopic);
  return parsed.data.topic;
}

type StorageListener = (changes: Record<string, chrome.storage.StorageChange>, areaName: string) => void;

/**
 * The side panel's topic prefill: the context menu stores the selected text in
 * chrome.storage.session; the studio form takes it when it opens, or as soon as it arrives.
 */
export function createTopicRequests(deps: {
  session: StorageAreaLike;
  onChanged: { addListener(listener: StorageListener): void; removeListener(listener: StorageListener): void };
}): TopicRequests {
  return {
    subscribe(listener) {
      let active = true;
      const deliver = () =>
        void takePendingTopic(deps.session).then((topic) => {
          if (active && topic) listener(topic);
        });
      const onChange: StorageListener = (changes, areaName) => {
        if (areaName === 'session' && changes[EXTENSION_STORAGE_KEYS.pendingTopic]?.newValue !== undefined) deliver();
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
