import { EXTENSION_STORAGE_KEYS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { fakeStorage } from '../background/testing/fake-chrome.js';
import { createTopicRequests } from './topic-requests.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('topic requests', () => {
  it('delivers a waiting topic once, then later ones as they arrive', async () => {
    const storage = fakeStorage();
    await storage.session.set({ [EXTENSION_STORAGE_KEYS.pendingTopic]: { topic: 'Volcanoes', createdAt: '2026-01-01T00:00:00Z' } });
    const requests = createTopicRequests({ session: storage.session, onChanged: storage.onChanged });
    const seen: string[] = [];
    const stop = requests.subscribe((topic) => seen.push(topic));
    await flush();
    expect(seen).toEqual(['Volcanoes']);
    await storage.session.set({ [EXTENSION_STORAGE_KEYS.pendingTopic]: { topic: 'Glaciers', createdAt: '2026-01-01T00:01:00Z' } });
    await flush();
    expect(seen).toEqual(['Volcanoes', 'Glaciers']);
    expect(storage.session.data[EXTENSION_STORAGE_KEYS.pendingTopic]).toBeUndefined();
    stop();
    await storage.session.set({ [EXTENSION_STORAGE_KEYS.pendingTopic]: { topic: 'Late', createdAt: '2026-01-01T00:02:00Z' } });
    await flush();
    expect(seen).toEqual(['Volcanoes', 'Glaciers']);
  });
});
