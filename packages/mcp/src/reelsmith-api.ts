import { API_KEY_HEADER } from '@reelsmith/contracts';
import { apiErrorFrom, createClient, type ReelsmithClient } from '@reelsmith/sdk';

/** How the MCP server reaches Reelsmith: only through its public HTTP API, with the creator's own key. */
export interface ApiConnection {
  /** The API's address, e.g. https://reelsmith.example (the server's own, when it mounts /mcp). */
  baseUrl: string;
  /** The creator's API key: every call has exactly this key's rights. */
  apiKey: string;
  /** Where video, poster and picture links point (the server's PUBLIC_URL); defaults to baseUrl. */
  publicUrl?: string;
  /** The transport of the HTTP calls (the server hands in one that goes through its own routes). */
  fetch?: typeof fetch;
  /**
   * Waits until the video changes (a progress, completion or failure event), at most `ms`; the server
   * that mounts /mcp hands one in that listens to its job events, so a waiting get_video_status reads
   * the video only when it changed. False when the key's budget of waiting calls is used up: the call
   * then answers at once. Without it, the tool polls once a second.
   */
  waitForChange?: (videoId: string, ms: number, signal: AbortSignal) => Promise<boolean>;
}

export interface ReelsmithApi {
  client: ReelsmithClient;
  /** A path of the API (`/output/…`) as an absolute address an agent can open or hand on. */
  absolute: (path: string) => string;
  /** GET of a route an older server may not have (research: a 404 there), parsed by the caller. */
  getJson: (path: string, query: Record<string, string>) => Promise<unknown>;
  /** See ApiConnection.waitForChange. */
  waitForChange?: ApiConnection['waitForChange'];
}

export function connect({ baseUrl, apiKey, publicUrl, fetch: fetchImpl = globalThis.fetch, waitForChange }: ApiConnection): ReelsmithApi {
  const base = baseUrl.replace(/\/+$/, '');
  const linkBase = `${(publicUrl ?? baseUrl).replace(/\/+$/, '')}/`;
  return {
    ...(waitForChange ? { waitForChange } : {}),
    client: createClient({ baseUrl: base, apiKey, fetch: fetchImpl }),
    absolute: (path) => new URL(path, linkBase).toString(),
    async getJson(path, query) {
      const response = await fetchImpl(`${base}${path}?${new URLSearchParams(query).toString()}`, {
        headers: { [API_KEY_HEADER]: apiKey, accept: 'application/json' },
      });
      const json: unknown = await response.json().catch(() => null);
      if (!response.ok) throw apiErrorFrom(response.status, json);
      return json;
    },
  };
}
