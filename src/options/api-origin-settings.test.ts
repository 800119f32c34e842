import { EXTENSION_STORAGE_KEYS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { fakeStorage } from '../background/testing/fake-chrome.js';
import { API_ORIGIN_MESSAGES, saveApiOrigin, type ApiOriginDeps } from './api-origin-settings.js';

function deps(grant: boolean) {
  const storage = fakeStorage();
  const requested: string[][] = [];
  const told: unknown[] = [];
  const value: ApiOriginDeps = {
    storage: storage.local,
    permissions: { contains: async () => false, request: async ({ origins }) => (requested.push(origins), grant) },
    notifyWorker: async (request) => void told.push(request),
    buildOrigin: 'http://localhost:8080',
  };
  return { value, storage, requested, told };
}

describe('saveApiOrigin', () => {
  it('asks for host access to a new address, saves it and tells the worker', async () => {
    const d = deps(true);
    expect(await saveApiOrigin(d.value, 'https://api.example.com/v1', 'http://localhost:8080')).toEqual({
      ok: true,
      origin: 'https://api.example.com',
      changed: true,
    });
    expect(d.requested).toEqual([['https://api.example.com/*']]);
    expect(d.storage.local.data[EXTENSION_STORAGE_KEYS.apiBaseUrl]).toBe('https://api.example.com');
    expect(d.told).toEqual([{ type: 'api-origin-changed' }]);
  });

  it('keeps the old address when access is refused or the input is bad', async () => {
    const d = deps(false);
    expect(await saveApiOrigin(d.value, 'https://api.example.com', 'http://localhost:8080')).toEqual({
      ok: false,
      error: API_ORIGIN_MESSAGES.permissionDenied,
    });
    expect(await saveApiOrigin(d.value, 'file:///etc', 'http://localhost:8080')).toEqual({ ok: false, error: API_ORIGIN_MESSAGES.invalid });
    expect(d.storage.local.data).toEqual({});
    expect(d.told).toEqual([]);
  });

  it('returns to the build address without asking, and does nothing when unchanged', async () => {
    const d = deps(false);
    await d.storage.local.set({ [EXTENSION_STORAGE_KEYS.apiBaseUrl]: 'https://api.example.com' });
    expect(await saveApiOrigin(d.value, 'http://localhost:8080', 'https://api.example.com')).toMatchObject({ ok: true, changed: true });
    expect(d.storage.local.data[EXTENSION_STORAGE_KEYS.apiBaseUrl]).toBeUndefined();
    expect(d.requested).toEqual([]);
    expect(await saveApiOrigin(d.value, 'http://localhost:8080/', 'http://localhost:8080')).toEqual({
      ok: true,
      origin: 'http://localhost:8080',
      changed: false,
    });
  });
});
