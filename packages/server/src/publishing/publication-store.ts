import type { Platform, Publication, PublicationPrivacy, PublicationStatus } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database, PublicationRow } from '../db/schema.js';
import type { PublicationPost } from './publisher.js';

/** The statuses a publication is still on its way in: one per video and platform at a time. */
export const ACTIVE_STATUSES: readonly PublicationStatus[] = ['queued', 'uploading', 'processing'];

export const activeKey = (videoId: string, platform: Platform): string => `${videoId}:${platform}`;

export function toPublication(row: PublicationRow): Publication {
  let hashtags: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.hashtags);
    if (Array.isArray(parsed)) hashtags = parsed.filter((tag): tag is string => typeof tag === 'string');
  } catch {
    hashtags = [];
  }
  return {
    id: row.id,
    videoId: row.video_id,
    platform: row.platform as Platform,
    status: row.status as PublicationStatus,
    title: row.title,
    description: row.description,
    hashtags,
    privacy: row.privacy as PublicationPrivacy,
    publishAt: row.publish_at,
    progress: Number(row.progress),
    url: row.url,
    // The error column of a published (or cancelled) row holds what the creator should know, not a failure.
    error: row.status === 'published' || row.status === 'cancelled' ? null : row.error,
    ...(row.error && (row.status === 'published' || row.status === 'cancelled') ? { warning: row.error } : {}),
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
  };
}

export interface NewPublication extends PublicationPost {
  /** When the queue takes it: now, or the scheduled time (YouTube schedules on its side, so it goes now). */
  runAt: string;
  /** The publisher's starting state (TikTok: the creator's choice of comments, duets and stitches). */
  remoteState?: string | null;
}

/** True for a unique-index violation in SQLite or PostgreSQL. */
function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { code?: unknown }).code ?? '') + String((error as Error).message ?? '');
  return text.includes('SQLITE_CONSTRAINT_UNIQUE') || text.includes('23505') || /unique/i.test(text);
}

/**
 * Inserts every publication of one request in one transaction: all or none. Returns the platform that
 * already has one on its way (the unique active key) instead, when there is one.
 */
export async function insertPublications(
  db: Kysely<Database>,
  userId: string,
  videoId: string,
  entries: NewPublication[],
): Promise<{ rows: PublicationRow[] } | { busy: Platform }> {
  const now = new Date().toISOString();
  const rows = entries.map((entry) => ({
    id: randomUUID(),
    user_id: userId,
    video_id: videoId,
    platform: entry.platform,
    status: 'queued',
    active_key: activeKey(videoId, entry.platform),
    title: entry.title,
    description: entry.description,
    hashtags: JSON.stringify(entry.hashtags),
    privacy: entry.privacy,
    publish_at: entry.publishAt,
    run_at: entry.runAt,
    claimed_until: null,
    remote_state: entry.remoteState ?? null,
    remote_id: null,
    url: null,
    error: null,
    created_at: now,
    updated_at: now,
    published_at: null,
  }));
  const busy = await db
    .selectFrom('publications')
    .select('platform')
    .where(
      'active_key',
      'in',
      rows.map((row) => row.active_key),
    )
    .executeTakeFirst();
  if (busy) return { busy: busy.platform as Platform };
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('publications').values(rows).execute();
    });
  } catch (error) {
    // Two requests at once: the index lets one through.
    if (isUniqueViolation(error)) return { busy: entries[0]!.platform };
    throw error;
  }
  const stored = await db
    .selectFrom('publications')
    .selectAll()
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  // In the order the request named the platforms.
  return { rows: rows.map((row) => stored.find((candidate) => candidate.id === row.id)!) };
}

