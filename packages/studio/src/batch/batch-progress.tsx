import { isActiveJobStatus, type BatchDetail, type BatchRow, type JobStatus } from '@reelsmith/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../api/api-client.js';
import { useJobsConnection, useJobStore } from '../shared/jobs/jobs-context.js';
import type { TrackedJob } from '../shared/jobs/tracked-jobs-store.js';
import { resolveVideoFileUrl } from '../shared/jobs/video-file.js';
import { usePlatform } from '../platform.js';
import { useApi } from '../services.js';
import { toast } from '../toaster.js';
import { saveBlob } from '../ui/browser-download.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { StatusChip } from '../shared/videos/job-progress.js';
import { zipEntryName } from './batch-model.js';

/** How far along a status is: a row never goes back because one source is behind the other. */
const STAGE: Record<JobStatus, number> = { pending: 0, queued: 0, processing: 1, in_progress: 1, completed: 2, failed: 2, cancelled: 2 };

export interface LiveRow extends BatchRow {
  videoUrl?: string;
  filename?: string;
}

/** A row as the batch says it, moved on by the job's live events (the existing socket) when they are ahead. */
export function liveRow(row: BatchRow, job: TrackedJob | undefined): LiveRow {
  if (!job) return row;
  const ahead = STAGE[job.status] > STAGE[row.status];
  const status = ahead || STAGE[job.status] === STAGE[row.status] ? job.status : row.status;
  return {
    ...row,
    status,
    percent: status === 'completed' ? 100 : Math.max(row.percent, job.progress),
    error: row.error ?? job.error,
    ...(job.result ? { videoUrl: job.result.videoUrl, filename: job.result.filename } : {}),
  };
}

/**
 * What the batch's head says and its overall bar shows. Cancelled rows are not "finished" videos:
 * they leave the count ("2 of 2 finished · 2 ready · 2 cancelled", not "4 of 4 finished") and the
 * bar, on which a made or failed row counts whole (a cancelled or failed row stopped at 1% held the
 * bar at about 60% for good).
 */
export function batchSummary(rows: readonly Pick<LiveRow, 'status' | 'percent'>[]): {
  text: string;
  percent: number;
  ready: number;
  finished: number;
} {
  const counted = rows.filter((row) => row.status !== 'cancelled');
  const cancelled = rows.length - counted.length;
  const ready = counted.filter((row) => row.status === 'completed').length;
  const failed = counted.filter((row) => row.status === 'failed').length;
  const finished = ready + failed;
  const parts = [`${finished} of ${counted.length} finished`, `${ready} ready`];
  if (failed) parts.push(`${failed} failed`);
  if (cancelled) parts.push(`${cancelled} cancelled`);
  const done = counted.reduce((sum, row) => sum + (isActiveJobStatus(row.status) ? working(row) : 100), 0);
  return { text: parts.join(' · '), percent: counted.length === 0 ? 100 : Math.round(done / counted.length), ready, finished };
}

/** A row's own progress: nothing yet while it waits in the queue (not the "1%" its submission reports). */
function working(row: Pick<LiveRow, 'status' | 'percent'>): number {
  return row.status === 'queued' || row.status === 'pending' ? 0 : row.percent;
}

const batchQueryKey = (id: string) => ['batches', id] as const;

