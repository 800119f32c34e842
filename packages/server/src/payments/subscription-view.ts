import type { Subscription } from '@reelsmith/contracts';
import type { SubscriptionRow } from '../db/schema.js';
import { getPlan } from './plans.js';
import { effectiveStatus } from './subscription-state.js';

/** The API's subscription object, with 'expired' derived from the end date at `now`. */
export function toSubscriptionView(row: SubscriptionRow, now: Date): Subscription {
  const plan = getPlan(row.plan_id);
  return {
    planId: row.plan_id,
    planName: plan.name,
    status: effectiveStatus(row, now),
    cancelled_at: row.cancelled_at,
    cancelledAt: row.cancelled_at,
    startDate: row.start_date,
    endDate: row.end_date,
    videoLimit: plan.videoLimit,
    currency: row.currency,
  };
}
