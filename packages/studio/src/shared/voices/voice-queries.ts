import { REFRESH_INTERVALS_MS, type VoiceLanguage, type VoiceProviderId } from '@reelsmith/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, useAuth } from '../../services.js';
import { useSettledVoiceLanguage } from './voice-language.js';

export { asVoiceLanguage } from './voice-language.js';

export const voicesQueryKey = (language: VoiceLanguage, provider: VoiceProviderId | undefined) =>
  ['voices', 'list', language, provider ?? 'server-default'] as const;
export const voiceSampleStatsQueryKey = ['voices', 'sample-stats'] as const;
export const voiceProviderConfigQueryKey = ['voices', 'provider-config'] as const;

/** Poll rate of the provider config while samples are being generated, so progress moves visibly. */
export const GENERATION_POLL_MS = 2000;

/**
 * GET /voices for a language, 300 ms after the language (or provider) last changed, not on every keystroke.
 * `settledLanguage` tells the caller which language the data answers, so it never acts on a list
 * fetched for a previous language.
 */
export function useVoices(language: string, provider: VoiceProviderId | undefined) {
  const api = useApi();
  const { settled, code } = useSettledVoiceLanguage(language, provider);
  const query = useQuery({
    queryKey: code ? voicesQueryKey(code, provider) : ['voices', 'list', 'none'],
    queryFn: ({ signal }) => api.call('voices', { query: { language: code as VoiceLanguage, ...(provider ? { provider } : {}) }, signal }),
    enabled: code !== null,
  });
  return { ...query, settled, settledLanguage: code };
}

/** GET /api/voice-samples/stats, polled every 30 s. */
export function useVoiceSampleStats(options: { enabled?: boolean } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: voiceSampleStatsQueryKey,
    queryFn: ({ signal }) => api.call('voiceSampleStats', { signal }),
    refetchInterval: REFRESH_INTERVALS_MS.voiceSampleStats,
    enabled: options.enabled ?? true,
  });
}

export function useIsAdmin(): boolean {
  return useAuth((s) => s.isAuthenticated && s.user?.role === 'admin');
}

/** GET /api/voice-providers/config (admin): polled fast while a generation runs, else every 30 s. */
export function useVoiceProviderConfig(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: voiceProviderConfigQueryKey,
    queryFn: ({ signal }) => api.call('voiceProviderConfig', { signal }),
    enabled,
    // Fast while samples are made or the natural voices' model downloads, so the admin sees it move.
    refetchInterval: (query) =>
      query.state.data?.samples_status.generating || query.state.data?.naturalVoices?.state === 'downloading'
        ? GENERATION_POLL_MS
        : REFRESH_INTERVALS_MS.admin,
  });
}

/** POST /api/voice-samples/generate (admin), then refreshes the config and stats it changes. */
export function useGenerateVoiceSamples() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call('generateVoiceSamples'),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: voiceProviderConfigQueryKey }),
        queryClient.invalidateQueries({ queryKey: voiceSampleStatsQueryKey }),
      ]);
    },
  });
}
