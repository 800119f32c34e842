import { FREE_VIDEO_MAX_SECONDS, MESSAGES, UNLIMITED_VIDEOS, VALIDATION_MESSAGES } from '@reelsmith/contracts';
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { getPlan } from './plans.js';
import { countPlanVideosThisMonth, findSubscription, grantsAccess, hasUsedFreeVideo } from './subscription-state.js';

export interface CanGenerateResult {
  canGenerate: boolean;
  isFreeVideo: boolean;
  reason: string | null;
}

/**
 * The generation quota, one rule set for GET /payments/can-generate and POST /api/videos/generate.
 * The jobs service calls this inside the transaction that inserts the job. Inside a PostgreSQL
 * transaction the user's row is locked first, so two concurrent submits of one user queue behind
 * each other and cannot both take the last slot; SQLite already runs one write transaction at a time.
 *
 * - With a subscription that still grants access (active, or cancelled before its end date): the
 *   plan's monthly limit (-1 unlimited), counting this calendar month's (UTC) jobs made since the
 *   subscription started, except failed and cancelled ones; every duration allowed. The free video
 *   made before buying is not one of the plan's videos.
 * - Without one: a single free video (no counted job yet) of at most 30 s; afterwards a subscription is required.
 */
export async function checkCanGenerate(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  durationSeconds?: number,
  now: Date = new Date(),
): Promise<CanGenerateResult> {
  if (db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }
  const subscription = await findSubscription(db, userId);
  if (subscription && grantsAccess(subscription, now)) {
    const limit = getPlan(subscription.plan_id).videoLimit;
    if (limit === UNLIMITED_VIDEOS) return { canGenerate: true, isFreeVideo: false, reason: null };
    const used = await countPlanVideosThisMonth(db, userId, subscription, now);
    if (used >= limit) return { canGenerate: false, isFreeVideo: false, reason: MESSAGES.videoLimitReached(limit) };
    return { canGenerate: true, isFreeVideo: false, reason: null };
  }

  if (await hasUsedFreeVideo(db, userId)) {
    return { canGenerate: false, isFreeVideo: false, reason: MESSAGES.subscriptionRequired };
  }
  if (durationSeconds !== undefined && durationSeconds > FREE_VIDEO_MAX_SECONDS) {
    return { canGenerate: false, isFreeVideo: true, reason: VALIDATION_MESSAGES.freeVideoTooLong };
  }
  return { canGenerate: true, isFreeVideo: true, reason: null };
}

/**
 * How many more videos the account may start now under the same rules: the plan's limit less this
 * month's counted videos, 1 or 0 without a plan (the free video), or null when the plan is unlimited.
 * A batch larger than this is refused before any job is made.
 */
export async function remainingVideos(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  now: Date = new Date(),
): Promise<number | null> {
  const subscription = await findSubscription(db, userId);
  if (subscription && grantsAccess(subscription, now)) {
    const limit = getPlan(subscription.plan_id).videoLimit;
    if (limit === UNLIMITED_VIDEOS) return null;
    return Math.max(0, limit - (await countPlanVideosThisMonth(db, userId, subscription, now)));
  }
  return (await hasUsedFreeVideo(db, userId)) ? 0 : 1;
}
