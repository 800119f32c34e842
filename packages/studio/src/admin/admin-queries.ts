import { REFRESH_INTERVALS_MS, type ProviderType, type VoiceProviderId } from '@reelsmith/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useJobStore } from '../jobs/jobs-context.js';
import { useApi } from '../services.js';
import { voiceProviderConfigQueryKey, voiceSampleStatsQueryKey } from '../voices/voice-queries.js';

/** Everything the dashboard reads lives under this key, so a switch reloads it all at once. */
export const adminQueryKey = ['admin'] as const;
export const adminQueryKeys = {
  providers: [...adminQueryKey, 'providers'] as const,
  providersHealth: [...adminQueryKey, 'providers-health'] as const,
  health: [...adminQueryKey, 'health'] as const,
  queue: [...adminQueryKey, 'queue'] as const,
  websocket: [...adminQueryKey, 'websocket'] as const,
};

/** Spec section 2: the dashboard's data refreshes every 30 seconds. */
const refetchInterval = REFRESH_INTERVALS_MS.admin;

/** GET /providers: each type's current provider and the ones it can switch to. */
export function useProviders() {
  const api = useApi();
  return useQuery({ queryKey: adminQueryKeys.providers, queryFn: ({ signal }) => api.call('providers', { signal }), refetchInterval });
}

/** GET /providers/health: the current providers' own health checks. */
export function useProvidersHealth() {
  const api = useApi();
  return useQuery({ queryKey: adminQueryKeys.providersHealth, queryFn: ({ signal }) => api.call('providersHealth', { signal }), refetchInterval });
}

/** GET /health: overall status (database included) for the System Health card. */
export function useSystemHealth() {
  const api = useApi();
  return useQuery({ queryKey: adminQueryKeys.health, queryFn: ({ signal }) => api.call('health', { signal }), refetchInterval });
}

/** GET /api/queue/status. */
export function useQueueStatus() {
  const api = useApi();
  return useQuery({ queryKey: adminQueryKeys.queue, queryFn: ({ signal }) => api.call('queueStatus', { signal }), refetchInterval });
}

/**
 * GET /api/websocket/stats; its failure is silent on the dashboard (spec section 8). On a fresh
 * load the page's own live connection opens after the first read, which would then leave this
 * admin out of the count until the 30 s refresh, so the count is read again once it connects.
 */
export function useWebsocketStats() {
  const api = useApi();
  const queryClient = useQueryClient();
  const liveConnected = useJobStore((state) => state.connected);
  const seenConnected = useRef(liveConnected);
  useEffect(() => {
    if (liveConnected === seenConnected.current) return;
    seenConnected.current = liveConnected;
    if (liveConnected) void queryClient.invalidateQueries({ queryKey: adminQueryKeys.websocket });
  }, [liveConnected, queryClient]);
  return useQuery({ queryKey: adminQueryKeys.websocket, queryFn: ({ signal }) => api.call('websocketStats', { signal }), refetchInterval });
}

/** POST /providers/switch, then reloads the dashboard (and the voice data a voice switch changes). */
export function useSwitchProvider() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { type: ProviderType; provider: string }) => api.call('switchProvider', { body }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueryKey }),
        queryClient.invalidateQueries({ queryKey: voiceProviderConfigQueryKey }),
        queryClient.invalidateQueries({ queryKey: voiceSampleStatsQueryKey }),
      ]);
    },
  });
}

/** POST /api/voice-providers/switch, then reloads the voice config, sample stats and provider list. */
export function useSwitchVoiceProvider() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: VoiceProviderId) => api.call('switchVoiceProvider', { body: { provider } }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueryKey }),
        queryClient.invalidateQueries({ queryKey: voiceProviderConfigQueryKey }),
        queryClient.invalidateQueries({ queryKey: voiceSampleStatsQueryKey }),
      ]);
    },
  });
}
