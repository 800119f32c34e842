import {
  MESSAGES,
  REFRESH_INTERVALS_MS,
  type CanGenerateResponse,
  type Currency,
  type StorageStats,
  type SubscriptionResponse,
} from '@reelsmith/contracts';
import { queryOptions, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ApiClient } from '../../api/api-client.js';
import { useApi, useAuth } from '../../services.js';
import { askCanGenerate } from './can-generate-request.js';

export const billingQueryKeys = {
  canGenerate: (userId: string | null, duration: number | undefined) => ['payments', 'can-generate', userId, duration ?? null] as const,
  plans: (currency: Currency) => ['payments', 'plans', currency] as const,
  currency: ['payments', 'currency'] as const,
  storageStats: (userId: string | null) => ['storage', 'stats', userId] as const,
};

export interface SubscriptionState {
  /** GET /payments/subscription's answer (subscription and this month's usage), null when unknown. */
  data: SubscriptionResponse | null;
  isLoading: boolean;
  /** Re-reads the subscription and every can-generate answer (after a payment or a cancellation). */
  refresh(): Promise<void>;
}

/** The signed-in user's subscription, held in the auth store (it is fetched at sign-in). */
export function useSubscription(): SubscriptionState {
  const data = useAuth((s) => (s.isAuthenticated ? s.subscription : null));
  const isLoading = useAuth((s) => s.isLoadingSubscription);
  const fetchSubscription = useAuth((s) => s.fetchSubscription);
  const queryClient = useQueryClient();
  return {
    data,
    isLoading,
    async refresh() {
      await Promise.all([fetchSubscription(), queryClient.invalidateQueries({ queryKey: ['payments', 'can-generate'] })]);
    },
  };
}

export interface CanGenerateState {
  /** Null while loading, for visitors, and when the call failed (see `failed`). */
  data: CanGenerateResponse | null;
  isLoading: boolean;
  /** The call failed: the studio shows MESSAGES.canGenerateFailed. */
  failed: boolean;
  failureMessage: string;
  /** Asks the server again (spec: before every submit); resolves to the fresh answer or null. */
  check(duration?: number): Promise<CanGenerateResponse | null>;
}

/**
 * GET /payments/can-generate for the signed-in user: loaded on mount, re-asked on demand. The
 * studio locks 60/90 s when `data.isFreeVideo` or `!data.canGenerate` with no subscription.
 */
export function useCanGenerate(duration?: number): CanGenerateState {
  const api = useApi();
  const queryClient = useQueryClient();
  const userId = useAuth((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  const query = useQuery({
    queryKey: billingQueryKeys.canGenerate(userId, duration),
    queryFn: () => askCanGenerate(api, duration),
    enabled: userId !== null,
    staleTime: 0,
  });
  return {
    data: query.data ?? null,
    isLoading: query.isLoading,
    failed: query.isError,
    failureMessage: MESSAGES.canGenerateFailed,
    async check(checkDuration = duration) {
      if (userId === null) return null;
      try {
        return await queryClient.fetchQuery({
          queryKey: billingQueryKeys.canGenerate(userId, checkDuration),
          queryFn: () => askCanGenerate(api, checkDuration),
          staleTime: 0,
          // Part of a submit: offline it must fail now, not pause and resume the submit when online.
          networkMode: 'always',
          retry: 0,
        });
      } catch {
        return null;
      }
    },
  };
}

/** GET /api/storage/stats, tolerated when absent or failing (the plan area then omits its line). */
/** The signed-in user's storage stats query; the app also starts it while a stored session is checked. */
export function storageStatsQuery(api: ApiClient, userId: string | null) {
  return queryOptions({
    queryKey: billingQueryKeys.storageStats(userId),
    queryFn: () => api.call('storageStats'),
    enabled: userId !== null,
    retry: 0,
    refetchInterval: REFRESH_INTERVALS_MS.storage,
  });
}

export function useStorageStats(): UseQueryResult<StorageStats> {
  const api = useApi();
  const userId = useAuth((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  return useQuery(storageStatsQuery(api, userId));
}

/** True at widths of 900 px and more, where Manage/Upgrade opens the pricing dialog instead of the page. */
export function useIsDesktop(minWidth = 900): boolean {
  const query = `(min-width: ${minWidth}px)`;
  const read = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [matches, setMatches] = useState(read);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener?.('change', update);
    return () => list.removeEventListener?.('change', update);
  }, [query]);
  return matches;
}
