import type { Kysely, Migration } from 'kysely';
import { optionalText, requiredText, userColumn } from './migration-columns.js';

/**
 * The creator's YouTube, TikTok and Instagram accounts (one per platform), with their OAuth tokens
 * sealed under the encryption key, and the short-lived state of a connection under way (the OAuth
 * `state` and the PKCE verifier, kept here so the callback works on any API process).
 */
export const platformConnections: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('platform_connections')
      .$call(userColumn)
      .$call(requiredText('platform', 'account_id', 'account_name', 'access_token_sealed'))
      .$call(optionalText('refresh_token_sealed', 'expires_at'))
      .addColumn('scope', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('needs_reconnect', 'integer', (column) => column.notNull().defaultTo(0))
      .$call(requiredText('connected_at', 'updated_at'))
      .addPrimaryKeyConstraint('platform_connections_pk', ['user_id', 'platform'])
      .execute();
    await db.schema
      .createTable('platform_oauth_states')
      .addColumn('state', 'text', (column) => column.primaryKey())
      .$call(userColumn)
      .$call(requiredText('platform'))
      .$call(optionalText('code_verifier'))
      // SHA-256 of the random value the starting browser holds in a cookie: the callback must come
      // back to that browser (login CSRF: someone else's consent cannot land in this account).
      .addColumn('browser_binding', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('platform_oauth_states').execute();
    await db.schema.dropTable('platform_connections').execute();
  },
};
