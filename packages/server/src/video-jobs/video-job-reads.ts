import type { VideoJobRow } from '../db/schema.js';
import { preparedQuery } from '../db/prepared-query.js';
import { RUNNING, type Db } from './video-job-states.js';

/* Read models: a user's jobs, the unfinished ones, the queue's counts and a user's storage. */

/** The job if it belongs to the user; another user's job is indistinguishable from a missing one. */
// Prepared once per database: every status poll and job page reads through here (see db/prepared-query.ts).
const userJobQueries = new WeakMap<Db, (values: { userId: string; jobId: string }) => Promise<VideoJobRow[]>>();

export async function findUserJob(db: Db, userId: string, jobId: string): Promise<VideoJobRow | undefined> {
  let query = userJobQueries.get(db);
  if (!query) {
    query = preparedQuery(db, ['userId', 'jobId'] as const, (slot) =>
      db.selectFrom('video_jobs').selectAll().where('id', '=', slot.jobId).where('user_id', '=', slot.userId),
    );
    userJobQueries.set(db, query);
  }
  const [row] = await query({ userId, jobId });
  return row;
}

export function listUserJobs(db: Db, userId: string, limit: number): Promise<VideoJobRow[]> {
  return db
    .selectFrom('video_jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Jobs not yet finished (queued or running), oldest first, with their owners. */
export function unfinishedJobs(db: Db): Promise<Array<{ id: string; user_id: string }>> {
  return db
    .selectFrom('video_jobs')
    .select(['id', 'user_id'])
    .where('status', 'in', ['queued', ...RUNNING])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** How many of a user's jobs are waiting or running. */
export async function unfinishedJobCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('video_jobs')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', ...RUNNING])
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

const toCount = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

/** Whether any creator's job is queued or running (one indexed look-up, not a count). */
export async function hasActiveJobs(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('video_jobs')
    .select('id')
    .where('status', 'in', ['queued', ...RUNNING])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Counts for GET /api/queue/status, across all users, or of one user's jobs. */
export async function jobCounts(
  db: Db,
  userId?: string,
): Promise<{ queued: number; processing: number; total: number; completed: number; failed: number; cancelled: number }> {
  let query = db.selectFrom('video_jobs');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const row = await query
    .select((eb) => [
      eb.fn.sum<string | number | null>(eb.case().when('status', 'in', RUNNING).then(1).else(0).end()).as('processing'),
      eb.fn.countAll<string | number>().as('total'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'queued').then(1).else(0).end()).as('queued'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'completed').then(1).else(0).end()).as('completed'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'failed').then(1).else(0).end()).as('failed'),
      eb.fn.sum<string | number | null>(eb.case().when('status', '=', 'cancelled').then(1).else(0).end()).as('cancelled'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: toCount(row.total),
    queued: toCount(row.queued),
    processing: toCount(row.processing),
    completed: toCount(row.completed),
    failed: toCount(row.failed),
    cancelled: toCount(row.cancelled),
  };
}

/** The user's finished videos, and the bytes they and the user's uploads take in storage. */
export async function userStorage(db: Db, userId: string): Promise<{ totalVideos: number; totalBytes: number; uploadBytes: number }> {
  const row = await db
    .selectFrom('video_jobs')
    .select((eb) => [eb.fn.countAll<string | number>().as('videos'), eb.fn.sum<string | number | null>('size_bytes').as('bytes')])
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  const uploads = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.sum<string | number | null>('size_bytes').as('bytes'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const uploadBytes = toCount(uploads.bytes);
  return { totalVideos: toCount(row.videos), totalBytes: toCount(row.bytes) + uploadBytes, uploadBytes };
}
