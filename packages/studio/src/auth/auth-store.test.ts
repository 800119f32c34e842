import { ADMIN_USER_MESSAGES, STORAGE_KEYS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../api/api-client.js';
import { MemoryStorage } from '../platform.js';
import { fakeFetch, testApiKey, testApiKeyListed, testUser, type FakeHandler } from '../testing/render-studio.js';
import { basicSubscriptionBody } from '../testing/studio-fixtures.js';
import { createAuthStore, type AuthStoreApi } from './auth-store.js';

const subscription = basicSubscriptionBody(3);

const server: FakeHandler = ({ path, headers }) => {
  const signedIn = headers.Authorization === 'Bearer token-1';
  switch (path) {
    case '/auth/login':
      return { body: { user: testUser, token: 'token-1' } };
    case '/auth/google':
      return { body: { user: testUser, token: 'token-1', api_key: testApiKey, session_id: 's1', message: 'ok' } };
    case '/auth/register':
      return { body: { user: testUser, token: 'token-reg', api_key: testApiKey } };
    case '/auth/logout':
      return { body: { success: true } };
    case '/auth/profile':
      return signedIn
        ? { body: { user: { ...testUser, name: 'Renamed' } } }
        : { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Your session has expired. Please sign in again.' } };
    case '/auth/api-keys':
      return signedIn ? { body: { api_keys: [testApiKeyListed] } } : undefined;
    case '/payments/subscription':
      return signedIn ? { body: subscription } : undefined;
    default:
      return undefined;
  }
};

function setup({
  handler = server,
  storage = new MemoryStorage(),
  readsApiKey,
  readsSubscription,
}: { handler?: FakeHandler; storage?: MemoryStorage; readsApiKey?: boolean; readsSubscription?: boolean } = {}) {
  const { fetch, requests } = fakeFetch(handler);
  let store: AuthStoreApi | null = null;
  const api = createApiClient({ baseUrl: '', getToken: () => store?.getState().token ?? null, fetch });
  const logged: string[] = [];
  store = createAuthStore({
    api,
    storage,
    log: (message) => logged.push(message),
    ...(readsApiKey === undefined ? {} : { readsApiKey }),
    ...(readsSubscription === undefined ? {} : { readsSubscription }),
  });
  return { store, storage, requests, logged };
}

describe('auth store', () => {
  it('starts signed out and not loading when no session is stored: a visitor sees the page, not the splash', () => {
    const { store, requests } = setup();
    expect(store.getState()).toMatchObject({
      user: null,
      token: null,
      apiKey: null,
      isAuthenticated: false,
      isLoading: false,
      subscription: null,
    });
    expect(requests).toHaveLength(0);
  });

  it('starts loading when a session is stored, until initialize has checked it', async () => {
    const storage = new MemoryStorage([
      [
        STORAGE_KEYS.authStore,
        JSON.stringify({ state: { user: testUser, token: 'token-1', apiKey: null, isAuthenticated: true }, version: 0 }),
      ],
    ]);
    const { store } = setup({ storage });
    expect(store.getState()).toMatchObject({ token: 'token-1', isLoading: true });
    await store.getState().initialize();
    expect(store.getState()).toMatchObject({ isLoading: false, isAuthenticated: true });
  });

  it('login stores the session, sends the bearer header and fetches API key and subscription', async () => {
    const { store, storage, requests } = setup();
    await store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    const state = store.getState();
    expect(state).toMatchObject({ user: testUser, token: 'token-1', isAuthenticated: true, isLoading: false, apiKey: testApiKey.key });
    expect(state.subscription?.subscription?.planId).toBe('basic_plan');
    expect(storage.getItem(STORAGE_KEYS.token)).toBe('token-1');
    expect(requests.find((r) => r.path === '/auth/api-keys')?.headers.Authorization).toBe('Bearer token-1');

    const persisted = JSON.parse(storage.getItem(STORAGE_KEYS.authStore) ?? '{}') as { state: Record<string, unknown> };
    expect(persisted.state).toEqual({ user: testUser, token: 'token-1', apiKey: testApiKey.key, isAuthenticated: true });
  });

  it('tolerates failing subscription and API-key fetches', async () => {
    const { store, logged } = setup({
      handler: (r) =>
        r.path === '/payments/subscription' || r.path === '/auth/api-keys'
          ? { status: 500, body: { statusCode: 500, error: 'x', message: 'boom' } }
          : server(r),
    });
    await store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    expect(store.getState()).toMatchObject({ isAuthenticated: true, subscription: null, apiKey: null, isLoadingSubscription: false });
    expect(logged).toEqual(expect.arrayContaining(['Fetching the subscription failed', 'Fetching the API key failed']));
  });

  it('google login keeps the API key from the response', async () => {
    const { store, requests } = setup();
    await store.getState().googleLogin('google-credential');
    expect(store.getState()).toMatchObject({ isAuthenticated: true, apiKey: testApiKey.key });
    expect(requests.find((r) => r.path === '/auth/google')?.body).toEqual({ credential: 'google-credential' });
    expect(requests.some((r) => r.path === '/auth/api-keys')).toBe(false);
  });

  it('register does not sign in and closes the session the server opened', async () => {
    const { store, storage, requests } = setup();
    await store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    await store.getState().register({ name: 'New', email: 'new@example.com', password: 'secret123' });
    expect(store.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false, subscription: null });
    expect(storage.getItem(STORAGE_KEYS.token)).toBeNull();
    const logout = requests.find((r) => r.path === '/auth/logout');
    expect(logout?.headers.Authorization).toBe('Bearer token-reg');
  });

  it('logout calls the server, removes the token and resets everything', async () => {
    const { store, storage, requests } = setup();
    await store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    await store.getState().logout();
    expect(store.getState()).toMatchObject({ user: null, token: null, apiKey: null, isAuthenticated: false, subscription: null });
    expect(storage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(requests.find((r) => r.path === '/auth/logout')?.headers.Authorization).toBe('Bearer token-1');
    const persisted = JSON.parse(storage.getItem(STORAGE_KEYS.authStore) ?? '{}') as { state: Record<string, unknown> };
    expect(persisted.state.token).toBeNull();
  });

  it('logout resets state even when the server is unreachable', async () => {
    const offline = setup({
      handler: () => {
        throw new Error('offline');
      },
      storage: new MemoryStorage(),
    });
    offline.store.setState({ user: testUser, token: 'token-1', isAuthenticated: true });
    await offline.store.getState().logout();
    expect(offline.store.getState().isAuthenticated).toBe(false);
  });

  it('restores a persisted session on start, revalidates the user and fetches the subscription', async () => {
    const first = setup();
    await first.store.getState().login({ email: 'asha@example.com', password: 'secret123' });

    const storage = new MemoryStorage([...first.storage.entries].filter(([key]) => key !== STORAGE_KEYS.token));
    const restarted = setup({ storage });
    expect(restarted.store.getState()).toMatchObject({ token: 'token-1', isAuthenticated: true, subscription: null, isLoading: true });
    await restarted.store.getState().initialize();
    expect(restarted.store.getState()).toMatchObject({ isLoading: false, isAuthenticated: true, user: { name: 'Renamed' } });
    expect(restarted.store.getState().subscription?.usage.videosThisMonth).toBe(3);
    expect(storage.getItem(STORAGE_KEYS.token)).toBe('token-1');
    expect(restarted.requests.find((r) => r.path === '/auth/profile')?.headers.Authorization).toBe('Bearer token-1');
  });

  it('initialize without a token finishes signed out without calling the server', async () => {
    const { store, requests } = setup();
    await store.getState().initialize();
    expect(store.getState()).toMatchObject({ isLoading: false, isAuthenticated: false });
    expect(requests).toHaveLength(0);
  });

  it('a 401 from the profile endpoint logs the user out', async () => {
    const storage = new MemoryStorage([
      [
        STORAGE_KEYS.authStore,
        JSON.stringify({ state: { user: testUser, token: 'expired', apiKey: null, isAuthenticated: true }, version: 0 }),
      ],
      [STORAGE_KEYS.token, 'expired'],
    ]);
    const { store } = setup({ storage });
    await store.getState().initialize();
    expect(store.getState()).toMatchObject({ isLoading: false, isAuthenticated: false, user: null, token: null });
    expect(storage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('a session the server ended because the account is suspended signs out and keeps the reason, in memory only, until dismissed', async () => {
    const suspended = { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: ADMIN_USER_MESSAGES.accountSuspended } };
    const storage = new MemoryStorage([
      [
        STORAGE_KEYS.authStore,
        JSON.stringify({ state: { user: testUser, token: 'token-s', apiKey: null, isAuthenticated: true }, version: 0 }),
      ],
      [STORAGE_KEYS.token, 'token-s'],
    ]);
    const { store } = setup({ storage, handler: (r) => (r.path === '/auth/profile' ? suspended : server(r)) });
    await store.getState().initialize();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, token: null, signedOutReason: 'suspended' });
    expect(storage.getItem(STORAGE_KEYS.authStore)).not.toContain('suspended');
    // The next sign-in is an ordinary one.
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.authStore) ?? '{}').state.signedOutReason).toBeUndefined();
  });

  it('an expired session signs out without a reason to explain', async () => {
    const storage = new MemoryStorage([
      [
        STORAGE_KEYS.authStore,
        JSON.stringify({ state: { user: testUser, token: 'expired', apiKey: null, isAuthenticated: true }, version: 0 }),
      ],
    ]);
    const { store } = setup({ storage });
    await store.getState().initialize();
    expect(store.getState().isAuthenticated).toBe(false);
    expect(store.getState().signedOutReason).toBeUndefined();
  });

  it('never asks for the API key on a session that may not read it (a minted embed session)', async () => {
    const storage = new MemoryStorage([
      [
        STORAGE_KEYS.authStore,
        JSON.stringify({ state: { user: null, token: 'token-1', apiKey: null, isAuthenticated: true }, version: 0 }),
      ],
    ]);
    const { store, requests } = setup({ storage, readsApiKey: false });
    await store.getState().initialize();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, apiKey: null, user: { name: 'Renamed' } });
    expect(requests.map((r) => r.path)).not.toContain('/auth/api-keys');
    await store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    expect(requests.map((r) => r.path)).not.toContain('/auth/api-keys');
  });

  it('never asks for the subscription on a session that may not read it (a minted embed session, issue 49)', async () => {
    const storage = new MemoryStorage([
      [
        STORAGE_KEYS.authStore,
        JSON.stringify({ state: { user: testUser, token: 'token-1', apiKey: null, isAuthenticated: true }, version: 0 }),
      ],
    ]);
    const { store, requests } = setup({ storage, readsApiKey: false, readsSubscription: false });
    await store.getState().initialize();
    expect(store.getState().isAuthenticated).toBe(true);
    await store.getState().fetchSubscription();
    await store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    expect(requests.map((r) => r.path)).not.toContain('/payments/subscription');
    // A creator's own session still reads it.
    const own = setup({ storage: new MemoryStorage() });
    await own.store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    expect(own.requests.map((r) => r.path)).toContain('/payments/subscription');
  });

  it('a network failure on refresh keeps the session', async () => {
    const { store, logged } = setup({
      handler: (r) => (r.path === '/auth/profile' ? { status: 503, body: { statusCode: 503, error: 'x', message: 'down' } } : server(r)),
    });
    store.setState({ user: testUser, token: 'token-1', isAuthenticated: true });
    await store.getState().refreshUser();
    expect(store.getState().isAuthenticated).toBe(true);
    expect(logged).toContain('Refreshing the user failed');
  });
});

describe('auth store start-up', () => {
  it('runs one start-up round trip however often initialize is called at once', async () => {
    const first = setup();
    await first.store.getState().login({ email: 'asha@example.com', password: 'secret123' });
    const restarted = setup({ storage: new MemoryStorage(first.storage.entries) });
    await Promise.all([restarted.store.getState().initialize(), restarted.store.getState().initialize()]);
    expect(restarted.requests.filter((r) => r.path === '/auth/profile')).toHaveLength(1);
    expect(restarted.requests.filter((r) => r.path === '/payments/subscription')).toHaveLength(1);
  });
});
