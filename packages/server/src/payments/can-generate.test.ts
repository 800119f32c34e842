import { MESSAGES, VALIDATION_MESSAGES, type JobStatus, type PlanId } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase, type TestDialect } from '../db/dialect-test-database.js';
import { insertSubscription as insertTestSubscription } from '../testing/test-plan.js';
import { videoJobRow } from '../testing/test-rows.js';
import { checkCanGenerate } from './can-generate.js';
import { countPlanVideosThisMonth, findSubscription, recordVideoMade } from './subscription-state.js';

// Rows in any state and at any date, written directly: only a test sets up history this way.
/** A migrated database of one dialect for payment unit tests; `close` in afterAll. */
async function openMigratedTestDatabase(
  dialect: TestDialect,
): Promise<{ handle: DatabaseHandle; testDb: TestDatabase; close(): Promise<void> }> {
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

async function insertUser(db: Kysely<Database>, email = `${randomUUID()}@example.com`): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto('users')
    .values({ id, email, name: 'Test User', password_hash: null, google_sub: null, role: 'user', created_at: at, updated_at: at })
    .execute();
  return id;
}

/** A job as the jobs service makes it: the row and its usage record. Returns its id. */
async function insertJob(db: Kysely<Database>, userId: string, status: JobStatus, createdAt: Date): Promise<string> {
  const id = randomUUID();
  const at = createdAt.toISOString();
  await db
    .insertInto('video_jobs')
    .values(videoJobRow({ id, user_id: userId, status, created_at: at }))
    .execute();
  await recordVideoMade(db, { jobId: id, userId, createdAt: at });
  return id;
}

/** A subscription in rupees (the plans' home currency), cancelled at `cancelledAt` when given. */
function insertSubscription(
  db: Kysely<Database>,
  userId: string,
  planId: PlanId,
  start: Date,
  end: Date,
  cancelledAt: Date | null = null,
): Promise<void> {
  return insertTestSubscription(db, { userId, planId, currency: 'INR', start, end, cancelledAt });
}

const NOW = new Date('2026-03-15T12:00:00.000Z');
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

