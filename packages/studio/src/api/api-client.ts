import {
  buildPath,
  errorResponseSchema,
  loadMoreRoutes,
  MESSAGES,
  STUDIO_ROUTES,
  type API,
  type ApiName,
  type ApiResponse,
  type RouteContract,
} from '@reelsmith/contracts';
import type * as z from 'zod/v4/core';

type Route<N extends ApiName> = (typeof API)[N];
type InputOf<R, K extends string> = R extends { [P in K]: infer S extends z.$ZodType } ? z.input<S> : never;

/** The request parts a route declares; routes without a part do not accept it. */
export type CallOptions<N extends ApiName> = (Route<N> extends { body: z.$ZodType }
  ? { body: InputOf<Route<N>, 'body'> }
  : { body?: never }) &
  (Route<N> extends { params: z.$ZodType } ? { params: InputOf<Route<N>, 'params'> } : { params?: never }) &
  (Route<N> extends { query: z.$ZodType } ? { query?: InputOf<Route<N>, 'query'> } : { query?: never }) & {
    /** Overrides the signed-in token for this call (null: send none). */
    token?: string | null;
    signal?: AbortSignal;
    /** Sent as If-Match: the write applies only to the version with this ETag (a 412 otherwise). */
    ifMatch?: string;
  };

type OptionalArg<N extends ApiName> = Route<N> extends { body: z.$ZodType } | { params: z.$ZodType } ? [CallOptions<N>] : [CallOptions<N>?];

/** A failed call: the server's JSON error, or a network / parse failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly field: string | undefined;
  /** True when the message came from the server (so the UI shows it instead of its own fallback). */
  readonly fromServer: boolean;
  /** The whole error body, for the errors that carry more than a message (a 412's current version). */
  readonly body: unknown;
  constructor(message: string, status: number, options: { field?: string; fromServer: boolean; cause?: unknown; body?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.field = options.field;
    this.fromServer = options.fromServer;
    this.body = options.body;
  }
}

/** The browser says it has no connection (navigator.onLine); unknown counts as online. */
export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * The server's message when there is one; "You are offline" when the call could not go out for lack
 * of a connection; else the screen's own fallback text.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 0 && isOffline()) return MESSAGES.offline;
  return error instanceof ApiError && error.fromServer && error.message ? error.message : fallback;
}

export interface ApiClientOptions {
  baseUrl: string;
  getToken: () => string | null;
  fetch?: typeof fetch;
}

export type ApiCall = <N extends ApiName>(name: N, ...args: OptionalArg<N>) => Promise<ApiResponse<N>>;

export interface ApiClient {
  call: ApiCall;
  baseUrl: string;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

type RouteTable = Partial<Record<ApiName, RouteContract>>;

/**
 * The studio's own routes are in the first load; the rest of the registry (storyboard, developer
 * API, checkout, admin) is fetched once, on the first call to one of them. A fetch that fails for
 * want of a connection fails the call like a request that could not go out.
 */
async function routeFor(name: ApiName): Promise<RouteContract> {
  const studio = (STUDIO_ROUTES as RouteTable)[name];
  if (studio) return studio;
  let more: RouteTable;
  try {
    more = await loadMoreRoutes();
  } catch (cause) {
    throw new ApiError('Network error: the server could not be reached', 0, { fromServer: false, cause });
  }
  const route = more[name];
  if (!route) throw new Error(`No route named ${name} in the contracts`);
  return route;
}

/**
 * A typed client over the contracts' API registry. No request timeout is set:
 * video submission and admin calls may legitimately take long.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  const call = async (name: ApiName, callOptions: CallOptions<ApiName> = {} as CallOptions<ApiName>) => {
    const route = await routeFor(name);
    const opts = callOptions as {
      body?: unknown;
      params?: Record<string, string>;
      query?: Record<string, unknown>;
      token?: string | null;
      signal?: AbortSignal;
      ifMatch?: string;
    };
    const url = `${options.baseUrl}${buildPath(route.path, opts.params)}${queryString(opts.query)}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = opts.token === undefined ? options.getToken() : opts.token;
    if (token) headers.Authorization = `Bearer ${token}`;
    if (opts.ifMatch !== undefined) headers['If-Match'] = opts.ifMatch;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }

    let response: Response;
    try {
      response = await doFetch(url, { method: route.method, headers, body, signal: opts.signal });
    } catch (cause) {
      throw new ApiError('Network error: the server could not be reached', 0, { fromServer: false, cause });
    }

    const text = await response.text();
    let json: unknown = undefined;
    // A file answered as text (a caption file) is the response itself; errors are always JSON.
    const isText = response.ok && !/json/i.test(response.headers.get('content-type') ?? 'application/json');
    if (isText) json = text;
    else if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }

    if (!response.ok) {
      const parsed = errorResponseSchema.safeParse(json);
      if (parsed.success) {
        throw new ApiError(parsed.data.message, response.status, { field: parsed.data.field, fromServer: true, body: json });
      }
      throw new ApiError(`Request failed with status ${response.status}`, response.status, { fromServer: false });
    }

    const parsed = route.response.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(`Unexpected response from ${route.method} ${route.path}`, response.status, {
        fromServer: false,
        cause: parsed.error,
      });
    }
    return parsed.data;
  };

  return { call: call as ApiCall, baseUrl: options.baseUrl };
}
