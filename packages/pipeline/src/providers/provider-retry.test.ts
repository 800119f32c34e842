import { describe, expect, it } from 'vitest';
import { CancelledError, ProviderError } from '../errors.js';
import { callProvider, markRetriedByAdapter } from './provider-retry.js';

const delays = [1, 1, 1];

describe('callProvider', () => {
  it('retries a retryable failure up to three times, then succeeds', async () => {
    let calls = 0;
    const result = await callProvider(
      async () => {
        calls++;
        if (calls < 3) throw new ProviderError('busy', 'story', true, 503);
        return 'ok';
      },
      undefined,
      delays,
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('gives up after three retries with the provider error', async () => {
    let calls = 0;
    const failing = callProvider(
      async () => {
        calls++;
        throw new ProviderError('still busy', 'story', true, 503);
      },
      undefined,
      delays,
    );
    await expect(failing).rejects.toThrow('still busy');
    expect(calls).toBe(4);
  });

  it('does not retry final errors or errors the adapter already retried', async () => {
    let calls = 0;
    await expect(
      callProvider(
        async () => {
          calls++;
          throw new ProviderError('bad key', 'voice', false, 401);
        },
        undefined,
        delays,
      ),
    ).rejects.toThrow('bad key');
    await expect(
      callProvider(
        async () => {
          calls++;
          throw markRetriedByAdapter(new ProviderError('rate limited', 'voice', true, 429));
        },
        undefined,
        delays,
      ),
    ).rejects.toThrow('rate limited');
    expect(calls).toBe(2);
  });

  it('stops waiting when the job is cancelled', async () => {
    const controller = new AbortController();
    const pending = callProvider(
      async () => {
        setTimeout(() => controller.abort(), 5);
        throw new ProviderError('busy', 'images', true, 503);
      },
      controller.signal,
      [10_000],
    );
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
  });
});