/** One live progress list for a queued batch, "Download all" as a zip of its finished videos, and cancel. */
export function BatchProgress({ batchId, onNew }: { batchId: string; onNew(): void }) {
  const api = useApi();
  const platform = usePlatform();
  const queryClient = useQueryClient();
  // The socket the studio already keeps: every job of the creator reports to their room.
  useJobsConnection();
  const jobs = useJobStore((state) => state.jobs);
  const [zipping, setZipping] = useState<{ done: number; total: number } | null>(null);
  const [cancelling, setCancelling] = useState(false);
  // "Cancel the rest" stops every video not made yet: asked first, as clearing videos is.
  const confirm = useConfirm();

  const query = useQuery({
    queryKey: batchQueryKey(batchId),
    queryFn: ({ signal }) => api.call('batch', { params: { id: batchId }, signal }),
    // The live events move the rows in between; this read catches up (and is all there is without a socket).
    refetchInterval: (current) => {
      const status = current.state.data?.status;
      return status === 'completed' || status === 'cancelled' ? false : 4000;
    },
  });
  const batch: BatchDetail | undefined = query.data;

  if (query.isError && !batch) {
    return (
      <section className="rs-card rs-batch__progress">
        <p className="rs-field__error" role="alert">
          {errorMessage(query.error, 'This batch could not be loaded.')}
        </p>
        <button type="button" className="rs-button rs-button--ghost" onClick={onNew}>
          Start a new batch
        </button>
      </section>
    );
  }
  if (!batch) {
    return (
      <p className="rs-batch__loading" role="status">
        Loading the batch…
      </p>
    );
  }

  const rows = batch.rows.map((row) => liveRow(row, jobs[row.jobId]));
  const completed = rows.filter((row) => row.status === 'completed');
  const running = rows.some((row) => isActiveJobStatus(row.status)) && batch.status !== 'cancelled';
  const summary = batchSummary(rows);
  const percent = summary.percent;

  const downloadAll = async () => {
    setZipping({ done: 0, total: completed.length });
    try {
      const videos = await Promise.all(
        completed.map(async (row) => {
          const url = await resolveVideoFileUrl(api, platform, { id: row.jobId, result: jobs[row.jobId]?.result ?? null });
          if (!url) throw new Error(`The video of row ${row.index + 1} is not ready.`);
          return { name: zipEntryName(row.index, rows.length, row.filename ?? `${row.jobId}.mp4`), url };
        }),
      );
      const { zipVideos } = await import('./batch-zip.js');
      const zip = await zipVideos(videos, { onProgress: (done, total) => setZipping({ done, total }) });
      const base = (batch.name ?? 'reelsmith-batch').replace(/[\\/:*?"<>|]+/g, '_').trim() || 'reelsmith-batch';
      saveBlob(zip, `${base}.zip`);
      toast.success(`${videos.length} video${videos.length === 1 ? '' : 's'} zipped`);
    } catch (failure) {
      toast.error(failure instanceof Error && failure.message ? failure.message : 'The zip could not be made. Try again.');
    } finally {
      setZipping(null);
    }
  };

  const cancel = async () => {
    const waiting = rows.filter((row) => isActiveJobStatus(row.status)).length;
    const sure = await confirm.ask({
      title: `Cancel the ${waiting} video${waiting === 1 ? '' : 's'} not made yet?`,
      description: 'The videos already made stay, and so does this batch. Cancelled videos do not count against your plan.',
      confirmLabel: 'Cancel them',
      destructive: true,
    });
    if (!sure) return;
    setCancelling(true);
    try {
      const answer = await api.call('cancelBatch', { params: { id: batchId } });
      queryClient.setQueryData(batchQueryKey(batchId), answer.batch);
      toast.success(`${answer.cancelled} video${answer.cancelled === 1 ? '' : 's'} cancelled`);
    } catch (failure) {
      toast.error(errorMessage(failure, 'The batch could not be cancelled. Try again.'));
    } finally {
      setCancelling(false);
    }
  };

  return (
    <section className="rs-card rs-batch__progress" aria-label="Batch progress">
      <div className="rs-batch__progress-head">
        <div>
          <h2 className="rs-section-title">{batch.name ?? 'Your batch'}</h2>
          <p className="rs-batch__summary" aria-live="polite">
            {summary.text}
          </p>
        </div>
        <div className="rs-batch__actions">
          <button
            type="button"
            className="rs-button rs-button--primary"
            disabled={completed.length === 0 || zipping !== null}
            onClick={() => void downloadAll()}
          >
            {zipping ? `Zipping ${zipping.done} of ${zipping.total}…` : `Download all (${completed.length})`}
          </button>
          {running ? (
            <button
              type="button"
              className="rs-button rs-button--ghost rs-button--danger"
              disabled={cancelling}
              onClick={() => void cancel()}
            >
              {cancelling ? 'Cancelling…' : 'Cancel the rest'}
            </button>
          ) : (
            <button type="button" className="rs-button rs-button--ghost" onClick={onNew}>
              New batch
            </button>
          )}
        </div>
      </div>
      <div
        className="rs-progress rs-batch__overall"
        role="progressbar"
        aria-label="Batch progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <ol className="rs-batch__rows" aria-label="Videos of the batch">
        {rows.map((row) => {
          const rowPercent = Math.round(working(row));
          const waiting = row.status === 'queued' || row.status === 'pending';
          return (
            <li key={row.jobId} className="rs-batch__row" data-status={row.status}>
              <span className="rs-batch__index">{row.index + 1}.</span>
              <div className="rs-batch__what">
                <span className="rs-batch__topic">{row.topic}</span>
                {isActiveJobStatus(row.status) ? (
                  <div
                    className="rs-progress"
                    role="progressbar"
                    aria-label={`Progress of ${row.topic}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={rowPercent}
                  >
                    <span style={{ width: `${rowPercent}%` }} />
                  </div>
                ) : null}
                {row.status === 'failed' && row.error ? <p className="rs-batch__row-error">{row.error}</p> : null}
              </div>
              <span className="rs-batch__state">
                {isActiveJobStatus(row.status) && !waiting ? <span className="rs-batch__percent">{rowPercent}%</span> : null}
                <StatusChip status={row.status} />
              </span>
            </li>
          );
        })}
      </ol>
      {confirm.dialog}
    </section>
  );
}
