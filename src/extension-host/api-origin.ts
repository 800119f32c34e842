import { EXTENSION_STORAGE_KEYS } from '@reelsmith/contracts';

/**
 * The API address the extension talks to: the build's VITE_API_BASE_URL unless the options page
 * saved another. Shared by the worker, the views and the options page.
 */
export const BUILD_API_BASE_URL = (import.meta.env.VITE_API_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');

/** The origin of an http(s) address, or null for anything else (paths, other schemes, garbage). */
export function normalizeApiOrigin(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  return url.origin;
}

/** The match pattern host permissions use for an origin (the same shape the manifest uses). */
export function originPermissionPattern(origin: string): string {
  return `${new URL(origin).origin}/*`;
}

export async function readApiBaseUrl(
  area: { get(keys: string): Promise<Record<string, unknown>> },
  fallback: string = BUILD_API_BASE_URL,
): Promise<string> {
  const stored = await area.get(EXTENSION_STORAGE_KEYS.apiBaseUrl);
  const value = stored[EXTENSION_STORAGE_KEYS.apiBaseUrl];
  return (typeof value === 'string' && normalizeApiOrigin(value)) || fallback;
}

/** The override from an already-loaded synchronous copy of chrome.storage.local. */
export function apiBaseUrlFrom(storage: { getItem(key: string): string | null }, fallback: string = BUILD_API_BASE_URL): string {
  const value = storage.getItem(EXTENSION_STORAGE_KEYS.apiBaseUrl);
  return (value && normalizeApiOrigin(value)) || fallback;
}
