import { isActiveJobStatus, JOB_LIST_LIMIT, REFRESH_INTERVALS_MS, type VideoJob } from '@reelsmith/contracts';
import { useQuery } from '@tanstack/react-query';
import { useApi, useAuth } from '../services.js';

export const videoListQueryKey = ['videos', 'list'] as const;

/**
 * GET /api/videos?limit=100 for the signed-in user, refreshed every 10 s. A failed fetch is only
 * logged and reads as an empty list (spec section 8).
 */
export function useVideoList(): { jobs: VideoJob[]; isLoading: boolean; isError: boolean } {
  const api = useApi();
  const userId = useAuth((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  const query = useQuery({
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
  return { jobs: query.data ?? [], isLoading: query.isLoading, isError: query.isError };
}

export function countActiveJobs(jobs: readonly VideoJob[]): number {
  return jobs.filter((job) => isActiveJobStatus(job.status)).length;
}
