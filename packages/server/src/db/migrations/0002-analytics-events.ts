import type { Kysely, Migration } from 'kysely';
import { createIndex, idColumn, optionalText, requiredText } from './migration-columns.js';

/** Page views, clicks and sign-in events sent by the web app and extension. */
export const analyticsEvents: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('analytics_events')
      .$call(idColumn)
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .$call(requiredText('type'))
      .$call(optionalText('name', 'path', 'method'))
      .$call(requiredText('created_at'))
      .$call(optionalText('ip_hash'))
      .execute();
    await createIndex(db, 'analytics_events_type_created_idx', 'analytics_events', ['type', 'created_at']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('analytics_events').execute();
  },
};
