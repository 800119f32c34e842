import type { VideoJob } from '@reelsmith/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../toaster.js';
import { errorMessage } from '../../api/api-client.js';
import { videoListQueryKey } from '../jobs/video-queries.js';
import { useJobService } from '../jobs/jobs-context.js';
import { useApi } from '../../services.js';

export const DELETE_FAILED = 'Failed to delete the video';
export const RETRY_FAILED = 'Failed to retry the video';
export const deletedMessage = (count: number) => (count === 1 ? 'Video deleted' : `${count} videos deleted`);

/**
 * Delete (DELETE /api/videos/:id, one call per video) and Retry (POST /api/videos/:id/retry). Both are
 * mutations, so offline they fail at once with "You are offline" and are never replayed later. After
 * either, the local job list forgets its finished copies and takes the server's list again: a
 * deleted row must not come back from the local store, and a retried job is active again.
 */
export function useVideoActions() {
  const api = useApi();
  const service = useJobService();
  const queryClient = useQueryClient();

  const resync = (removed: readonly string[]) => {
    queryClient.setQueriesData<VideoJob[]>({ queryKey: videoListQueryKey }, (jobs) => jobs?.filter((job) => !removed.includes(job.id)));
    service.store.getState().clearFinished();
    void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    void queryClient.invalidateQueries({ queryKey: ['storage', 'stats'] });
    void queryClient.invalidateQueries({ queryKey: ['payments', 'can-generate'] });
  };

  const remove = useMutation({
    mutationFn: async (ids: readonly string[]) => {
      const results = await Promise.allSettled(ids.map((id) => api.call('deleteVideo', { params: { id } })));
      const deleted = ids.filter((_, index) => results[index]?.status === 'fulfilled');
      const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      return { deleted, failure: failure?.reason as unknown };
    },
    onSuccess: ({ deleted, failure }) => {
      if (deleted.length > 0) {
        resync(deleted);
        toast.success(deletedMessage(deleted.length));
      }
      if (failure !== undefined) toast.error(errorMessage(failure, DELETE_FAILED));
    },
  });

  const retry = useMutation({
    mutationFn: (id: string) => api.call('retryVideo', { params: { id } }),
    onSuccess: (response) => {
      queryClient.setQueriesData<VideoJob[]>({ queryKey: videoListQueryKey }, (jobs) =>
        jobs?.map((job) => (job.id === response.jobId ? { ...job, status: response.status, error: null } : job)),
      );
      resync([]);
      void service.reopen(response.jobId);
      toast.success(response.message);
    },
    onError: (error) => toast.error(errorMessage(error, RETRY_FAILED)),
  });

  return {
    /** Resolves to the ids deleted. */
    deleteVideos: async (ids: readonly string[]) => (await remove.mutateAsync(ids)).deleted,
    deleting: remove.isPending,
    retryVideo: (id: string) => retry.mutate(id),
    retrying: retry.isPending ? retry.variables : null,
  };
}
