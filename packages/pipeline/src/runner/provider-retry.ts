import { abortableSleep } from '../abortable-sleep.js';
import { ProviderError } from '../errors.js';

/**
 * Adapters that already retry (the shared HTTP client does) set this on the ProviderError they finally
 * throw, so the runner does not multiply their attempts.
 */
export const ADAPTER_RETRIED = Symbol.for('reelsmith.providerRetried');

export function markRetriedByAdapter<E extends Error>(error: E): E {
  (error as unknown as Record<symbol, boolean>)[ADAPTER_RETRIED] = true;
  return error;
}

function retriedByAdapter(error: ProviderError): boolean {
  return (error as unknown as Record<symbol, unknown>)[ADAPTER_RETRIED] === true;
}

export const PROVIDER_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/** Runs one provider call; a retryable ProviderError is retried (at most 3 times) with backoff. */
export async function callProvider<T>(
  call: () => Promise<T>,
  signal?: AbortSignal,
  delaysMs: readonly number[] = PROVIDER_RETRY_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retry = error instanceof ProviderError && error.retryable && !retriedByAdapter(error) && attempt < delaysMs.length && !signal?.aborted;
      if (!retry) throw error;
      await abortableSleep(delaysMs[attempt]!, signal);
    }
  }
}
