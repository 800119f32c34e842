import {
  isActiveJobStatus,
  type BatchCounts,
  type BatchDetail,
  type BatchRow,
  type BatchStatus,
  type BatchSummary,
  type BatchWebhookEvent,
  type JobStatus,
} from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import type { Database, VideoBatchRow, VideoJobRow } from '../db/schema.js';
import { parseParams, parseResult } from './video-job-view.js';

/*
 * Batches are read from their jobs: a row's status, percent and error are its job's, so a batch can
 * never disagree with My Videos. The batch row itself only records its name and the two moments the
 * jobs cannot tell: when its last row finished (set once, so batch.completed goes out once) and when
 * it was cancelled. Jobs are inserted with their batch by video-job-repository.ts (createBatchWithinQuota).
 */

type Db = Kysely<Database>;
type BatchJob = Pick<VideoJobRow, 'id' | 'status' | 'progress' | 'error' | 'params' | 'batch_index' | 'completed_at'>;

const emptyCounts = (): BatchCounts => ({ total: 0, queued: 0, processing: 0, completed: 0, failed: 0, cancelled: 0 });

/** The creator-facing counts: 'pending' and 'in_progress' (never written here, but in the contract) count as queued and processing. */
function countInto(counts: BatchCounts, status: JobStatus): void {
  counts.total++;
  if (status === 'queued' || status === 'pending') counts.queued++;
  else if (status === 'processing' || status === 'in_progress') counts.processing++;
  else counts[status]++;
}

export function batchRowOf(job: BatchJob): BatchRow {
  return {
    index: Number(job.batch_index ?? 0),
    jobId: job.id,
    topic: parseParams(job.params).topic,
    status: job.status,
    percent: job.status === 'completed' ? 100 : Math.max(0, Math.min(100, Number(job.progress))),
    error: job.status === 'failed' ? job.error : null,
  };
}

/** Every row finished (completed, failed or cancelled): the batch is done. */
export const allFinished = (counts: BatchCounts): boolean => counts.total > 0 && counts.queued + counts.processing === 0;

function statusOf(batch: Pick<VideoBatchRow, 'completed_at' | 'cancelled_at'>, counts: BatchCounts): BatchStatus {
  if (batch.cancelled_at) return 'cancelled';
  if (batch.completed_at || allFinished(counts)) return 'completed';
  return counts.queued === counts.total ? 'queued' : 'processing';
}

/**
 * `lastFinishedAt`: when its latest row finished. Until the event listener records completed_at (an
 * instant after the last row's event) a finished batch already reads as completed, at that time.
 */
function summaryOf(batch: VideoBatchRow, counts: BatchCounts, percentSum: number, lastFinishedAt: string | null): BatchSummary {
  return {
    id: batch.id,
    name: batch.name,
    status: statusOf(batch, counts),
    counts,
    percent: counts.total === 0 ? 0 : Math.round((percentSum / counts.total) * 10) / 10,
    createdAt: batch.created_at,
    completedAt: batch.completed_at ?? batch.cancelled_at ?? (allFinished(counts) ? lastFinishedAt : null),
  };
}

export function batchDetailOf(batch: VideoBatchRow, jobs: readonly BatchJob[]): BatchDetail {
  const rows = jobs.map(batchRowOf).sort((a, b) => a.index - b.index);
  const counts = emptyCounts();
  for (const row of rows) countInto(counts, row.status);
  const lastFinishedAt = jobs.reduce<string | null>(
    (latest, job) => (job.completed_at && (!latest || job.completed_at > latest) ? job.completed_at : latest),
    null,
  );
  return {
    ...summaryOf(
      batch,
      counts,
      rows.reduce((sum, row) => sum + row.percent, 0),
      lastFinishedAt,
    ),
    rows,
  };
}

const batchJobColumns = ['id', 'status', 'progress', 'error', 'params', 'batch_index', 'completed_at'] as const;

/** The user's batch with its rows; another user's batch is indistinguishable from a missing one. */
export async function findUserBatch(db: Db, userId: string, batchId: string): Promise<BatchDetail | undefined> {
  const batch = await db.selectFrom('video_batches').selectAll().where('id', '=', batchId).where('user_id', '=', userId).executeTakeFirst();
  if (!batch) return undefined;
  return batchDetailOf(batch, await batchJobs(db, batch.id));
}

function batchJobs(db: Db, batchId: string): Promise<BatchJob[]> {
  return db.selectFrom('video_jobs').select(batchJobColumns).where('batch_id', '=', batchId).orderBy('batch_index', 'asc').execute();
}

