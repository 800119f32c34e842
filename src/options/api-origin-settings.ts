import { EXTENSION_STORAGE_KEYS, type ExtensionRequest } from '@reelsmith/contracts';
import { normalizeApiOrigin, originPermissionPattern } from '../extension-host/api-origin.js';
import type { StorageAreaLike } from '../extension-host/storage-area.js';

export interface ApiOriginDeps {
  storage: StorageAreaLike;
  permissions: { contains(p: { origins: string[] }): Promise<boolean>; request(p: { origins: string[] }): Promise<boolean> };
  notifyWorker(request: ExtensionRequest): Promise<unknown>;
  buildOrigin: string;
}

export type SaveResult = { ok: true; origin: string; changed: boolean } | { ok: false; error: string };

export const API_ORIGIN_MESSAGES = {
  invalid: 'Enter an http:// or https:// address, like https://api.example.com',
  permissionDenied: 'Chrome did not allow access to that address, so it was not saved.',
} as const;

/**
 * Saves the API address chosen on the options page. Host access is granted at install for the
 * build's address only; any other is requested now (this runs in the click's user gesture), and the
 * worker is told so it drops the session that belonged to the previous server.
 */
export async function saveApiOrigin(deps: ApiOriginDeps, input: string, current: string): Promise<SaveResult> {
  const origin = normalizeApiOrigin(input);
  if (!origin) return { ok: false, error: API_ORIGIN_MESSAGES.invalid };
  if (origin === current) return { ok: true, origin, changed: false };
  if (origin !== deps.buildOrigin) {
    const origins = [originPermissionPattern(origin)];
    const granted = (await deps.permissions.contains({ origins })) || (await deps.permissions.request({ origins }));
    if (!granted) return { ok: false, error: API_ORIGIN_MESSAGES.permissionDenied };
  }
  if (origin === deps.buildOrigin) await deps.storage.remove(EXTENSION_STORAGE_KEYS.apiBaseUrl);
  else await deps.storage.set({ [EXTENSION_STORAGE_KEYS.apiBaseUrl]: origin });
  await deps.notifyWorker({ type: 'api-origin-changed' });
  return { ok: true, origin, changed: true };
}
