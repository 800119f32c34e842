import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.js';

type Db = Kysely<Database>;
export type UploadRow = Selectable<UploadsTable>;

/** The user's upload; another user's upload is indistinguishable from a missing one. */
export function findUserUpload(db: Db, userId: string, uploadId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).where('user_id', '=', userId).executeTakeFirst();
}

export const LOGO_UPLOAD_MESSAGES = {
  missing: 'That logo upload does not exist. Upload the logo again.',
  notPicture: 'That upload is a sound, not a picture. Upload the logo as a PNG, JPEG or WebP picture.',
} as const;

/**
 * Why `uploadId` cannot be this user's logo, or null when it can: it must be their own upload (another
 * account's is refused exactly like a missing one) and a picture. Every place that names a logo
 * (the brand, an embed session's brand) asks this.
 */
export async function logoUploadRefusal(db: Db, userId: string, uploadId: string): Promise<string | null> {
  const upload = await findUserUpload(db, userId, uploadId);
  if (!upload) return LOGO_UPLOAD_MESSAGES.missing;
  return upload.kind === 'image' ? null : LOGO_UPLOAD_MESSAGES.notPicture;
}

export async function insertUpload(db: Db, row: Insertable<UploadsTable>): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}
