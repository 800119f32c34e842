import type { Role } from '@reelsmith/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { MemoryStorage, PlatformProvider, type Platform } from '../../platform.js';
import { ServicesProvider, type StudioServices } from '../../services.js';
import { createStudioServices } from '../../studio-services.js';

export const TEST_API_BASE = 'http://api.test';

export type Responder = (
  url: URL,
  init: RequestInit | undefined,
) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

/** A fetch that answers from `responder` and records every call. */
export function fakeFetch(responder: Responder) {
  const calls: { url: URL; method: string }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    calls.push({ url, method: init?.method ?? 'GET' });
    const { status = 200, body } = await responder(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return { fetch: fetchMock as unknown as typeof fetch, calls };
}

export function testPlatform(): Platform {
  return {
    kind: 'web',
    storage: new MemoryStorage(),
    navigation: { openTab: vi.fn(), reload: vi.fn() },
    browser: { isDesktopChrome: () => false },
    apiBaseUrl: TEST_API_BASE,
    googleSignIn: false,
  };
}

export function renderWithServices(
  ui: ReactElement,
  options: { fetch: typeof fetch; role?: Role | null },
): ReturnType<typeof render> & { services: StudioServices; platform: Platform } {
  const platform = testPlatform();
  const services = createStudioServices(platform, { fetch: options.fetch });
  services.queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 } });
  if (options.role) {
    services.authStore.setState({
      user: { id: 'u1', name: 'Tester', email: 't@example.com', role: options.role },
      token: 'token',
      isAuthenticated: true,
      isLoading: false,
    });
  }
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <PlatformProvider platform={platform}>
      <ServicesProvider services={services}>
        <QueryClientProvider client={services.queryClient}>{children}</QueryClientProvider>
      </ServicesProvider>
    </PlatformProvider>
  );
  return Object.assign(render(ui, { wrapper }), { services, platform });
}

/**
 * jsdom has no media playback: play() resolves and fires `playing` (or fails with `error` for
 * sources listed in `broken`), pause() fires `pause`, like a browser would.
 */
export function mockMediaPlayback(broken: (src: string) => boolean = () => false) {
  const played: string[] = [];
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    played.push(this.src);
    if (broken(this.src)) {
      queueMicrotask(() => this.dispatchEvent(new Event('error')));
      return Promise.reject(new DOMException('The element has no supported sources.', 'NotSupportedError'));
    }
    Object.defineProperty(this, 'paused', { configurable: true, value: false });
    queueMicrotask(() => this.dispatchEvent(new Event('playing')));
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    Object.defineProperty(this, 'paused', { configurable: true, value: true });
    this.dispatchEvent(new Event('pause'));
  });
  return { play, pause, played };
}
