import { EXTENSION_STORAGE_KEYS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { fakeStorage } from '../background/testing/fake-chrome.js';
import { apiBaseUrlFrom, normalizeApiOrigin, originPermissionPattern, readApiBaseUrl } from './api-origin.js';

describe('api origin', () => {
  it('accepts http(s) addresses and keeps only the origin', () => {
    expect(normalizeApiOrigin(' https://api.reelsmith.app/some/path?q=1 ')).toBe('https://api.reelsmith.app');
    expect(normalizeApiOrigin('http://127.0.0.1:8181/')).toBe('http://127.0.0.1:8181');
    expect(normalizeApiOrigin('ftp://example.com')).toBeNull();
    expect(normalizeApiOrigin('javascript:alert(1)')).toBeNull();
    expect(normalizeApiOrigin('https://user:pw@example.com')).toBeNull();
    expect(normalizeApiOrigin('not a url')).toBeNull();
  });

  it('builds the host permission pattern of an origin', () => {
    expect(originPermissionPattern('http://127.0.0.1:8181')).toBe('http://127.0.0.1:8181/*');
    expect(originPermissionPattern('https://api.reelsmith.app')).toBe('https://api.reelsmith.app/*');
  });

  it('prefers a saved valid override over the build default', async () => {
    const storage = fakeStorage();
    expect(await readApiBaseUrl(storage.local, 'http://build:1')).toBe('http://build:1');
    await storage.local.set({ [EXTENSION_STORAGE_KEYS.apiBaseUrl]: 'https://mine.example/' });
    expect(await readApiBaseUrl(storage.local, 'http://build:1')).toBe('https://mine.example');
    await storage.local.set({ [EXTENSION_STORAGE_KEYS.apiBaseUrl]: 'garbage' });
    expect(await readApiBaseUrl(storage.local, 'http://build:1')).toBe('http://build:1');
    const sync = new Map<string, string>([[EXTENSION_STORAGE_KEYS.apiBaseUrl, 'https://x.example']]);
    expect(apiBaseUrlFrom({ getItem: (k) => sync.get(k) ?? null }, 'http://build:1')).toBe('https://x.example');
  });
});
