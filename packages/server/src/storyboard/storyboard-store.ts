import type { JobSteps, VideoResult } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import type { Database, UploadsTable, VideoVersionsTable } from '../db/schema.js';
import type { StoryboardDocument } from './storyboard-document.js';

type Db = Kysely<Database>;
export type UploadRow = Selectable<UploadsTable>;
export type VideoVersionRow = Selectable<VideoVersionsTable>;

export async function findStoryboard(db: Db, videoId: string): Promise<StoryboardDocument | undefined> {
  const row = await db.selectFrom('video_storyboards').select('document').where('video_id', '=', videoId).executeTakeFirst();
  return row ? (JSON.parse(row.document) as StoryboardDocument) : undefined;
}

export async function saveStoryboard(db: Db, videoId: string, userId: string, document: StoryboardDocument, now = new Date()): Promise<void> {
  const text = JSON.stringify(document);
  const timestamp = now.toISOString();
  await db
    .insertInto('video_storyboards')
    .values({ video_id: videoId, user_id: userId, document: text, updated_at: timestamp })
    .onConflict((conflict) => conflict.column('video_id').doUpdateSet({ document: text, updated_at: timestamp }))
    .execute();
}

/** The user's upload; another user's upload is indistinguishable from a missing one. */
export function findUserUpload(db: Db, userId: string, uploadId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertUpload(db: Db, row: Insertable<UploadsTable>): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

export function listVersions(db: Db, videoId: string): Promise<VideoVersionRow[]> {
  return db.selectFrom('video_versions').selectAll().where('video_id', '=', videoId).orderBy('version', 'asc').execute();
}

export async function insertVersion(db: Db, row: { videoId: string; version: number; outputToken: string; result: VideoResult; sizeBytes: number }, now = new Date()): Promise<void> {
  await db
    .insertInto('video_versions')
    .values({ video_id: row.videoId, version: row.version, output_token: row.outputToken, result: JSON.stringify(row.result), size_bytes: row.sizeBytes, created_at: now.toISOString() })
    .onConflict((conflict) => conflict.columns(['video_id', 'version']).doNothing())
    .execute();
}

/** Output folders of every version (the row's own token is the latest's), for deleting the video. */
export async function versionTokens(db: Db, videoId: string): Promise<string[]> {
  const rows = await db.selectFrom('video_versions').select('output_token').where('video_id', '=', videoId).execute();
  return rows.map((row) => row.output_token);
}

/**
 * Puts a finished video back in the queue to make its next version. Conditional on the row being
 * finished and under the render limit, so two clicks cannot start two renders. The row keeps the
 * latest version's result while it renders; the allowance is untouched (it is the same video).
 */
export async function queueRerender(db: Db, userId: string, videoId: string, maxVersion: number, steps: JobSteps, now = new Date()): Promise<number | undefined> {
  const row = await db
    .updateTable('video_jobs')
    .set((eb) => ({
      status: 'queued',
      version: eb('version', '+', 1),
      progress: 1,
      current_step: null,
      step_progress: 0,
      steps: JSON.stringify(steps),
      error: null,
      updated_at: now.toISOString(),
      completed_at: null,
    }))
    .where('id', '=', videoId)
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .where('version', '<', maxVersion)
    .returning('version')
    .executeTakeFirst();
  return row?.version;
}

/**
 * A re-render that failed or was cancelled leaves the video as it was: completed, at its previous
 * version, with that version's result (the error says what went wrong).
 */
export async function restorePreviousVersion(
  db: Db,
  videoId: string,
  fromStatuses: Array<'processing' | 'queued' | 'cancelled'>,
  error: string | null,
  steps: JobSteps,
  /** A worker's claim: its write is refused when another worker holds the job now. */
  claimToken: string | null = null,
): Promise<boolean> {
  const timestamp = new Date().toISOString();
  let query = db
    .updateTable('video_jobs')
    .set((eb) => ({
      status: 'completed',
      version: eb('version', '-', 1),
      progress: 100,
      current_step: 'video',
      step_progress: 100,
      steps: JSON.stringify(steps),
      error,
      updated_at: timestamp,
      completed_at: timestamp,
      claim_token: null,
      claim_expires_at: null,
    }))
    .where('id', '=', videoId)
    .where('version', '>', 1)
    .where('status', 'in', fromStatuses);
  if (claimToken !== null) query = query.where('claim_token', '=', claimToken);
  const updated = await query.executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}
