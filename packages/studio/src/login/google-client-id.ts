import { useQuery } from '@tanstack/react-query';
import { usePlatform } from '../platform.js';
import { useApi } from '../services.js';

// Apart from use-google-identity.tsx: the shell asks whether Google sign-in is configured on every
// visit, while the sign-in code itself loads only when it is.

/** The Google client id from GET /auth/config; null when Google sign-in is not configured. */
export function useGoogleClientId(): string | null {
  const platform = usePlatform();
  const api = useApi();
  const { data } = useQuery({
    queryKey: ['authConfig'],
    queryFn: () => api.call('authConfig'),
    enabled: platform.googleSignIn,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return platform.googleSignIn ? (data?.googleClientId ?? null) : null;
}
