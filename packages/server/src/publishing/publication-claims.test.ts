import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../db/dialect-test-database.js';
import { videoJobRow } from '../testing/test-rows.js';
import { cancelUserPublications, claimDuePublications, insertPublications } from './publication-store.js';

// Rows written directly: the claim order and the suspension are under test, not the routes.
let testDb: TestDatabase;
let handle: DatabaseHandle;
let db: Kysely<Database>;

beforeAll(async () => {
  testDb = await createTestDatabase('sqlite');
  handle = createDatabase(testDb.config().database);
  db = handle.db;
  await migrateToLatest(db);
});
afterAll(async () => {
  await handle?.db.destroy();
  await testDb?.cleanup();
});

async function insertUser(): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      name: 'Creator',
      password_hash: null,
      google_sub: null,
      role: 'user',
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function insertVideo(userId: string): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto('video_jobs')
    .values(videoJobRow({ id, user_id: userId, status: 'completed', created_at: at, completed_at: at }))
    .execute();
  return id;
}

/** `count` publications of one creator (one video each, TikTok), due at `runAt`. */
async function publications(userId: string, count: number, runAt: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const outcome = await insertPublications(db, userId, await insertVideo(userId), [
      { platform: 'tiktok', title: 'A', description: 'B', hashtags: [], privacy: 'private', publishAt: null, runAt: runAt.toISOString() },
    ]);
    if (!('rows' in outcome)) throw new Error('busy');
    ids.push(outcome.rows[0]!.id);
  }
  return ids;
}

describe('claimDuePublications', () => {
  it("takes creators in turn: another creator's one publication goes in the first claims, not after the 12 due before it", async () => {
    const busy = await insertUser();
    const other = await insertUser();
    const busyIds = await publications(busy, 12, new Date(Date.now() - 60_000));
    const [otherId] = await publications(other, 1, new Date(Date.now() - 1_000));
    // The runner claims 3 at a time; the busy creator's rows are due first.
    const first = await claimDuePublications(db, 3, 60_000);
    expect(first.map((row) => row.id)).toContain(otherId);
    expect(first.filter((row) => row.user_id === busy)).toHaveLength(2);
    // While the busy creator has runs under way, another creator's new row still goes first.
    const [lateId] = await publications(other, 1, new Date());
    const next = await claimDuePublications(db, 1, 60_000);
    expect(next.map((row) => row.id)).toEqual([lateId]);
    // And the rest follow in due order.
    const rest = await claimDuePublications(db, 20, 60_000);
    expect(rest.map((row) => row.id)).toEqual(busyIds.filter((id) => !first.some((row) => row.id === id)));
  });

  it("never claims a suspended account's publications, and suspension cancels them", async () => {
    const suspended = await insertUser();
    const [scheduled] = await publications(suspended, 1, new Date(Date.now() + 500));
    await db
      .updateTable('users')
      .set({ status: 'suspended', suspended_at: new Date().toISOString() })
      .where('id', '=', suspended)
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await claimDuePublications(db, 10, 60_000)).filter((row) => row.user_id === suspended)).toEqual([]);
    const cancelled = await cancelUserPublications(db, suspended, 'Cancelled: the account was suspended.');
    expect(cancelled.map((row) => [row.id, row.status, row.active_key])).toEqual([[scheduled, 'cancelled', null]]);
  });
});
