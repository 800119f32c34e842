/**
 * The web app origins allowed to message the extension (externally_connectable in the manifest
 * names the same list): VITE_WEB_APP_ORIGINS, comma separated, or else the API origin, which
 * serves the web app too. Plain TypeScript: the manifest config runs it in Node at build time.
 */
export function parseWebAppOrigins(list: string | undefined, apiBaseUrl: string): string[] {
  const origins = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => new URL(entry).origin);
  return origins.length > 0 ? [...new Set(origins)] : [new URL(apiBaseUrl).origin];
}