export function listVideoPublications(db: Kysely<Database>, userId: string, videoId: string): Promise<PublicationRow[]> {
  return db
    .selectFrom('publications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('video_id', '=', videoId)
    .orderBy('created_at', 'desc')
    .orderBy('platform')
    .execute();
}

export function listUserPublications(db: Kysely<Database>, userId: string, limit = 200): Promise<PublicationRow[]> {
  return db.selectFrom('publications').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
}

export function findPublication(db: Kysely<Database>, id: string): Promise<PublicationRow | undefined> {
  return db.selectFrom('publications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Cancels a publication nobody has started: queued and unclaimed. Null when it is not (or no longer) so. */
export async function cancelQueuedPublication(db: Kysely<Database>, userId: string, id: string): Promise<PublicationRow | null> {
  const now = new Date().toISOString();
  const result = await db
    .updateTable('publications')
    .set({ status: 'cancelled', active_key: null, updated_at: now, claimed_until: null, error: null })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'queued')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return (await findPublication(db, id)) ?? null;
}

/**
 * Cancels every publication of an account still on its way (queued, scheduled, or under way), with
 * `note` as what the creator sees: a suspended account posts nothing more. The claim is cleared too,
 * so a run under way finds its next write refused. Returns the rows as they are now.
 */
export async function cancelUserPublications(db: Kysely<Database>, userId: string, note: string): Promise<PublicationRow[]> {
  const now = new Date().toISOString();
  const active = await db
    .selectFrom('publications')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', [...ACTIVE_STATUSES])
    .execute();
  if (active.length === 0) return [];
  const ids = active.map((row) => row.id);
  await db
    .updateTable('publications')
    .set({ status: 'cancelled', active_key: null, claimed_until: null, error: note, updated_at: now })
    .where('id', 'in', ids)
    .where('status', 'in', [...ACTIVE_STATUSES])
    .execute();
  return db.selectFrom('publications').selectAll().where('id', 'in', ids).execute();
}

/**
 * Ends a scheduled YouTube publication that is uploaded and waits for its time (published, publishAt
 * ahead): cancelled, with how it was left (kept private, deleted) as its note. Null when it is not so.
 */
export async function cancelHeldPublication(
  db: Kysely<Database>,
  userId: string,
  id: string,
  note: string,
  keepUrl: boolean,
): Promise<PublicationRow | null> {
  const now = new Date().toISOString();
  const result = await db
    .updateTable('publications')
    .set({ status: 'cancelled', updated_at: now, error: note, ...(keepUrl ? {} : { url: null }) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'published')
    .where('publish_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return (await findPublication(db, id)) ?? null;
}

/** Due publications looked at per claim: enough to find several creators behind one creator's long run. */
const CLAIM_CANDIDATES = 500;

/**
 * Claims up to `limit` due publications (queued, or under way with a lapsed claim: a crashed or
 * stopped run, which resumes). Creators take turns: the next claim goes to the creator with the fewest
 * publications under way (those running now included), then the earliest due, so one creator's 12
 * (or 300) never go all before another creator's one. A suspended account's publications are never
 * claimed. Each claim is a conditional update, so of several processes looking at once exactly one
 * gets a row. Returns the claimed rows with their claim value.
 */
export async function claimDuePublications(db: Kysely<Database>, limit: number, claimMs: number): Promise<PublicationRow[]> {
  if (limit <= 0) return [];
  const now = new Date();
  const nowIso = now.toISOString();
  const candidates = await db
    .selectFrom('publications')
    .innerJoin('users', 'users.id', 'publications.user_id')
    .select(['publications.id', 'publications.claimed_until', 'publications.user_id'])
    .where('publications.status', 'in', [...ACTIVE_STATUSES])
    .where('publications.run_at', '<=', nowIso)
    .where((eb) => eb.or([eb('publications.claimed_until', 'is', null), eb('publications.claimed_until', '<', nowIso)]))
    .where('users.status', '!=', 'suspended')
    .orderBy('publications.run_at')
    .orderBy('publications.created_at')
    .limit(CLAIM_CANDIDATES)
    .execute();
  if (candidates.length === 0) return [];
  const underWay = await db
    .selectFrom('publications')
    .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('count')])
    .where('status', 'in', [...ACTIVE_STATUSES])
    .where('claimed_until', '>=', nowIso)
    .groupBy('user_id')
    .execute();
  const load = new Map(underWay.map((row) => [row.user_id, Number(row.count)]));
  // Each creator's due rows in due order; creators in the order their first row is due.
  const perCreator = new Map<string, typeof candidates>();
  for (const candidate of candidates) {
    const rows = perCreator.get(candidate.user_id) ?? [];
    rows.push(candidate);
    perCreator.set(candidate.user_id, rows);
  }
  const claimed: PublicationRow[] = [];
  while (claimed.length < limit && perCreator.size > 0) {
    let turn: string | null = null;
    for (const creator of perCreator.keys()) {
      if (turn === null || (load.get(creator) ?? 0) < (load.get(turn) ?? 0)) turn = creator;
    }
    const rows = perCreator.get(turn!)!;
    const candidate = rows.shift()!;
    if (rows.length === 0) perCreator.delete(turn!);
    else {
      // To the back of the creators of the same load: the others' first rows go before this one's next.
      perCreator.delete(turn!);
      perCreator.set(turn!, rows);
    }
    const claim = new Date(now.getTime() + claimMs).toISOString();
    let update = db.updateTable('publications').set({ claimed_until: claim }).where('id', '=', candidate.id);
    update =
      candidate.claimed_until === null
        ? update.where('claimed_until', 'is', null)
        : update.where('claimed_until', '=', candidate.claimed_until);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) continue;
    load.set(turn!, (load.get(turn!) ?? 0) + 1);
    const row = await findPublication(db, candidate.id);
    if (row) claimed.push(row);
  }
  return claimed;
}

/** The earliest time a queued publication becomes due, for the runner's next wake-up. */
export async function nextRunAt(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('publications')
    .select('run_at')
    .where('status', '=', 'queued')
    .where('run_at', '>', new Date().toISOString())
    .orderBy('run_at')
    .limit(1)
    .executeTakeFirst();
  return row?.run_at ?? null;
}

/** Writes a change of a claimed publication, only while the claim is still this run's; the row after it, or null. */
export async function updateClaimed(
  db: Kysely<Database>,
  id: string,
  claim: string,
  changes: Partial<Omit<PublicationRow, 'id' | 'user_id' | 'video_id' | 'platform' | 'created_at'>>,
): Promise<PublicationRow | null> {
  const result = await db
    .updateTable('publications')
    .set({ ...changes, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('claimed_until', '=', claim)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return (await findPublication(db, id)) ?? null;
}
