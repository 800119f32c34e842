import { isActiveJobStatus } from '@reelsmith/contracts';
import { useState } from 'react';
import type { TrackedJob } from '../jobs/tracked-jobs-store.js';
import { useConfirm } from '../../ui/confirm-dialog.js';
import { useVideoActions } from './use-video-actions.js';
import { videoTitle } from './video-list-model.js';

/** Rows a creator can delete: finished ones (an active job is cancelled first). */
export const isDeletable = (job: Pick<TrackedJob, 'status'>): boolean => !isActiveJobStatus(job.status);
const isClearable = (job: Pick<TrackedJob, 'status'>): boolean => job.status === 'failed' || job.status === 'cancelled';

const deleteQuestion = (count: number, what: string) => ({
  title: count === 1 ? 'Delete this video?' : `Delete ${count} videos?`,
  description: `${what} The video file${count === 1 ? ' is' : 's are'} removed from the server and cannot be recovered.`,
  confirmLabel: count === 1 ? 'Delete' : `Delete ${count} videos`,
  destructive: true,
});

/** Delete on one finished row, after a confirmation. */
export function DeleteVideoButton({ job }: { job: TrackedJob }) {
  const { deleteVideos, deleting } = useVideoActions();
  const { ask, dialog } = useConfirm();
  const title = videoTitle(job);
  const run = async () => {
    if (await ask(deleteQuestion(1, `"${title}" will be deleted.`))) await deleteVideos([job.id]).catch(() => undefined);
  };
  return (
    <>
      <button
        type="button"
        className="rs-button rs-button--ghost rs-button--danger"
        disabled={deleting}
        onClick={() => void run()}
        aria-label={`Delete ${title}`}
      >
        Delete
      </button>
      {dialog}
    </>
  );
}

/**
 * Retry on a failed row: the same job runs again from where it stopped. None for a video the server
 * will not retry (it stopped its server twice): its message says to make a new one.
 */
export function RetryVideoButton({ job, compact }: { job: TrackedJob; compact?: boolean }) {
  const { retryVideo, retrying } = useVideoActions();
  const busy = retrying === job.id;
  if (job.retryable === false) return null;
  return (
    <button
      type="button"
      className={`rs-button rs-button--ghost${compact ? ' rs-button--small' : ''}`}
      disabled={busy}
      onClick={() => retryVideo(job.id)}
      aria-label={`Retry ${videoTitle(job)}`}
    >
      {busy ? 'Retrying...' : 'Retry'}
    </button>
  );
}

/** A row's checkbox for deleting several videos at once. */
export function SelectVideoCheckbox({ job, selected, onToggle }: { job: TrackedJob; selected: boolean; onToggle: (id: string) => void }) {
  if (!isDeletable(job)) return <span className="rs-video-row__select" aria-hidden="true" />;
  return (
    <input
      type="checkbox"
      className="rs-video-row__select"
      checked={selected}
      onChange={() => onToggle(job.id)}
      aria-label={`Select ${videoTitle(job)}`}
    />
  );
}

/** The ids picked for deletion, forgetting any that are no longer listed. */
export function useVideoSelection(jobs: readonly TrackedJob[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const listed = new Set(jobs.filter(isDeletable).map((job) => job.id));
  const selected = [...picked].filter((id) => listed.has(id));
  return {
    selected,
    isSelected: (id: string) => picked.has(id) && listed.has(id),
    toggle: (id: string) =>
      setPicked((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    setAll: (ids: readonly string[]) => setPicked(new Set(ids)),
    clear: () => setPicked(new Set()),
  };
}

/**
 * What the rows to clear are, in words, the same in My Videos and Recent Videos: "failed",
 * "cancelled", or "failed and cancelled" (a cancelled video is not called failed).
 */
export function clearableKinds(jobs: readonly Pick<TrackedJob, 'status'>[]): string {
  const failed = jobs.some((job) => job.status === 'failed');
  const cancelled = jobs.some((job) => job.status === 'cancelled');
  return failed && cancelled ? 'failed and cancelled' : cancelled ? 'cancelled' : 'failed';
}

/** Deletes every failed and cancelled job in `jobs` after a confirmation; absent when there is none. */
export function ClearFailedButton({ jobs }: { jobs: readonly TrackedJob[] }) {
  const { deleteVideos, deleting } = useVideoActions();
  const { ask, dialog } = useConfirm();
  const rows = jobs.filter(isClearable);
  const clearable = rows.map((job) => job.id);
  if (clearable.length === 0) return null;
  const kinds = clearableKinds(rows);
  const clear = async () => {
    const question = {
      title: `Clear ${clearable.length} ${kinds} ${clearable.length === 1 ? 'video' : 'videos'}?`,
      description: 'Every failed and cancelled row is removed from My Videos and Recent Videos. Completed videos stay.',
      confirmLabel: 'Clear them',
      destructive: true,
    };
    if (await ask(question)) await deleteVideos(clearable).catch(() => undefined);
  };
  return (
    <>
      <button type="button" className="rs-button rs-button--ghost rs-button--small" disabled={deleting} onClick={() => void clear()}>
        Clear {kinds} ({clearable.length})
      </button>
      {dialog}
    </>
  );
}

/**
 * My Videos' bulk bar: select all shown, delete the selected ones, or clear every failed and
 * cancelled row, each after a confirmation.
 */
export function VideoBulkActions({
  shown,
  all,
  selection,
}: {
  shown: readonly TrackedJob[];
  all: readonly TrackedJob[];
  selection: ReturnType<typeof useVideoSelection>;
}) {
  const { deleteVideos, deleting } = useVideoActions();
  const { ask, dialog } = useConfirm();
  const deletableShown = shown.filter(isDeletable).map((job) => job.id);
  const count = selection.selected.length;
  const allPicked = deletableShown.length > 0 && deletableShown.every((id) => selection.isSelected(id));

  const deleteSelected = async () => {
    if (
      !(await ask(
        deleteQuestion(count, count === 1 ? 'The selected video will be deleted.' : `The ${count} selected videos will be deleted.`),
      ))
    )
      return;
    const deleted = await deleteVideos(selection.selected).catch(() => []);
    if (deleted.length > 0) selection.clear();
  };

  if (deletableShown.length === 0 && !all.some(isClearable)) return null;
  return (
    <div className="rs-videos__bulk" role="group" aria-label="Delete videos">
      <label className="rs-videos__select-all">
        <input
          type="checkbox"
          checked={allPicked}
          disabled={deletableShown.length === 0}
          onChange={() => (allPicked ? selection.clear() : selection.setAll(deletableShown))}
        />
        <span>Select all</span>
      </label>
      <button
        type="button"
        className="rs-button rs-button--ghost rs-button--danger rs-button--small"
        disabled={count === 0 || deleting}
        onClick={() => void deleteSelected()}
      >
        {count === 0 ? 'Delete selected' : `Delete selected (${count})`}
      </button>
      <ClearFailedButton jobs={all} />
      {dialog}
    </div>
  );
}
