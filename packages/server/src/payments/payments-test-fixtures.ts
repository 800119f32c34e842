import { randomUUID } from 'node:crypto';
import type { JobStatus, PlanId } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { recordVideoMade } from './subscription-state.js';
import { createTestDatabase, type TestDatabase, type TestDialect } from '../db/test-database.js';

/** A migrated database of one dialect for payment unit tests; `close` in afterAll. */
export async function openMigratedTestDatabase(dialect: TestDialect): Promise<{ handle: DatabaseHandle; testDb: TestDatabase; close(): Promise<void> }> {
  const testDb = await createTestDatabase(dialect);
  const handle = createDatabase(testDb.config().database);
  await migrateToLatest(handle.db);
  return {
    handle,
    testDb,
    async close() {
      await handle.db.destroy();
      await testDb.cleanup();
    },
  };
}

export async function insertUser(db: Kysely<Database>, email = `${randomUUID()}@example.com`): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db.insertInto('users').values({ id, email, name: 'Test User', password_hash: null, google_sub: null, role: 'user', created_at: at, updated_at: at }).execute();
  return id;
}

/** A job as the jobs service makes it: the row and its usage record. Returns its id. */
export async function insertJob(db: Kysely<Database>, userId: string, status: JobStatus, createdAt: Date): Promise<string> {
  const id = randomUUID();
  const at = createdAt.toISOString();
  await db
    .insertInto('video_jobs')
    .values({ id, user_id: userId, status, params: '{}', steps: '{}', created_at: at, updated_at: at, result: null, error: null, current_step: null, started_at: null, completed_at: null })
    .execute();
  await recordVideoMade(db, { jobId: id, userId, createdAt: at });
  return id;
}

export async function insertSubscription(
  db: Kysely<Database>,
  userId: string,
  planId: PlanId,
  startDate: Date,
  endDate: Date,
  cancelledAt: Date | null = null,
): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      user_id: userId,
      plan_id: planId,
      currency: 'INR',
      status: cancelledAt ? 'cancelled' : 'active',
      start_date: startDate.toISOString(),
      end_date: endDate.toISOString(),
      cancelled_at: cancelledAt?.toISOString() ?? null,
      cancellation_reason: cancelledAt ? 'testing' : null,
      last_order_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
