import { STORAGE_KEYS, type User } from '@reelsmith/contracts';
import type { StorageAreaLike } from './stored-job-list.js';

/**
 * The extension's sign-in, kept in chrome.storage.local in the shape the studio's auth store
 * persists (so the popup and side panel, which hydrate that store from the same area, follow a
 * sign-in or sign-out made by the worker). No content script exists that could read it.
 */
export class ExtensionSession {
  constructor(private readonly area: StorageAreaLike) {}

  async token(): Promise<string | null> {
    const stored = await this.area.get(STORAGE_KEYS.token);
    const token = stored[STORAGE_KEYS.token];
    return typeof token === 'string' && token !== '' ? token : null;
  }

  /** Signs the views in as the auth store itself would after a login. */
  async signIn(token: string, user: User): Promise<void> {
    const persisted = { state: { user, token, apiKey: null, isAuthenticated: true }, version: 0 };
    await this.area.set({ [STORAGE_KEYS.authStore]: JSON.stringify(persisted), [STORAGE_KEYS.token]: token });
  }

  async signOut(): Promise<void> {
    await this.area.remove([STORAGE_KEYS.token, STORAGE_KEYS.authStore]);
  }
}

/** Whether a chrome.storage change touched the bearer token, and its new value. */
export function tokenChange(changes: Record<string, chrome.storage.StorageChange>, areaName: string): { token: string | null } | null {
  if (areaName !== 'local' || !(STORAGE_KEYS.token in changes)) return null;
  const change = changes[STORAGE_KEYS.token];
  if (change?.newValue === change?.oldValue) return null;
  return { token: typeof change?.newValue === 'string' && change.newValue !== '' ? change.newValue : null };
}
