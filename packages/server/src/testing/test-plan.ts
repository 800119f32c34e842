import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { subscriptionRow } from './test-rows.js';

/**
 * Gives a user a paid plan for 30 days straight in the database, for tests and benches that measure
 * something other than payments (payments and the admin's comp grant have their own tests).
 */
export async function subscribeUserDirectly(db: Kysely<Database>, userId: string, planId: 'essentials_plan' | 'pro_plan'): Promise<void> {
  const now = new Date();
  await db
    .insertInto('subscriptions')
    .values(
      subscriptionRow({
        id: randomUUID(),
        user_id: userId,
        plan_id: planId,
        currency: 'USD',
        start_date: now.toISOString(),
        end_date: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      }),
    )
    .execute();
}
