import { REFRESH_INTERVALS_MS, type ApiResponse, type ProviderType, type VoiceProviderId } from '@reelsmith/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useJobStore } from '../shared/jobs/jobs-context.js';
import { useApi } from '../services.js';
import { voiceProviderConfigQueryKey, voiceSampleStatsQueryKey } from '../shared/voices/voice-queries.js';

/** Everything the dashboard reads lives under this key, so a switch reloads it all at once. */
export const adminQueryKey = ['admin'] as const;
export const adminQueryKeys = {
  providers: [...adminQueryKey, 'providers'] as const,
  providersHealth: [...adminQueryKey, 'providers-health'] as const,
  health: [...adminQueryKey, 'health'] as const,
  queue: [...adminQueryKey, 'queue'] as const,
  websocket: [...adminQueryKey, 'websocket'] as const,
};

/** The dashboard's data refreshes every 30 seconds. */
const refetchInterval = REFRESH_INTERVALS_MS.admin;

/** The dashboard's reads: every one takes no input and refreshes on the admin interval. */
type AdminRead = 'providers' | 'providersHealth' | 'health' | 'queueStatus' | 'websocketStats';

function useAdminRead<N extends AdminRead>(name: N, queryKey: readonly unknown[]) {
  const api = useApi();
  return useQuery({ queryKey, queryFn: ({ signal }) => api.call<AdminRead>(name, { signal }) as Promise<ApiResponse<N>>, refetchInterval });
}

/** GET /providers: each type's current provider and the ones it can switch to. */
export const useProviders = () => useAdminRead('providers', adminQueryKeys.providers);
/** GET /providers/health: the current providers' own health checks. */
export const useProvidersHealth = () => useAdminRead('providersHealth', adminQueryKeys.providersHealth);
/** GET /health: overall status (database included) for the System Health card. */
export const useSystemHealth = () => useAdminRead('health', adminQueryKeys.health);
/** GET /api/queue/status. */
export const useQueueStatus = () => useAdminRead('queueStatus', adminQueryKeys.queue);

/**
 * GET /api/websocket/stats; its failure is silent on the dashboard (an extra figure). On a fresh
 * load the page's own live connection opens after the first read, which would then leave this
 * admin out of the count until the 30 s refresh, so the count is read again once it connects.
 */
export function useWebsocketStats() {
  const queryClient = useQueryClient();
  const liveConnected = useJobStore((state) => state.connected);
  const seenConnected = useRef(liveConnected);
  useEffect(() => {
    if (liveConnected === seenConnected.current) return;
    seenConnected.current = liveConnected;
    if (liveConnected) void queryClient.invalidateQueries({ queryKey: adminQueryKeys.websocket });
  }, [liveConnected, queryClient]);
  return useAdminRead('websocketStats', adminQueryKeys.websocket);
}

/** GET /providers/health?type=&provider=: one provider's health, checked now (a switch's target). */
export function useProviderCheck(type: ProviderType) {
  const api = useApi();
  return useCallback(
    async (provider: string) => {
      const { health } = await api.call('providersHealth', { query: { type, provider } });
      const entry = health[0];
      if (!entry) throw new Error('No health report');
      return entry;
    },
    [api, type],
  );
}

/** After any provider switch: the dashboard, and the voice data a voice switch changes. */
function reloadProviderData(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminQueryKey }),
    queryClient.invalidateQueries({ queryKey: voiceProviderConfigQueryKey }),
    queryClient.invalidateQueries({ queryKey: voiceSampleStatsQueryKey }),
  ]);
}

/** POST /providers/switch, then reloads the dashboard (and the voice data a voice switch changes). */
export function useSwitchProvider() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { type: ProviderType; provider: string }) => api.call('switchProvider', { body }),
    onSettled: () => reloadProviderData(queryClient),
  });
}

/** POST /api/voice-providers/switch, then reloads the voice config, sample stats and provider list. */
export function useSwitchVoiceProvider() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: VoiceProviderId) => api.call('switchVoiceProvider', { body: { provider } }),
    onSettled: () => reloadProviderData(queryClient),
  });
}
