import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { StudioApp, StudioProviders } from '../app/studio-app.js';
import type { JobRealtimeClient } from '../shared/jobs/job-realtime.js';
import { createJobService } from '../shared/jobs/job-service.js';
import { JobServiceProvider, type JobServiceFactory } from '../shared/jobs/jobs-context.js';
import { MemoryStorage, type Platform } from '../platform.js';
import type { StudioServices } from '../services.js';
import { createStudioServices } from '../studio-services.js';

/** A recorded request to the fake server. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

/** `contentType` sends `body` (a string) as it is, like a file the API answers; otherwise it is JSON. */
export type FakeHandler = (request: RecordedRequest) => { status?: number; body: unknown; contentType?: string } | undefined;

/**
 * A fetch that answers from `handler` (undefined → a contract-shaped 404) and records each
 * request, so tests run the real API client against canned server answers.
 */
export function fakeFetch(handler: FakeHandler): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://studio.test');
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const answer = handler(request) ?? { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not found' } };
    if (answer.contentType && typeof answer.body === 'string')
      return new Response(answer.body, { status: answer.status ?? 200, headers: { 'Content-Type': answer.contentType } });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return { fetch: fetchImpl, requests };
}

export function testPlatform(overrides: Partial<Platform> = {}): Platform {
  return {
    kind: 'web',
    storage: new MemoryStorage(),
    navigation: { openTab: () => undefined, reload: () => undefined },
    browser: { isDesktopChrome: () => false },
    apiBaseUrl: '',
    googleSignIn: false,
    ...overrides,
  };
}

/** jsdom lacks matchMedia, which react-hot-toast reads for reduced motion. */
export function installMatchMedia(): void {
  if (typeof window.matchMedia === 'function') return;
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

export interface RenderedStudio extends RenderResult {
  services: StudioServices;
  platform: Platform;
  requests: RecordedRequest[];
}

/**
 * The live channel of a page whose socket server is unreachable: it never connects, so pages fall
 * back to their REST refresh, as they do when the real connection is down (and no test tries to open
 * a websocket to a server that is not there).
 */
export const unreachableRealtime = (): JobRealtimeClient => ({
  connect: () => undefined,
  disconnect: () => undefined,
  subscribe: () => Promise.resolve(false),
});

/** The web's job port (REST + a live channel) over the given live channel: tests drive the channel by hand. */
export function realtimeJobService(realtime: (apiBaseUrl: string) => JobRealtimeClient): JobServiceFactory {
  return ({ services, platform, effects }) => createJobService({ api: services.api, realtime: realtime(platform.apiBaseUrl), effects });
}

/** Supplies the job port built over `realtime` to what it wraps. */
export function JobRealtimeProvider({
  createRealtime,
  children,
}: {
  createRealtime: (apiBaseUrl: string) => JobRealtimeClient;
  children?: ReactNode;
}) {
  return <JobServiceProvider createJobService={realtimeJobService(createRealtime)}>{children}</JobServiceProvider>;
}

interface RenderOptions {
  path?: string;
  handler?: FakeHandler;
  platform?: Platform;
}

/** Renders what `content` makes of the studio's services at `path`, with fetch faked by `handler` and no live socket. */
function renderInRouter(
  content: (platform: Platform, services: StudioServices) => ReactElement,
  { path = '/', handler = () => undefined, platform = testPlatform() }: RenderOptions,
): RenderedStudio {
  installMatchMedia();
  const { fetch, requests } = fakeFetch(handler);
  const services = createStudioServices(platform, { fetch });
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <JobRealtimeProvider createRealtime={unreachableRealtime}>{content(platform, services)}</JobRealtimeProvider>
    </MemoryRouter>,
  );
  return { ...result, services, platform, requests };
}

/** Renders the whole studio app at `path`. */
export function renderStudio(options: RenderOptions = {}): RenderedStudio {
  return renderInRouter((platform, services) => <StudioApp platform={platform} services={services} />, options);
}

/** Renders one component inside the studio's providers (no routes). */
export function renderWithStudio(ui: ReactElement, options: RenderOptions = {}): RenderedStudio {
  return renderInRouter(
    (platform, services) => (
      <StudioProviders platform={platform} services={services}>
        {ui}
      </StudioProviders>
    ),
    options,
  );
}

export const testUser = { id: 'u1', name: 'Asha Creator', email: 'asha@example.com', role: 'user' as const };
export const testAdmin = { ...testUser, id: 'a1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin' as const };
export const testApiKey = { id: 'k1', key: 'rk_test_key', name: 'Default', created_at: '2026-01-01T00:00:00.000Z' };
/** testApiKey as GET /auth/api-keys lists it (the studio key, first, with its secret). */
export const testApiKeyListed = { ...testApiKey, prefix: testApiKey.key.slice(0, 12), last_used_at: null };
