import { renderStatsSchema, type RenderStats, type VideoResult } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Database, VideoVersionsTable } from '../db/schema.js';
import { parseStoredJson } from '../db/stored-json.js';
import type { StoryboardDocument } from './storyboard-document.js';

type Db = Kysely<Database>;
export type VideoVersionRow = Selectable<VideoVersionsTable>;

export async function findStoryboard(db: Db, videoId: string): Promise<StoryboardDocument | undefined> {
  return (await findStoryboardRecord(db, videoId))?.document;
}

/** A stored storyboard with the exact text it is stored as, which a conditional write compares against. */
export interface StoryboardRecord {
  document: StoryboardDocument;
  text: string;
  /** Names this exact text (the ETag without its quotes): any write by anyone changes it. */
  revision: string;
}

export const revisionOf = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export async function findStoryboardRecord(db: Db, videoId: string): Promise<StoryboardRecord | undefined> {
  const row = await db.selectFrom('video_storyboards').select('document').where('video_id', '=', videoId).executeTakeFirst();
  return row
    ? { document: JSON.parse(row.document) as StoryboardDocument, text: row.document, revision: revisionOf(row.document) }
    : undefined;
}

/**
 * Replaces the storyboard only if it is still stored as `expectedText`, in one statement, so two
 * writers that read the same version cannot both win. Returns the new record, or undefined when
 * someone wrote in between.
 */
export async function replaceStoryboardIf(
  db: Db,
  videoId: string,
  expectedText: string,
  document: StoryboardDocument,
  now = new Date(),
): Promise<StoryboardRecord | undefined> {
  const text = JSON.stringify(document);
  const result = await db
    .updateTable('video_storyboards')
    .set({ document: text, updated_at: now.toISOString() })
    .where('video_id', '=', videoId)
    .where('document', '=', expectedText)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? { document, text, revision: revisionOf(text) } : undefined;
}

export async function saveStoryboard(
  db: Db,
  videoId: string,
  userId: string,
  document: StoryboardDocument,
  now = new Date(),
): Promise<void> {
  const text = JSON.stringify(document);
  const timestamp = now.toISOString();
  await db
    .insertInto('video_storyboards')
    .values({ video_id: videoId, user_id: userId, document: text, updated_at: timestamp })
    .onConflict((conflict) => conflict.column('video_id').doUpdateSet({ document: text, updated_at: timestamp }))
    .execute();
}

/** A version's stored render statistics; undefined when absent or not in the contract's shape. */
export function parseRenderStats(text: string | null): RenderStats | undefined {
  return text === null ? undefined : parseStoredJson(renderStatsSchema, text);
}

export function listVersions(db: Db, videoId: string): Promise<VideoVersionRow[]> {
  return db.selectFrom('video_versions').selectAll().where('video_id', '=', videoId).orderBy('version', 'asc').execute();
}

export async function insertVersion(
  db: Db,
  row: { videoId: string; version: number; outputToken: string; result: VideoResult; sizeBytes: number; renderStats: RenderStats },
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('video_versions')
    .values({
      video_id: row.videoId,
      version: row.version,
      output_token: row.outputToken,
      result: JSON.stringify(row.result),
      size_bytes: row.sizeBytes,
      created_at: now.toISOString(),
      render_stats: JSON.stringify(row.renderStats),
    })
    .onConflict((conflict) => conflict.columns(['video_id', 'version']).doNothing())
    .execute();
}

/** Output folders of every version (the row's own token is the latest's), for deleting the video. */
export async function versionTokens(db: Db, videoId: string): Promise<string[]> {
  const rows = await db.selectFrom('video_versions').select('output_token').where('video_id', '=', videoId).execute();
  return rows.map((row) => row.output_token);
}
