import type { Currency, PlanId } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/schema.js';

/** A user's subscription as a test sets it up: any plan, any dates, cancelled at a date or not. */
export interface TestSubscription {
  userId: string;
  planId: PlanId;
  currency: Currency;
  start: Date;
  end: Date;
  cancelledAt?: Date | null;
}

/** Writes the subscription row straight into the database (paid by no order), as no route would for past or odd dates. */
export async function insertSubscription(db: Kysely<Database>, subscription: TestSubscription): Promise<void> {
  const cancelledAt = subscription.cancelledAt ?? null;
  const at = new Date().toISOString();
  await db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      user_id: subscription.userId,
      plan_id: subscription.planId,
      currency: subscription.currency,
      status: cancelledAt ? 'cancelled' : 'active',
      start_date: subscription.start.toISOString(),
      end_date: subscription.end.toISOString(),
      cancelled_at: cancelledAt?.toISOString() ?? null,
      cancellation_reason: cancelledAt ? 'testing' : null,
      last_order_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * Gives a user a paid plan for 30 days straight in the database, for tests and benches that measure
 * something other than payments (payments and the admin's comp grant have their own tests).
 */
export async function subscribeUserDirectly(db: Kysely<Database>, userId: string, planId: 'essentials_plan' | 'pro_plan'): Promise<void> {
  const now = new Date();
  await insertSubscription(db, { userId, planId, currency: 'USD', start: now, end: new Date(now.getTime() + 30 * 86_400_000) });
}
