import { QUERY_CLIENT_DEFAULTS } from '@reelsmith/contracts';
import { QueryClient } from '@tanstack/react-query';

/** Cache stale after 5 minutes, one retry, no refetch on window focus (spec section 9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { ...QUERY_CLIENT_DEFAULTS } } });
}
