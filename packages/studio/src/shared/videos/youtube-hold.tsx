import { PUBLISHING_MESSAGES, type Publication } from '@reelsmith/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/api-client.js';
import { useApi } from '../../services.js';
import { toast } from '../../toaster.js';
import { useConfirm } from '../../ui/confirm-dialog.js';

/** In the creator's own time zone. */
export const localTime = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A scheduled YouTube video is uploaded at once, private, with its time: YouTube makes it public then.
 * Until that time it is held there, and the creator can still keep it private or delete it.
 */
export function isHeldOnYouTube(publication: Publication, now = Date.now()): boolean {
  return (
    publication.platform === 'youtube' &&
    publication.status === 'published' &&
    publication.publishAt !== null &&
    Date.parse(publication.publishAt) > now
  );
}

/** "Uploaded, private until 3:15 PM: YouTube makes it public then." */
export const heldLine = (publication: Publication): string => PUBLISHING_MESSAGES.youtubeHolding(localTime(publication.publishAt!));

/** Keep private (its time cleared on YouTube) or delete it from YouTube, until its time. */
export function HeldOnYouTubeActions({ publication }: { publication: Publication }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirm();
  const cancel = useMutation({
    mutationFn: (mode: 'keep' | 'delete') => api.call('cancelPublication', { params: { id: publication.id }, query: { youtube: mode } }),
    onSuccess: async (_answer, mode) => {
      toast.success(mode === 'delete' ? 'Deleted from YouTube' : 'Kept private on YouTube: it will not go public');
      await queryClient.invalidateQueries({ queryKey: ['publications'] });
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not change it on YouTube')),
  });
  const askDelete = async () => {
    const yes = await ask({
      title: 'Delete the video from YouTube?',
      description: 'It is deleted from your channel now and will not go public. To keep it there, private, choose Keep private instead.',
      confirmLabel: 'Delete from YouTube',
      destructive: true,
    });
    if (yes) cancel.mutate('delete');
  };
  return (
    <>
      <button
        type="button"
        className="rs-button rs-button--ghost rs-button--small"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate('keep')}
      >
        Keep private
      </button>
      <button
        type="button"
        className="rs-button rs-button--ghost rs-button--small rs-button--danger"
        disabled={cancel.isPending}
        onClick={() => void askDelete()}
      >
        Delete from YouTube
      </button>
      {dialog}
    </>
  );
}
