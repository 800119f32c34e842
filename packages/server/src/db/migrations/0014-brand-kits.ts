import type { Kysely, Migration } from 'kysely';
import { requiredText } from './migration-columns.js';

/**
 * The creator's brand kit (logo, caption font, accent, end card) as one JSON row per account, and the
 * partner brand an embed session carries, copied onto each job made in it so a re-render keeps it.
 */
export const brandKits: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('brand_kits')
      .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
      .$call(requiredText('settings', 'updated_at'))
      .execute();
    await db.schema.alterTable('sessions').addColumn('brand', 'text').execute();
    await db.schema.alterTable('video_jobs').addColumn('brand', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('video_jobs').dropColumn('brand').execute();
    await db.schema.alterTable('sessions').dropColumn('brand').execute();
    await db.schema.dropTable('brand_kits').execute();
  },
};
