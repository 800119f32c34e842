import { isActiveJobStatus, JOB_LIST_LIMIT, REFRESH_INTERVALS_MS, type VideoJob } from '@reelsmith/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../api/api-client.js';
import { useApi, useAuth } from '../../services.js';

export const videoListQueryKey = ['videos', 'list'] as const;

/**
 * GET /api/videos?limit=100 for the signed-in user, refreshed every 10 s. A failed fetch is only
 * logged and reads as an empty list: the page stays usable.
 */
/** The signed-in user's video list query; the app also starts it while a stored session is checked. */
export function videoListQuery(api: ApiClient, userId: string | null) {
  return queryOptions({
    queryKey: [...videoListQueryKey, userId],
    queryFn: async () => {
      try {
        return (await api.call('listVideos', { query: { limit: JOB_LIST_LIMIT } })).jobs;
      } catch (error) {
        console.warn('Fetching the video list failed', error);
        throw error;
      }
    },
    enabled: userId !== null,
    refetchInterval: REFRESH_INTERVALS_MS.jobs,
  });
}

export function useVideoList(): { jobs: VideoJob[]; isLoading: boolean; isError: boolean } {
  const api = useApi();
  const userId = useAuth((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  const query = useQuery(videoListQuery(api, userId));
  return { jobs: query.data ?? [], isLoading: query.isLoading, isError: query.isError };
}

export function countActiveJobs(jobs: readonly VideoJob[]): number {
  return jobs.filter((job) => isActiveJobStatus(job.status)).length;
}
