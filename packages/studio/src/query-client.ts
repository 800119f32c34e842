import { QUERY_CLIENT_DEFAULTS } from '@reelsmith/contracts';
import { QueryClient } from '@tanstack/react-query';

/**
 * Cache stale after 5 minutes, one retry, no refetch on window focus: the product's read policy.
 *
 * Mutations run with networkMode 'always': React Query's default ('online') pauses a mutation while
 * the browser is offline and replays it when the connection returns, which would create a video,
 * a payment order or a cancellation later without the creator's click. With 'always' the call goes
 * out now and fails now, and the screen says "You are offline".
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { ...QUERY_CLIENT_DEFAULTS },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}
