import { sql, type Expression, type Kysely, type Transaction } from 'kysely';
import type { Database, SubscriptionRow } from '../db/schema.js';
import type { SubscriptionStatus } from '@reelsmith/contracts';

/** 'expired' is not stored: a row whose end date has passed reads as expired, whatever its stored status. */
export function effectiveStatus(row: Pick<SubscriptionRow, 'status' | 'end_date'>, now: Date): SubscriptionStatus {
  if (Date.parse(row.end_date) <= now.getTime()) return 'expired';
  return row.status;
}

/** Active, or cancelled with access until the end date. */
export function grantsAccess(row: Pick<SubscriptionRow, 'status' | 'end_date'>, now: Date): boolean {
  return effectiveStatus(row, now) !== 'expired';
}

export async function findSubscription(db: Kysely<Database> | Transaction<Database>, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Midnight UTC on the first day of `now`'s month, as the ISO text video_jobs.created_at is compared with. */
export function startOfUtcMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/** Jobs that count against a quota: every one except failed and cancelled (those give their slot back). */
const UNCOUNTED_JOB_STATUSES = ['failed', 'cancelled'] as const;

type Db = Kysely<Database> | Transaction<Database>;

/** Records a video made; call in the transaction that inserts the job. */
export async function recordVideoMade(db: Db, video: { jobId: string; userId: string; createdAt: string }): Promise<void> {
  await db.insertInto('video_usage').values({ job_id: video.jobId, user_id: video.userId, created_at: video.createdAt }).execute();
}

/** A failed or cancelled job never counted; when it is deleted its usage row goes with it. */
export async function forgetUncountedVideo(db: Db, userId: string, jobId: string): Promise<void> {
  await db
    .deleteFrom('video_usage')
    .where('job_id', '=', jobId)
    .where('user_id', '=', userId)
    .where('job_id', 'in', (eb) =>
      eb.selectFrom('video_jobs').select('id').where('id', '=', jobId).where('status', 'in', UNCOUNTED_JOB_STATUSES),
    )
    .execute();
}

/**
 * THE count of "videos used", as a query: videos made since `since` (all of them when null), whatever
 * happened to them later, except jobs that failed or were cancelled. A deleted job still counts: its
 * usage row outlives it. `userId` may be a column of an outer query (the admin's user list selects
 * this per row), so every count of used videos (/auth/usage, can-generate, the subscription view,
 * the admin's "videos this month") is this one query.
 */
export function videosUsedQuery(db: Db, userId: Expression<string> | string, since: Expression<string> | string | null) {
  let query = db
    .selectFrom('video_usage')
    .leftJoin('video_jobs', 'video_jobs.id', 'video_usage.job_id')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('video_usage.user_id', '=', userId)
    .where((eb) => eb.or([eb('video_jobs.status', 'is', null), eb('video_jobs.status', 'not in', UNCOUNTED_JOB_STATUSES)]));
  if (since !== null) query = query.where('video_usage.created_at', '>=', since);
  return query;
}

export async function countVideosUsed(db: Db, userId: string, since: string | null): Promise<number> {
  const row = await videosUsedQuery(db, userId, since).executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Where the plan's month starts counting: the calendar month (UTC), or the subscription's start when
 * later and it grants access, or an admin's "reset the month's usage" (User Management) when later still.
 */
export function planUsagePeriodStart(subscription: SubscriptionRow | undefined, now: Date, usageResetAt: string | null = null): string {
  const monthStart = startOfUtcMonth(now);
  const planStart = subscription && grantsAccess(subscription, now) ? new Date(subscription.start_date).toISOString() : null;
  return [planStart, usageResetAt].reduce<string>((latest, start) => (start !== null && start > latest ? start : latest), monthStart);
}

/** When an admin last reset this user's monthly usage (null: never). */
export async function findUsageResetAt(db: Db, userId: string): Promise<string | null> {
  const user = await db.selectFrom('users').select('usage_reset_at').where('id', '=', userId).executeTakeFirst();
  return user?.usage_reset_at ?? null;
}

/** The later of two ISO timestamps in SQL; a NULL `a` gives `b`. */
const laterOf = (a: Expression<unknown>, b: Expression<unknown>): Expression<string> =>
  sql<string>`case when ${a} > ${b} then ${a} else ${b} end`;

/**
 * planUsagePeriodStart for a user of an outer query (`userId` a column), in SQL, so a list of users
 * can select and sort by the plan's usage: the same three starts (calendar month, the start of a
 * subscription that still grants access, the admin's reset), the latest wins.
 */
export function usagePeriodStartOf(db: Db, userId: Expression<string>, now: Date): Expression<string> {
  const planStart = db
    .selectFrom('subscriptions')
    .select('start_date')
    .where('subscriptions.user_id', '=', userId)
    .where('subscriptions.end_date', '>', now.toISOString());
  const resetAt = db.selectFrom('users as reset_user').select('reset_user.usage_reset_at').where('reset_user.id', '=', userId);
  return laterOf(resetAt, laterOf(planStart, sql<string>`${startOfUtcMonth(now)}`));
}

/**
 * The plan's usage: counted videos of `now`'s calendar month (UTC), and, while the subscription grants
 * access, only those made since it started. The free video made before buying, or the jobs of an
 * earlier (expired or replaced) period in the same month, do not use up a plan just paid for.
 */
export async function countPlanVideosThisMonth(
  db: Db,
  userId: string,
  subscription: SubscriptionRow | undefined,
  now: Date,
): Promise<number> {
  return countVideosUsed(db, userId, planUsagePeriodStart(subscription, now, await findUsageResetAt(db, userId)));
}

/** Whether the user has ever made a counted video (the free video is used up by the first one). */
export async function hasUsedFreeVideo(db: Db, userId: string): Promise<boolean> {
  return (await countVideosUsed(db, userId, null)) > 0;
}
