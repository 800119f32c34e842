import { renderStatsSchema, type RenderStats, type VideoResult } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database, VideoVersionsTable } from '../db/schema.js';
import type { StoryboardDocument } from './storyboard-document.js';

type Db = Kysely<Database>;
export type VideoVersionRow = Selectable<VideoVersionsTable>;

export async function findStoryboard(db: Db, videoId: string): Promise<StoryboardDocument | undefined> {
  const row = await db.selectFrom('video_storyboards').select('document').where('video_id', '=', videoId).executeTakeFirst();
  return row ? (JSON.parse(row.document) as StoryboardDocument) : undefined;
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
  if (text === null) return undefined;
  try {
    const parsed = renderStatsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
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