describe.each(TEST_DIALECTS)('checkCanGenerate on %s', (dialect) => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, close } = await openMigratedTestDatabase(dialect));
  }, 120_000);
  afterAll(async () => close?.());

  it('gives a new user one free video of at most 30 seconds', async () => {
    const userId = await insertUser(handle.db);
    expect(await checkCanGenerate(handle.db, userId, undefined, NOW)).toEqual({ canGenerate: true, isFreeVideo: true, reason: null });
    expect(await checkCanGenerate(handle.db, userId, 30, NOW)).toEqual({ canGenerate: true, isFreeVideo: true, reason: null });
    for (const duration of [60, 90]) {
      expect(await checkCanGenerate(handle.db, userId, duration, NOW)).toEqual({
        canGenerate: false,
        isFreeVideo: true,
        reason: VALIDATION_MESSAGES.freeVideoTooLong,
      });
    }
  });

  it('requires a subscription once the free video exists, but not after it failed or was cancelled', async () => {
    const userId = await insertUser(handle.db);
    await insertJob(handle.db, userId, 'failed', days(-1));
    await insertJob(handle.db, userId, 'cancelled', days(-1));
    expect((await checkCanGenerate(handle.db, userId, 30, NOW)).isFreeVideo).toBe(true);
    await insertJob(handle.db, userId, 'processing', days(-40));
    expect(await checkCanGenerate(handle.db, userId, 30, NOW)).toEqual({
      canGenerate: false,
      isFreeVideo: false,
      reason: MESSAGES.subscriptionRequired,
    });
  });

  it('counts this calendar month (UTC) against the plan limit, ignoring failed and cancelled jobs', async () => {
    const userId = await insertUser(handle.db);
    // Started before March (and runs into April) so that only the calendar month bounds the count.
    await insertSubscription(
      handle.db,
      userId,
      'essentials_plan',
      new Date('2026-02-25T00:00:00.000Z'),
      new Date('2026-04-05T00:00:00.000Z'),
    );
    // Last month's jobs (one millisecond before March 1st UTC) do not count.
    for (let i = 0; i < 10; i += 1) await insertJob(handle.db, userId, 'completed', new Date('2026-02-28T23:59:59.999Z'));
    for (let i = 0; i < 9; i += 1) await insertJob(handle.db, userId, 'completed', new Date('2026-03-01T00:00:00.000Z'));
    await insertJob(handle.db, userId, 'failed', days(-1));
    await insertJob(handle.db, userId, 'cancelled', days(-1));
    expect(await checkCanGenerate(handle.db, userId, 90, NOW)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
    await insertJob(handle.db, userId, 'queued', days(-1));
    expect(await checkCanGenerate(handle.db, userId, 30, NOW)).toEqual({
      canGenerate: false,
      isFreeVideo: false,
      reason: MESSAGES.videoLimitReached(10),
    });
    // On April 1st the count starts again.
    expect((await checkCanGenerate(handle.db, userId, 60, new Date('2026-04-01T00:00:00.000Z'))).canGenerate).toBe(true);
  });

  it("does not count the free video, made before buying, against the plan's month", async () => {
    const userId = await insertUser(handle.db);
    await insertJob(handle.db, userId, 'completed', days(-3));
    expect((await checkCanGenerate(handle.db, userId, 30, NOW)).reason).toBe(MESSAGES.subscriptionRequired);
    await insertSubscription(handle.db, userId, 'essentials_plan', days(-1), days(30));
    expect(await countPlanVideosThisMonth(handle.db, userId, await findSubscription(handle.db, userId), NOW)).toBe(0);
    for (let i = 0; i < 9; i += 1) await insertJob(handle.db, userId, 'completed', days(-1));
    expect(await checkCanGenerate(handle.db, userId, 90, NOW)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
    await insertJob(handle.db, userId, 'completed', NOW);
    expect(await countPlanVideosThisMonth(handle.db, userId, await findSubscription(handle.db, userId), NOW)).toBe(10);
    expect(await checkCanGenerate(handle.db, userId, 30, NOW)).toEqual({
      canGenerate: false,
      isFreeVideo: false,
      reason: MESSAGES.videoLimitReached(10),
    });
  });

  it('gives a plan renewed after expiry its whole limit, even in the month the old one was used up', async () => {
    const userId = await insertUser(handle.db);
    // The previous period (Feb 12 – Mar 12) used all 10 of its videos in March; the plan is renewed on March 14th.
    for (let i = 0; i < 10; i += 1) await insertJob(handle.db, userId, 'completed', new Date('2026-03-05T00:00:00.000Z'));
    await insertSubscription(handle.db, userId, 'essentials_plan', days(-1), days(30));
    expect(await checkCanGenerate(handle.db, userId, 60, NOW)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
    const renewed = (await findSubscription(handle.db, userId))!;
    expect(await countPlanVideosThisMonth(handle.db, userId, renewed, NOW)).toBe(0);
    // A subscription that no longer grants access does not bound the count: the whole calendar month shows.
    expect(await countPlanVideosThisMonth(handle.db, userId, { ...renewed, end_date: days(-1).toISOString() }, NOW)).toBe(10);
  });

  it('treats videoLimit -1 as unlimited', async () => {
    const userId = await insertUser(handle.db);
    await insertSubscription(handle.db, userId, 'pro_plan', days(-1), days(29));
    for (let i = 0; i < 120; i += 1) await insertJob(handle.db, userId, 'completed', days(-1));
    expect(await checkCanGenerate(handle.db, userId, 90, NOW)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
  });

  it('keeps access while cancelled until the end date, then falls back to the free-video rules', async () => {
    const userId = await insertUser(handle.db);
    await insertSubscription(handle.db, userId, 'starter_plan', days(-20), days(10), days(-2));
    expect(await checkCanGenerate(handle.db, userId, 60, NOW)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
    // At the end date it has expired: without any job yet, only a free 30 s video remains.
    expect(await checkCanGenerate(handle.db, userId, 60, days(10))).toEqual({
      canGenerate: false,
      isFreeVideo: true,
      reason: VALIDATION_MESSAGES.freeVideoTooLong,
    });
    await insertJob(handle.db, userId, 'completed', days(-3));
    expect(await checkCanGenerate(handle.db, userId, 30, days(10))).toEqual({
      canGenerate: false,
      isFreeVideo: false,
      reason: MESSAGES.subscriptionRequired,
    });
  });

  it('works inside a transaction (the jobs service calls it there)', async () => {
    const userId = await insertUser(handle.db);
    await insertSubscription(handle.db, userId, 'essentials_plan', days(-1), days(29));
    const result = await handle.db.transaction().execute(async (trx) => checkCanGenerate(trx, userId, 60, NOW));
    expect(result).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
  });
});