/** The user's latest batches, newest first, with their figures (one grouped query for all of them). */
export async function listUserBatches(db: Db, userId: string, limit: number): Promise<BatchSummary[]> {
  const batches = await db
    .selectFrom('video_batches')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  if (batches.length === 0) return [];
  const figures = await db
    .selectFrom('video_jobs')
    .select((eb) => [
      'batch_id',
      'status',
      eb.fn.countAll<number | string | bigint>().as('count'),
      eb.fn.sum<number | string | null>('progress').as('progress'),
      eb.fn.max('completed_at').as('last_finished_at'),
    ])
    .where(
      'batch_id',
      'in',
      batches.map((batch) => batch.id),
    )
    .groupBy(['batch_id', 'status'])
    .execute();
  return batches.map((batch) => {
    const counts = emptyCounts();
    let percentSum = 0;
    let lastFinishedAt: string | null = null;
    for (const figure of figures.filter((row) => row.batch_id === batch.id)) {
      const count = Number(figure.count);
      for (let i = 0; i < count; i++) countInto(counts, figure.status);
      percentSum += figure.status === 'completed' ? 100 * count : Number(figure.progress ?? 0);
      if (figure.last_finished_at && (!lastFinishedAt || figure.last_finished_at > lastFinishedAt))
        lastFinishedAt = figure.last_finished_at;
    }
    return summaryOf(batch, counts, percentSum, lastFinishedAt);
  });
}

/** The batch a job belongs to, with its owner; null for a single video (or a deleted job). */
export async function batchOfJob(db: Db, jobId: string): Promise<{ batchId: string; userId: string } | null> {
  const row = await db.selectFrom('video_jobs').select(['batch_id', 'user_id']).where('id', '=', jobId).executeTakeFirst();
  return row?.batch_id ? { batchId: row.batch_id, userId: row.user_id } : null;
}

/** The batch and its rows, whoever owns it (the event listener already knows the owner from the job). */
export async function readBatch(db: Db, batchId: string): Promise<{ batch: VideoBatchRow; detail: BatchDetail } | undefined> {
  const batch = await db.selectFrom('video_batches').selectAll().where('id', '=', batchId).executeTakeFirst();
  if (!batch) return undefined;
  return { batch, detail: batchDetailOf(batch, await batchJobs(db, batch.id)) };
}

/**
 * Records that the batch's last row finished; true only for the one call that set it (of every API
 * process hearing the same event), which then announces batch.completed.
 */
export async function markBatchCompleted(db: Db, batchId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('video_batches')
    .set({ completed_at: now.toISOString() })
    .where('id', '=', batchId)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks the user's unfinished batch cancelled; the ids of its jobs still active, for the caller to stop. Undefined: no such batch. */
export async function cancelUserBatch(
  db: Db,
  userId: string,
  batchId: string,
  now = new Date(),
): Promise<{ cancelled: true; activeJobIds: string[] } | { cancelled: false } | undefined> {
  const batch = await db.selectFrom('video_batches').selectAll().where('id', '=', batchId).where('user_id', '=', userId).executeTakeFirst();
  if (!batch) return undefined;
  const marked = await db
    .updateTable('video_batches')
    .set({ cancelled_at: now.toISOString() })
    .where('id', '=', batchId)
    .where('completed_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) === 0) return { cancelled: false };
  const jobs = await db
    .selectFrom('video_jobs')
    .select(['id', 'status'])
    .where('batch_id', '=', batchId)
    .orderBy('batch_index', 'desc')
    .execute();
  // Queued rows first (last row first), so none of them starts while the running ones are being stopped.
  const active = jobs.filter((job) => isActiveJobStatus(job.status));
  active.sort((a, b) => Number(a.status !== 'queued') - Number(b.status !== 'queued'));
  return { cancelled: true, activeJobIds: active.map((job) => job.id) };
}

/** Each row's outcome for the batch.completed webhook: its video, or why it failed. */
export async function batchWebhookRows(db: Db, batchId: string): Promise<BatchWebhookEvent['data']['rows']> {
  const jobs = await db
    .selectFrom('video_jobs')
    .select(['id', 'status', 'error', 'result', 'batch_index'])
    .where('batch_id', '=', batchId)
    .orderBy('batch_index', 'asc')
    .execute();
  return jobs.map((job) => {
    const result = job.status === 'completed' ? parseResult(job.result) : null;
    return {
      index: Number(job.batch_index ?? 0),
      jobId: job.id,
      status: job.status,
      ...(result
        ? {
            videoUrl: result.videoUrl,
            ...(result.posterUrl ? { posterUrl: result.posterUrl } : {}),
            ...(result.title ? { title: result.title } : {}),
            ...(result.source ? { source: result.source } : {}),
            ...(result.attributions?.length ? { attributions: result.attributions } : {}),
          }
        : {}),
      ...(job.status === 'failed' && job.error ? { error: job.error } : {}),
    };
  });
}
