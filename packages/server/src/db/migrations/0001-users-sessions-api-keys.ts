import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, idColumn, optionalText, requiredText, timestamps } from './migration-columns.js';

/** Accounts, sign-in sessions and API keys. */
export const usersSessionsApiKeys: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .$call(idColumn)
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('google_sub', 'text', (c) => c.unique())
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
      .$call(timestamps)
      .execute();

    await db.schema
      .createTable('sessions')
      .$call(idAndUserColumns)
      .$call(requiredText('created_at', 'expires_at'))
      .$call(optionalText('revoked_at', 'user_agent'))
      .execute();
    await createIndex(db, 'sessions_user_id_idx', 'sessions', ['user_id']);

    await db.schema
      .createTable('api_keys')
      .$call(idAndUserColumns)
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .$call(requiredText('key_prefix', 'key_encrypted', 'name', 'created_at'))
      .addColumn('last_used_at', 'text')
      .execute();
    await createIndex(db, 'api_keys_user_id_idx', 'api_keys', ['user_id']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('api_keys').execute();
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};
