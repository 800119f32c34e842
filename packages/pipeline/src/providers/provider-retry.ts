import { abortableSleep } from '../abortable-sleep.js';
import { ProviderError } from '../errors.js';

/** An adapter that already retried (the shared HTTP client) marks the ProviderError it finally throws. */
export function markRetriedByAdapter(error: ProviderError): ProviderError {
  error.retriedByAdapter = true;
  return error;
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
      const retry =
        error instanceof ProviderError && error.retryable && !error.retriedByAdapter && attempt < delaysMs.length && !signal?.aborted;
      if (!retry) throw error;
      await abortableSleep(delaysMs[attempt]!, signal);
    }
  }
}
