import { MESSAGES, STORAGE_KEYS, type LoginBody, type RegisterBody, type SubscriptionResponse, type User } from '@reelsmith/contracts';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type Mutate, type StoreApi } from 'zustand/vanilla';
import { ApiError, type ApiClient } from '../api/api-client.js';
import type { KeyValueStorage } from '../platform.js';

/** Client authentication state: the user, the token and whether the session is still being read. */
export interface AuthState {
  user: User | null;
  token: string | null;
  apiKey: string | null;
  isAuthenticated: boolean;
  /** True until `initialize` has run: the shell shows the loading splash meanwhile. */
  isLoading: boolean;
  /** GET /payments/subscription's response (subscription and this month's usage), or null. */
  subscription: SubscriptionResponse | null;
  isLoadingSubscription: boolean;
  /**
   * Why the server ended the session, when it was not the creator's doing ('suspended': an admin
   * suspended the account). Kept in memory only, so the explanation shows once; the notice clears it.
   */
  signedOutReason?: 'suspended' | null;
}

export interface AuthActions {
  login(credentials: LoginBody): Promise<User>;
  /** Creates the account without signing in: the new user signs in on the Sign In tab. */
  register(form: RegisterBody): Promise<User>;
  googleLogin(credential: string): Promise<User>;
  logout(): Promise<void>;
  /** App start: restores the session from storage and revalidates it. */
  initialize(): Promise<void>;
  refreshUser(): Promise<void>;
  fetchApiKey(): Promise<void>;
  fetchSubscription(): Promise<void>;
}

export type AuthStore = AuthState & AuthActions;

type PersistedAuth = Pick<AuthState, 'user' | 'token' | 'apiKey' | 'isAuthenticated'>;

/** The store with zustand's persist API (rehydrate, hasHydrated, …). */
export type AuthStoreApi = Mutate<StoreApi<AuthStore>, [['zustand/persist', unknown]]>;

const signedOut: PersistedAuth & Pick<AuthState, 'subscription' | 'isLoadingSubscription'> = {
  user: null,
  token: null,
  apiKey: null,
  isAuthenticated: false,
  subscription: null,
  isLoadingSubscription: false,
};

export interface AuthStoreDeps {
  api: ApiClient;
  storage: KeyValueStorage;
  /** Where failures that the UI tolerates are reported: logged only, never shown. */
  log?: (message: string, error: unknown) => void;
  /**
   * False for a session that may not read API keys (one minted for the embedded studio): the server
   * refuses it with a 403, so the store never asks and `apiKey` stays null.
   */
  readsApiKey?: boolean;
  /**
   * False for a session that may not read the account's subscription (a minted embed session: the
   * server answers 403, two errors in the partner page's console): the store never asks.
   */
  readsSubscription?: boolean;
}

/** Whether the persisted auth state holds a token (the same check as index.html's boot script). */
function hasStoredSession(storage: KeyValueStorage): boolean {
  try {
    const persisted = JSON.parse(storage.getItem(STORAGE_KEYS.authStore) ?? 'null') as { state?: { token?: unknown } } | null;
    return typeof persisted?.state?.token === 'string' && persisted.state.token !== '';
  } catch {
    return false;
  }
}

export function createAuthStore({
  api,
  storage,
  log = (message, error) => console.warn(message, error),
  readsApiKey = true,
  readsSubscription = true,
}: AuthStoreDeps): AuthStoreApi {
  return createStore<AuthStore>()(
    persist(
      (set, get) => {
        /** Saves a fresh session, then fetches what hangs off it; those fetches may fail quietly. */
        const signIn = async (user: User, token: string, apiKey: string | null): Promise<User> => {
          storage.setItem(STORAGE_KEYS.token, token);
          set({ user, token, apiKey, isAuthenticated: true, isLoading: false });
          await Promise.all([apiKey || !readsApiKey ? Promise.resolve() : get().fetchApiKey(), get().fetchSubscription()]);
          return user;
        };

        // StrictMode and several views may ask at once; one start-up round trip serves them all.
        let initializing: Promise<void> | null = null;

        const clearSession = () => {
          storage.removeItem(STORAGE_KEYS.token);
          set({ ...signedOut, isLoading: false });
        };

        const startUp = async (): Promise<void> => {
          const { token, user } = get();
          if (!token) {
            clearSession();
            return;
          }
          // The bearer header comes from this store, so restoring the token restores the header.
          storage.setItem(STORAGE_KEYS.token, token);
          // The subscription is asked for alongside the profile, not after it: the studio's first
          // screen shows it, and a round trip less is what a phone notices. A stale token fails
          // both, and the 401 on the profile signs out.
          const subscription = user && !get().subscription ? get().fetchSubscription() : null;
          await get().refreshUser();
          set({ isLoading: false });
          if (!get().isAuthenticated) return;
          const pending: Promise<void>[] = subscription ? [subscription] : [];
          if (!get().apiKey && readsApiKey) pending.push(get().fetchApiKey());
          await Promise.all(pending);
        };

        return {
          ...signedOut,
          // Without a stored session there is nothing to initialise, so a visitor's first render is
          // the page itself, not the splash, which shows it sooner. Part of the initial state, not set after
          // hydration, because server rendering reads the initial state (getInitialState).
          isLoading: hasStoredSession(storage),

          async login(credentials) {
            const { user, token } = await api.call('login', { body: credentials });
            return signIn(user, token, null);
          },

          async register(form) {
            const { user, token } = await api.call('register', { body: { name: form.name, email: form.email, password: form.password } });
            clearSession();
            // The server opened a session for the new account; close it since registration does not sign in.
            await api.call('logout', { token }).catch((error: unknown) => log('Closing the registration session failed', error));
            return user;
          },

          async googleLogin(credential) {
            const response = await api.call('google', { body: { credential } });
            return signIn(response.user, response.token, response.api_key.key);
          },

          async logout() {
            const { token } = get();
            clearSession();
            if (token) {
              await api.call('logout', { token }).catch((error: unknown) => log('Logout request failed', error));
            }
          },

          initialize() {
            initializing ??= startUp().finally(() => {
              initializing = null;
            });
            return initializing;
          },
          async refreshUser() {
            if (!get().token) return;
            try {
              const { user } = await api.call('profile');
              set({ user, isAuthenticated: true });
            } catch (error) {
              if (error instanceof ApiError && error.status === 401) {
                await get().logout();
                if (error.message === MESSAGES.accountSuspended) set({ signedOutReason: 'suspended' });
                return;
              }
              log('Refreshing the user failed', error);
            }
          },

          async fetchApiKey() {
            try {
              const { api_keys } = await api.call('apiKeys');
              set({ apiKey: api_keys[0]?.key ?? null });
            } catch (error) {
              log('Fetching the API key failed', error);
              set({ apiKey: null });
            }
          },

          async fetchSubscription() {
            if (!readsSubscription) return;
            set({ isLoadingSubscription: true });
            try {
              const subscription = await api.call('subscription');
              set({ subscription, isLoadingSubscription: false });
            } catch (error) {
              log('Fetching the subscription failed', error);
              set({ subscription: null, isLoadingSubscription: false });
            }
          },
        };
      },
      {
        name: STORAGE_KEYS.authStore,
        storage: createJSONStorage(() => storage),
        partialize: (state): PersistedAuth => ({
          user: state.user,
          token: state.token,
          apiKey: state.apiKey,
          isAuthenticated: state.isAuthenticated,
        }),
      },
    ),
  );
}
