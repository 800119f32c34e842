import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, idColumn, optionalText, requiredText } from './migration-columns.js';

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
      .$call(idAndUserColumns)
      .$call(requiredText('url', 'events', 'secret_encrypted', 'created_at'))
      .$call(optionalText('deleted_at'))
      .execute();
    await createIndex(db, 'webhooks_user_id_idx', 'webhooks', ['user_id']);

    await db.schema
      .createTable('webhook_deliveries')
      .$call(idColumn)
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .$call(requiredText('event_id', 'type', 'payload', 'status'))
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .$call(optionalText('next_attempt_at', 'locked_until'))
      .$call(requiredText('created_at'))
      .$call(optionalText('delivered_at'))
      .addUniqueConstraint('webhook_deliveries_webhook_event_unique', ['webhook_id', 'event_id'])
      .execute();
    await createIndex(db, 'webhook_deliveries_due_idx', 'webhook_deliveries', ['status', 'next_attempt_at']);

    await db.schema
      .createTable('webhook_attempts')
      .$call(idColumn)
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await createIndex(db, 'webhook_attempts_delivery_idx', 'webhook_attempts', ['delivery_id']);
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
