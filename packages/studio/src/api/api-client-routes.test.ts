import { describe, expect, it, vi } from 'vitest';

// The registry's second half is a separate chunk in the browser; here its download fails.
vi.mock('@reelsmith/contracts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@reelsmith/contracts')>()),
  loadMoreRoutes: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
}));

const { fakeFetch } = await import('../testing/render-studio.js');
const { ApiError, createApiClient, errorMessage } = await import('./api-client.js');

describe('routes the first load does not carry', () => {
  it('sends a studio route at once, and fails a call whose route could not be fetched like a request that could not go out', async () => {
    const { fetch, requests } = fakeFetch(() => ({ body: { jobs: [] } }));
    const api = createApiClient({ baseUrl: '', getToken: () => 'tok', fetch });
    await api.call('listVideos', { query: { limit: 1 } });

    const failure = await api.call('resendVerification').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 0, fromServer: false });
    expect(errorMessage(failure, 'Could not send the link')).toBe('Could not send the link');
    expect(requests.map((request) => request.path)).toEqual(['/api/videos']);
  });
});
