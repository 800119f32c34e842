/**
 * Provider failures the user can act on. `retryable` ones (network, 429, 5xx) are retried with
 * backoff; final ones fail the job with `message`, which is written for a creator, never a stack.
 */
export class ProviderError extends Error {
  /**
   * Set by an adapter that already retried the call (the shared HTTP client does), so the runner
   * does not multiply its attempts.
   */
  retriedByAdapter = false;

  constructor(
    message: string,
    readonly provider: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

export class CancelledError extends Error {
  constructor(message = 'The job was cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CancelledError();
}
