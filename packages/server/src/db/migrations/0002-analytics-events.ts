import type { Kysely, Migration } from 'kysely';

/** Page views, clicks and sign-in events sent by the web app and extension. */
export const analyticsEvents: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('analytics_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('path', 'text')
      .addColumn('method', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('ip_hash', 'text')
      .execute();
    await db.schema.createIndex('analytics_events_type_created_idx').on('analytics_events').columns(['type', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('analytics_events').execute();
  },
};
