import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { UploadFiles } from './upload-files.js';

type Db = Kysely<Database>;

/** Uploads nobody's storyboard uses are deleted this long after they were uploaded. */
export const UPLOAD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How often each API process looks for them. */
export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Every upload id a stored storyboard document names: its scenes' pictures and its music, in the
 * current edit and in what was last rendered. Read from the JSON as stored, whatever its version.
 */
export function uploadIdsIn(documentJson: string): Set<string> {
  const ids = new Set<string>();
  JSON.parse(documentJson, (key: string, value: unknown) => {
    if ((key === 'imageUploadId' || key === 'uploadId') && typeof value === 'string') ids.add(value);
    return value;
  });
  return ids;
}

export interface UploadToRemove {
  id: string;
  user_id: string;
  file_name: string;
}

/** Read before the video is deleted (its storyboard goes with it): the uploads only its storyboard uses. */
export async function uploadsOnlyUsedBy(db: Db, userId: string, videoId: string): Promise<UploadToRemove[]> {
  const boards = await db.selectFrom('video_storyboards').select(['video_id', 'document']).where('user_id', '=', userId).execute();
  const mine = new Set<string>();
  const others = new Set<string>();
  for (const board of boards) for (const id of uploadIdsIn(board.document)) (board.video_id === videoId ? mine : others).add(id);
  const only = [...mine].filter((id) => !others.has(id));
  if (only.length === 0) return [];
  return db.selectFrom('uploads').select(['id', 'user_id', 'file_name']).where('user_id', '=', userId).where('id', 'in', only).execute();
}

/** Deletes the uploads' rows and files; a file already gone is no error. */
export async function removeUploads(db: Db, files: UploadFiles, uploads: readonly UploadToRemove[]): Promise<void> {
  if (uploads.length === 0) return;
  await db
    .deleteFrom('uploads')
    .where(
      'id',
      'in',
      uploads.map((upload) => upload.id),
    )
    .execute();
  for (const upload of uploads) await files.remove(upload.user_id, upload.file_name);
}

/** Uploads older than `before` that no storyboard uses (uploaded and never used, or no longer used): deleted. */
export async function removeUnusedUploads(db: Db, files: UploadFiles, before: Date): Promise<number> {
  const old = await db
    .selectFrom('uploads')
    .select(['id', 'user_id', 'file_name'])
    .where('created_at', '<', before.toISOString())
    .execute();
  if (old.length === 0) return 0;
  const owners = [...new Set(old.map((upload) => upload.user_id))];
  const used = new Set<string>();
  for (const board of await db.selectFrom('video_storyboards').select('document').where('user_id', 'in', owners).execute()) {
    for (const id of uploadIdsIn(board.document)) used.add(id);
  }
  const unused = old.filter((upload) => !used.has(upload.id));
  await removeUploads(db, files, unused);
  return unused.length;
}
