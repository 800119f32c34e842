import type { Kysely, Migration } from 'kysely';
import { requiredText } from './migration-columns.js';

/**
 * The admin's choices that every process must share (voice, story and image providers): one row per
 * key, its value as JSON. They were a DATA_DIR/settings.json per process, which workers on other
 * machines never saw; the first start after this migration imports that file (settings/app-settings.ts).
 */
export const appSettings: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('app_settings')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .$call(requiredText('value', 'updated_at'))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('app_settings').execute();
  },
};
