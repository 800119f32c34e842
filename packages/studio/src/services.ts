import type { QueryClient } from '@tanstack/react-query';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createAnalytics, type Analytics } from './analytics.js';
import { createApiClient, type ApiClient } from './api/api-client.js';
import { createAuthStore, type AuthStore, type AuthStoreApi } from './auth/auth-store.js';
import type { Platform } from './platform.js';
import { createQueryClient } from './query-client.js';

/** One set per mounted app: the API client reads its bearer token from this app's auth store. */
export interface StudioServices {
  api: ApiClient;
  authStore: AuthStoreApi;
  analytics: Analytics;
  queryClient: QueryClient;
}

export function createStudioServices(platform: Platform, options: { fetch?: typeof fetch } = {}): StudioServices {
  let authStore: AuthStoreApi | null = null;
  const api = createApiClient({
    baseUrl: platform.apiBaseUrl,
    getToken: () => authStore?.getState().token ?? null,
    fetch: options.fetch,
  });
  authStore = createAuthStore({ api, storage: platform.storage });
  return { api, authStore, analytics: createAnalytics(api), queryClient: createQueryClient() };
}

const ServicesContext = createContext<StudioServices | null>(null);

export function ServicesProvider({ services, children }: { services: StudioServices; children?: ReactNode }) {
  return createElement(ServicesContext.Provider, { value: services }, children);
}

export function useServices(): StudioServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
}

export function useAuth<T>(selector: (state: AuthStore) => T): T {
  return useStore(useServices().authStore, selector);
}

export const useApi = (): ApiClient => useServices().api;
export const useAnalytics = (): Analytics => useServices().analytics;
