import type { QueryClient } from '@tanstack/react-query';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createAnalytics, type Analytics } from './analytics.js';
import { createApiClient, type ApiClient } from './api/api-client.js';
import { createAuthStore, type AuthStore, type AuthStoreApi } from './auth/auth-store.js';
import type { Platform } from './platform.js';

/**
 * One set per mounted app: the API client reads its bearer token from this app's auth store.
 * The extension popup runs on these alone; its JavaScript budget has no room for the query cache.
 */
export interface CoreServices {
  api: ApiClient;
  authStore: AuthStoreApi;
  analytics: Analytics;
}

/** The studio's services: the core and the query cache (created in studio-services.ts). */
export interface StudioServices extends CoreServices {
  queryClient: QueryClient;
}

export interface CoreServiceOptions {
  fetch?: typeof fetch;
  /** False when the app runs on a session that may not read API keys (a minted embed session). */
  readsApiKey?: boolean;
  /** False when the session may not read the subscription either (a minted embed session). */
  readsSubscription?: boolean;
}

export function createCoreServices(platform: Platform, options: CoreServiceOptions = {}): CoreServices {
  let authStore: AuthStoreApi | null = null;
  const api = createApiClient({
    baseUrl: platform.apiBaseUrl,
    getToken: () => authStore?.getState().token ?? null,
    fetch: options.fetch,
  });
  authStore = createAuthStore({
    api,
    storage: platform.storage,
    readsApiKey: options.readsApiKey ?? true,
    readsSubscription: options.readsSubscription ?? true,
  });
  return { api, authStore, analytics: createAnalytics(api) };
}

// The query cache is not here: those who need it read it from React Query's own provider.
const ServicesContext = createContext<CoreServices | null>(null);

export function ServicesProvider({ services, children }: { services: CoreServices; children?: ReactNode }) {
  return createElement(ServicesContext.Provider, { value: services }, children);
}

export function useServices(): CoreServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
}

export function useAuth<T>(selector: (state: AuthStore) => T): T {
  return useStore(useServices().authStore, selector);
}

export const useApi = (): ApiClient => useServices().api;
export const useAnalytics = (): Analytics => useServices().analytics;
