import type { Kysely, Migration } from 'kysely';

/**
 * Developer API: API keys can be revoked; sessions carry a scope (full, or an embed
 * session minted with an API key); webhooks with their deliveries and every delivery attempt.
 * Deliveries live here so they survive restarts and are sent by whichever process polls first.
 */
export const developerApi: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('api_keys').addColumn('revoked_at', 'text').execute();
    await db.schema
      .alterTable('sessions')
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo('full'))
      .execute();
    await db.schema.alterTable('sessions').addColumn('api_key_id', 'text').execute();

    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret_encrypted', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('deleted_at', 'text')
      .execute();
    await db.schema.createIndex('webhooks_user_id_idx').on('webhooks').column('user_id').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .addUniqueConstraint('webhook_deliveries_webhook_event_unique', ['webhook_id', 'event_id'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').column('delivery_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhooks').execute();
    await db.schema.alterTable('sessions').dropColumn('api_key_id').execute();
    await db.schema.alterTable('sessions').dropColumn('scope').execute();
    await db.schema.alterTable('api_keys').dropColumn('revoked_at').execute();
  },
};
