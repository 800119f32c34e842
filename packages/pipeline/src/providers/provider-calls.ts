import { VOICE_PROVIDERS } from '@reelsmith/contracts';
import { CancelledError, ProviderError } from '../errors.js';

/** The kinds of provider the pipeline calls (the server adds `publishing`). */
export const PROVIDER_CALL_KINDS = ['story', 'voice', 'images', 'research'] as const;
export type ProviderCallKind = (typeof PROVIDER_CALL_KINDS)[number];

/**
 * Every provider name the registry can configure per kind (the registry's ids, not a provider's
 * display name): a fixed set, so a metric label built from it stays small and its series can be
 * created at 0 before the first call.
 */
export const KNOWN_PROVIDER_NAMES: Readonly<Record<ProviderCallKind, readonly string[]>> = {
  story: ['offline', 'openai'],
  voice: VOICE_PROVIDERS,
  images: ['offline', 'openai', 'pexels', 'unsplash'],
  research: ['wikipedia'],
};

/**
 * Why a provider call failed, as a small fixed set (never the error's text):
 * - `auth`: the service refused the credentials (401, 403);
 * - `rate_limited`: 429;
 * - `unavailable`: no answer, a timeout, a broken connection or a 5xx;
 * - `rejected`: the service answered no to this request (another 4xx);
 * - `aborted`: the caller stopped waiting (a cancelled job, research's time budget spent, a stopping server);
 * - `other`: anything else (an answer that could not be read, a local failure).
 */
export const PROVIDER_CALL_ERROR_CODES = ['auth', 'rate_limited', 'unavailable', 'rejected', 'aborted', 'other'] as const;
export type ProviderCallErrorCode = (typeof PROVIDER_CALL_ERROR_CODES)[number];

/** One finished call to a provider: its time, and why it failed when it did. */
export interface ProviderCall {
  kind: ProviderCallKind;
  /** The registry's id of the provider (offline, openai, azure, elevenlabs, neural, pexels, wikipedia…). */
  provider: string;
  seconds: number;
  error?: ProviderCallErrorCode;
}

export type ProviderCallObserver = (call: ProviderCall) => void;

/**
 * The code of a failed call's error, from the HTTP status it carries where it has one (a provider's
 * ProviderError, the research client's WikimediaError) and otherwise from what it is.
 */
export function providerCallErrorCode(error: unknown, signal?: AbortSignal): ProviderCallErrorCode {
  if (signal?.aborted || error instanceof CancelledError) return 'aborted';
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError') return 'aborted';
  if (name === 'TimeoutError') return 'unavailable';
  const status = statusOf(error);
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status !== undefined && status >= 500) return 'unavailable';
  if (status !== undefined && status >= 400) return 'rejected';
  if (error instanceof ProviderError && error.retryable) return 'unavailable';
  // Fetch's network failures (refused, reset, DNS), also as the cause of an adapter's own error.
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++)
    if (cause instanceof TypeError && /fetch failed|network|ECONN|ENOTFOUND|socket/i.test(cause.message)) return 'unavailable';
  return 'other';
}

function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/** The call's own signal: by the providers' convention, the last argument when it is one. */
function signalOf(args: readonly unknown[]): AbortSignal | undefined {
  const last = args.at(-1);
  return last instanceof AbortSignal ? last : undefined;
}

/**
 * The provider with each of `methods` timed and reported to `observe` (everything else passes
 * through untouched, so the wrapper is the provider as far as its callers can tell). An observer
 * that throws is ignored: metrics never fail a job.
 */
export function observedProvider<P extends object>(
  provider: P,
  kind: ProviderCallKind,
  name: string,
  methods: readonly string[],
  observe: ProviderCallObserver,
): P {
  const wrapped = new Map<PropertyKey, unknown>();
  const report = (call: ProviderCall) => {
    try {
      observe(call);
    } catch {
      // A metric is never worth a failed call.
    }
  };
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || !methods.includes(property)) return value;
      let timed = wrapped.get(property);
      if (!timed) {
        const method = value as (...args: unknown[]) => unknown;
        timed = async (...args: unknown[]) => {
          const started = performance.now();
          const seconds = () => (performance.now() - started) / 1000;
          try {
            const result = await method.apply(target, args);
            report({ kind, provider: name, seconds: seconds() });
            return result;
          } catch (error) {
            report({ kind, provider: name, seconds: seconds(), error: providerCallErrorCode(error, signalOf(args)) });
            throw error;
          }
        };
        wrapped.set(property, timed);
      }
      return timed;
    },
  });
}

/** The methods of each kind that call out (the ones an operator times); measuring and health checks are left out. */
export const OBSERVED_METHODS: Readonly<Record<ProviderCallKind, readonly string[]>> = {
  story: ['writeStory'],
  voice: ['synthesize'],
  images: ['generateImage'],
  research: ['findArticles', 'findArticle', 'readArticle', 'findPictures', 'downloadPicture'],
};
