import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.js';

type Db = Kysely<Database>;
export type UploadRow = Selectable<UploadsTable>;

/** The user's upload; another user's upload is indistinguishable from a missing one. */
export function findUserUpload(db: Db, userId: string, uploadId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertUpload(db: Db, row: Insertable<UploadsTable>): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}
