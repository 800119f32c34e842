import { EXTENSION_STORAGE_KEYS, type FormRequest } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { fakeStorage } from '../background/testing/fake-chrome.js';
import { createFormRequests } from './form-requests.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const KEY = EXTENSION_STORAGE_KEYS.pendingRequest;

describe('form requests', () => {
  it('delivers a waiting request once, then later ones as they arrive', async () => {
    const storage = fakeStorage();
    await storage.session.set({ [KEY]: { request: { kind: 'topic', topic: 'Volcanoes' }, createdAt: '2026-01-01T00:00:00Z' } });
    const requests = createFormRequests({ session: storage.session, onChanged: storage.onChanged });
    const seen: FormRequest[] = [];
    const stop = requests.subscribe((request) => seen.push(request));
    await flush();
    expect(seen).toEqual([{ kind: 'topic', topic: 'Volcanoes' }]);
    const article = {
      kind: 'article',
      text: 'Glaciers move. They carve valleys.',
      title: 'Glaciers',
      url: 'https://example.com/glaciers',
    } as const;
    await storage.session.set({ [KEY]: { request: article, createdAt: '2026-01-01T00:01:00Z' } });
    await flush();
    expect(seen).toEqual([{ kind: 'topic', topic: 'Volcanoes' }, article]);
    expect(storage.session.data[KEY]).toBeUndefined();
    stop();
    await storage.session.set({ [KEY]: { request: { kind: 'script', text: 'Late words.' }, createdAt: '2026-01-01T00:02:00Z' } });
    await flush();
    expect(seen).toHaveLength(2);
  });

  it('leaves a damaged request unread rather than filling the form with it', async () => {
    const storage = fakeStorage();
    await storage.session.set({ [KEY]: { request: { kind: 'article', text: '' }, createdAt: '2026-01-01T00:00:00Z' } });
    const seen: FormRequest[] = [];
    createFormRequests({ session: storage.session, onChanged: storage.onChanged }).subscribe((request) => seen.push(request));
    await flush();
    expect(seen).toEqual([]);
  });
});
