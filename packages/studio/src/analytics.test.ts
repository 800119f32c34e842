import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAnalytics } from './analytics.js';
import { createApiClient } from './api/api-client.js';
import { fakeFetch } from './testing/render-studio.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('analytics', () => {
  it('batches events into one request after the delay', async () => {
    const { fetch, requests } = fakeFetch(() => ({ body: { accepted: 3 } }));
    const analytics = createAnalytics(createApiClient({ baseUrl: '', getToken: () => null, fetch }), { batchDelayMs: 1000 });
    analytics.pageView('/', 'Video Studio');
    analytics.click('sidebar_sign_in', '/');
    analytics.track({ type: 'login', method: 'email' });
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/analytics/events' });
    expect(requests[0]?.body).toEqual({
      events: [
        { type: 'page_view', path: '/', title: 'Video Studio' },
        { type: 'click', name: 'sidebar_sign_in', path: '/' },
        { type: 'login', method: 'email' },
      ],
    });
  });

  it('splits at the contract maximum of 50 per request', async () => {
    const { fetch, requests } = fakeFetch(() => ({ body: { accepted: 50 } }));
    const analytics = createAnalytics(createApiClient({ baseUrl: '', getToken: () => null, fetch }));
    for (let i = 0; i < 120; i += 1) analytics.click(`c${i}`);
    await analytics.flush();
    expect(requests.map((r) => (r.body as { events: unknown[] }).events.length)).toEqual([50, 50, 20]);
  });

  it('swallows failures', async () => {
    const { fetch } = fakeFetch(() => ({ status: 500, body: { statusCode: 500, error: 'x', message: 'down' } }));
    const analytics = createAnalytics(createApiClient({ baseUrl: '', getToken: () => null, fetch }));
    analytics.pageView('/pricing');
    await expect(analytics.flush()).resolves.toBeUndefined();
  });
});
