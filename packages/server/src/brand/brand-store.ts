import { brandKitSchema, DEFAULT_BRAND_KIT, type BrandKit } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { parseStoredJson } from '../db/stored-json.js';

type Db = Kysely<Database>;

/** A stored kit read back through the contract; a row that no longer parses reads as the default. */
export function parseBrandKit(json: string | null | undefined): BrandKit | null {
  return json ? (parseStoredJson(brandKitSchema, json) ?? null) : null;
}

export async function findBrandKit(db: Db, userId: string): Promise<BrandKit> {
  const row = await db.selectFrom('brand_kits').select('settings').where('user_id', '=', userId).executeTakeFirst();
  return parseBrandKit(row?.settings) ?? DEFAULT_BRAND_KIT;
}

export async function saveBrandKit(db: Db, userId: string, kit: BrandKit, now = new Date()): Promise<void> {
  const settings = JSON.stringify(kit);
  const updatedAt = now.toISOString();
  await db
    .insertInto('brand_kits')
    .values({ user_id: userId, settings, updated_at: updatedAt })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ settings, updated_at: updatedAt }))
    .execute();
}

/** The embed session's partner brand, if the partner gave one when minting it. */
export async function findSessionBrand(db: Db, sessionId: string): Promise<BrandKit | null> {
  const row = await db.selectFrom('sessions').select('brand').where('id', '=', sessionId).executeTakeFirst();
  return parseBrandKit(row?.brand);
}

export async function saveSessionBrand(db: Db, sessionId: string, kit: BrandKit): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ brand: JSON.stringify(kit) })
    .where('id', '=', sessionId)
    .execute();
}

/**
 * The brand a job renders with: the partner's, when it was made in a branded embed session, else the
 * account's kit when it is switched on, else none. Read when the job runs, so a re-render takes the
 * kit as it is then.
 */
export async function brandForJob(db: Db, job: { user_id: string; brand: string | null }): Promise<BrandKit | null> {
  const partner = parseBrandKit(job.brand);
  if (partner) return partner.enabled ? partner : null;
  const own = await findBrandKit(db, job.user_id);
  return own.enabled ? own : null;
}
