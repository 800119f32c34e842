import { describe, expect, it } from 'vitest';
import { fakeFetch, testApiKeyListed } from '../testing/render-studio.js';
import { ApiError, createApiClient, errorMessage } from './api-client.js';

describe('api client', () => {
  it('builds path and query from the contract and sends the bearer token', async () => {
    const { fetch, requests } = fakeFetch(({ path }) =>
      path === '/api/videos' ? { body: { jobs: [] } } : { body: { api_keys: [testApiKeyListed] } },
    );
    let token: string | null = 'tok';
    const api = createApiClient({ baseUrl: 'http://api.test', getToken: () => token, fetch });
    await api.call('listVideos', { query: { limit: 100 } });
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/videos', headers: { Authorization: 'Bearer tok' } });
    expect(requests[0]?.query.get('limit')).toBe('100');

    token = null;
    await api.call('apiKeys');
    expect(requests[1]?.headers.Authorization).toBeUndefined();
  });

  it('fills path parameters and JSON bodies', async () => {
    const { fetch, requests } = fakeFetch(({ path }) =>
      path.startsWith('/api/videos/')
        ? { body: { success: true, status: 'cancelled', message: 'Job cancelled' } }
        : { body: { user: { id: '1', name: 'A', email: 'a@b.co', role: 'user' }, token: 't' } },
    );
    const api = createApiClient({ baseUrl: '', getToken: () => null, fetch });
    const deleted = await api.call('deleteVideo', { params: { id: 'job 1' } });
    expect(deleted.status).toBe('cancelled');
    expect(requests[0]).toMatchObject({ method: 'DELETE', path: '/api/videos/job%201' });
    await api.call('login', { body: { email: 'a@b.co', password: 'pw' } });
    expect(requests[1]).toMatchObject({
      method: 'POST',
      body: { email: 'a@b.co', password: 'pw' },
      headers: { 'Content-Type': 'application/json' },
    });
  });

  it('lets one call override the token', async () => {
    const { fetch, requests } = fakeFetch(() => ({ body: { success: true } }));
    const api = createApiClient({ baseUrl: '', getToken: () => 'stored', fetch });
    await api.call('logout', { token: 'other' });
    expect(requests[0]?.headers.Authorization).toBe('Bearer other');
  });

  it('throws the server error with status and field', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'Invalid email address', field: 'email' },
    }));
    const api = createApiClient({ baseUrl: '', getToken: () => null, fetch });
    const error = await api.call('login', { body: { email: 'x', password: 'y' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Invalid email address', status: 400, field: 'email', fromServer: true });
    expect(errorMessage(error, 'Login failed')).toBe('Invalid email address');
  });

  it('uses the fallback for non-contract errors, network failures and malformed responses', async () => {
    const broken = createApiClient({ baseUrl: '', getToken: () => null, fetch: fakeFetch(() => ({ status: 502, body: 'gateway' })).fetch });
    const e1 = await broken.call('authConfig').catch((e: unknown) => e);
    expect(e1).toMatchObject({ status: 502, fromServer: false });
    expect(errorMessage(e1, 'Login failed')).toBe('Login failed');

    const offline = createApiClient({
      baseUrl: '',
      getToken: () => null,
      fetch: (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
    });
    const e2 = await offline.call('authConfig').catch((e: unknown) => e);
    expect(e2).toMatchObject({ status: 0, fromServer: false });

    const wrongShape = createApiClient({
      baseUrl: '',
      getToken: () => null,
      fetch: fakeFetch(() => ({ body: { unexpected: true } })).fetch,
    });
    await expect(wrongShape.call('authConfig')).rejects.toMatchObject({ status: 200, fromServer: false });
  });
});
