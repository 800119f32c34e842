import { EXTENSION_STORAGE_KEYS } from '@reelsmith/contracts';
import type { TopicRequests } from '@reelsmith/studio/popup';
import { takePendingTopic } from '../background/context-menu.js';
import type { StorageAreaLike } from '../background/job-store.js';

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
