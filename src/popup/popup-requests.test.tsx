// @vitest-environment jsdom
import { STORAGE_KEYS } from '@reelsmith/contracts';
import { CoreProviders, createCoreServices, MemoryStorage, type Platform } from '@reelsmith/studio/popup';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRY_DELAY_MS, useApiResource, usePopupGenerationAccess, usePopupVoices } from './popup-requests.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const user = { id: 'u1', name: 'Asha Creator', email: 'asha@example.com', role: 'user' as const };

function wrapperFor(fetchImpl: typeof fetch, signedIn = true) {
  const storage = new MemoryStorage(
    signedIn
      ? [[STORAGE_KEYS.authStore, JSON.stringify({ state: { user, token: 't', apiKey: 'k', isAuthenticated: true }, version: 0 })]]
      : [],
  );
  const platform: Platform = {
    kind: 'extension',
    storage,
    navigation: { openTab: () => undefined, reload: () => undefined },
    browser: { isDesktopChrome: () => false },
    apiBaseUrl: 'http://api.test',
    googleSignIn: false,
  };
  const services = createCoreServices(platform, { fetch: fetchImpl });
  return ({ children }: { children?: ReactNode }) => (
    <CoreProviders platform={platform} services={services}>
      {children}
    </CoreProviders>
  );
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('useApiResource', () => {
  it('retries a failed request once, a second later, like the studio reads', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const load = vi.fn<(signal: AbortSignal) => Promise<string>>().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('fine');
    const { result } = renderHook(() => useApiResource('k', load));
    expect(result.current).toEqual({ data: undefined, isLoading: true, isError: false });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS);
    });
    await waitFor(() => expect(result.current.data).toBe('fine'));
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.current.isError).toBe(false);
  });

  it('reports an error after the one retry fails too', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const load = vi.fn(async () => Promise.reject(new Error('down')));
    const { result } = renderHook(() => useApiResource('k', load));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS);
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.current.isLoading).toBe(false);
  });

  it('aborts the request for a previous key and never shows its answer for the new one', async () => {
    const signals: AbortSignal[] = [];
    const pending = new Map<string, (value: string) => void>();
    const { result, rerender } = renderHook(
      ({ key }) =>
        useApiResource(key, (signal) => {
          signals.push(signal);
          return new Promise<string>((resolve) => pending.set(key, resolve));
        }),
      { initialProps: { key: 'en' } },
    );
    rerender({ key: 'hi' });
    expect(signals[0]!.aborted).toBe(true);
    act(() => pending.get('en')!('English voices'));
    expect(result.current).toEqual({ data: undefined, isLoading: true, isError: false });
    act(() => pending.get('hi')!('Hindi voices'));
    await waitFor(() => expect(result.current.data).toBe('Hindi voices'));
  });

  it('asks nothing without a key', () => {
    const load = vi.fn(async () => 'x');
    const { result } = renderHook(() => useApiResource(null, load));
    expect(load).not.toHaveBeenCalled();
    expect(result.current).toEqual({ data: undefined, isLoading: false, isError: false });
  });
});

describe('the popup requests', () => {
  it('asks GET /voices for the language once it settles, and says which language the answer is for', async () => {
    const requested: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      requested.push(`${url.pathname}?${url.searchParams}`);
      return json({ language: url.searchParams.get('language'), provider: 'offline', voices: { male: [], female: [] } });
    }) as typeof fetch;
    const { result } = renderHook(() => usePopupVoices('hi'), { wrapper: wrapperFor(fetchImpl) });
    expect(result.current.settled).toBe(false);
    await waitFor(() => expect(result.current.data?.language).toBe('hi'));
    expect(result.current.settledLanguage).toBe('hi');
    expect(requested).toEqual(['/voices?language=hi']);
  });

  it('locks 60 and 90 s while the next video is the free one, and a failed check answers null at once', async () => {
    let failChecks = false;
    const requested: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      requested.push(`${url.pathname}?${url.searchParams}`);
      if (url.pathname === '/payments/can-generate')
        return failChecks
          ? json({ statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong' }, 500)
          : json({ canGenerate: true, isFreeVideo: true, reason: null });
      return json({ statusCode: 404, error: 'Not Found', message: 'Not found' }, 404);
    }) as typeof fetch;
    const { result } = renderHook(() => usePopupGenerationAccess(), { wrapper: wrapperFor(fetchImpl) });
    await waitFor(() => expect(result.current.isFreeVideo).toBe(true));
    expect(result.current.longDurationsLocked).toBe(true);
    expect(await result.current.check(30)).toEqual({ canGenerate: true, isFreeVideo: true, reason: null });
    failChecks = true;
    expect(await result.current.check(60)).toBeNull();
    expect(requested.filter((path) => path === '/payments/can-generate?duration=60')).toHaveLength(1);
  });

  it('asks nothing about billing for a visitor', async () => {
    const fetchImpl = vi.fn(async () => json({}));
    const { result } = renderHook(() => usePopupGenerationAccess(), { wrapper: wrapperFor(fetchImpl as unknown as typeof fetch, false) });
    expect(result.current.settled).toBe(true);
    expect(result.current.longDurationsLocked).toBe(true);
    expect(await result.current.check(30)).toBeNull();
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
