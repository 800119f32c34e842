import { MutationObserver, onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from './api/api-client.js';
import { createQueryClient } from './query-client.js';
import { MESSAGES } from '@reelsmith/contracts';

afterEach(() => onlineManager.setOnline(true));

describe('query client', () => {
  it('runs a mutation at once while offline instead of pausing it to replay when the connection returns', async () => {
    const client = createQueryClient();
    onlineManager.setOnline(false);
    let calls = 0;
    const observer = new MutationObserver(client, {
      mutationFn: async () => {
        calls += 1;
        throw new ApiError('Network error: the server could not be reached', 0, { fromServer: false });
      },
    });
    await expect(observer.mutate()).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
    expect(observer.getCurrentResult().isPaused).toBe(false);

    onlineManager.setOnline(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nothing was queued: the call is not made again by itself.
    expect(calls).toBe(1);
    expect(
      client
        .getMutationCache()
        .getAll()
        .filter((mutation) => mutation.state.isPaused),
    ).toHaveLength(0);
  });

  it('says "You are offline" for a call that could not go out without a connection', () => {
    const networkError = new ApiError('Network error: the server could not be reached', 0, { fromServer: false });
    const online = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { onLine: false }, configurable: true });
    try {
      expect(errorMessage(networkError, MESSAGES.submitFailed)).toBe(MESSAGES.offline);
    } finally {
      if (online) Object.defineProperty(globalThis, 'navigator', online);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
    expect(errorMessage(networkError, MESSAGES.submitFailed)).toBe(MESSAGES.submitFailed);
  });
});
