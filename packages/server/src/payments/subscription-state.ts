import type { Kysely } from 'kysely';
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

export async function findSubscription(db: Kysely<Database>, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Midnight UTC on the first day of `now`'s month, as the ISO text video_jobs.created_at is compared with. */
export function startOfUtcMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/** Jobs that count against a quota: every one except failed and cancelled. */
const UNCOUNTED_JOB_STATUSES = ['failed', 'cancelled'] as const;

/**
 * The plan's usage: counted jobs of `now`'s calendar month (UTC), and, while the subscription grants
 * access, only those made since it started. The free video made before buying, or the jobs of an
 * earlier (expired or replaced) period in the same month, do not use up a plan just paid for.
 */
export async function countPlanVideosThisMonth(db: Kysely<Database>, userId: string, subscription: SubscriptionRow | undefined, now: Date): Promise<number> {
  const monthStart = startOfUtcMonth(now);
  const planStart = subscription && grantsAccess(subscription, now) ? new Date(subscription.start_date).toISOString() : null;
  // An admin's "reset the month's usage" (User Management) starts the count again from then.
  const user = await db.selectFrom('users').select('usage_reset_at').where('id', '=', userId).executeTakeFirst();
  const from = [monthStart, planStart, user?.usage_reset_at ?? null].reduce<string>((latest, start) => (start !== null && start > latest ? start : latest), monthStart);
  const row = await db
    .selectFrom('video_jobs')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('status', 'not in', UNCOUNTED_JOB_STATUSES)
    .where('created_at', '>=', from)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whether the user has ever had a counted job (the free video is used up by the first one). */
export async function hasUsedFreeVideo(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('video_jobs')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'not in', UNCOUNTED_JOB_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
