import { STORAGE_KEYS } from '@reelsmith/contracts';
import { createAuthStore, createApiClient, MemoryStorage } from '@reelsmith/studio';
import { describe, expect, it } from 'vitest';
import { ExtensionSession, tokenChange } from './session.js';
import { fakeStorage } from './testing/fake-chrome.js';

const user = { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'user' as const };

describe('ExtensionSession', () => {
  it('writes a sign-in the studio auth store rehydrates', async () => {
    const storage = fakeStorage();
    const session = new ExtensionSession(storage.local);
    expect(await session.token()).toBeNull();
    await session.signIn('tok-1', user);
    expect(await session.token()).toBe('tok-1');

    const copy = new MemoryStorage(Object.entries(storage.local.data) as [string, string][]);
    const api = createApiClient({
      baseUrl: 'http://api.test',
      getToken: () => null,
      fetch: async () => new Response('{}', { status: 500 }),
    });
    const store = createAuthStore({ api, storage: copy, log: () => undefined });
    await store.persist.rehydrate();
    expect(store.getState()).toMatchObject({ token: 'tok-1', user, isAuthenticated: true });
  });

  it('signs out by removing both entries', async () => {
    const storage = fakeStorage();
    const session = new ExtensionSession(storage.local);
    await session.signIn('tok-1', user);
    await session.signOut();
    expect(storage.local.data).toEqual({});
  });

  it('recognises token changes in the local area only', () => {
    expect(tokenChange({ [STORAGE_KEYS.token]: { newValue: 'a' } }, 'local')).toEqual({ token: 'a' });
    expect(tokenChange({ [STORAGE_KEYS.token]: { oldValue: 'a' } }, 'local')).toEqual({ token: null });
    expect(tokenChange({ [STORAGE_KEYS.token]: { oldValue: 'a', newValue: 'a' } }, 'local')).toBeNull();
    expect(tokenChange({ [STORAGE_KEYS.token]: { newValue: 'a' } }, 'session')).toBeNull();
    expect(tokenChange({ other: { newValue: 'a' } }, 'local')).toBeNull();
  });
});
