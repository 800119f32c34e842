import type { Platform } from '@reelsmith/contracts';
import { AsyncLocalStorage } from 'node:async_hooks';

/** One request to a platform: long enough for a large chunk on a slow link, short enough that a hung socket is noticed. */
export const PLATFORM_REQUEST_TIMEOUT_MS = 120_000;

/**
 * Why a call to a platform failed, which decides what happens next:
 * - `auth`: the platform refused the creator's permission (revoked, expired refresh token): no retry,
 *   the connection is marked for reconnecting and the creator is told so;
 * - `transient`: no answer, a broken connection, a 5xx or a rate limit: retried with backoff;
 * - `rejected`: the platform said no to this post (its reason is shown as it gave it).
 */
export type PlatformErrorKind = 'auth' | 'transient' | 'rejected';

export class PlatformError extends Error {
  override name = 'PlatformError';
  /** A transient failure that must wait until a known time (YouTube's quota day), not the usual backoff. */
  retryAt: string | null = null;
  constructor(
    readonly platform: Platform,
    readonly kind: PlatformErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface PlatformResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/**
 * The signal of the publication being run: a server stopping aborts its requests in flight (the
 * publication resumes at the next start), without every call site passing it along.
 */
export const runSignal = new AsyncLocalStorage<AbortSignal>();

/**
 * fetch with a deadline; a network failure (refused, reset, timed out) becomes a transient
 * PlatformError, and the body is read whole so the caller can parse the platform's error format.
 */
export async function platformFetch(
  platform: Platform,
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<PlatformResponse> {
  const { timeoutMs = PLATFORM_REQUEST_TIMEOUT_MS, ...rest } = init;
  let response: Response;
  let text: string;
  try {
    const stop = rest.signal ?? runSignal.getStore();
    const deadline = AbortSignal.timeout(timeoutMs);
    response = await fetch(url, { ...rest, redirect: 'manual', signal: stop ? AbortSignal.any([stop, deadline]) : deadline });
    text = await response.text();
  } catch (error) {
    throw new PlatformError(platform, 'transient', `no answer from ${new URL(url).host}: ${(error as Error).message}`);
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A 5xx or 429 is worth another try later; other statuses are answers. */
export const isTransientStatus = (status: number): boolean => status >= 500 || status === 429;

export const formBody = (fields: Record<string, string | undefined>): URLSearchParams => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, value);
  return body;
};

/** A field of a JSON object answer, or undefined. */
export function field(json: unknown, ...path: string[]): unknown {
  let current: unknown = json;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export const stringField = (json: unknown, ...path: string[]): string | undefined => {
  const value = field(json, ...path);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
};
