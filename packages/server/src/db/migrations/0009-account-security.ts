import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import { createIndex, optionalText, requiredText, userColumn } from './migration-columns.js';

/** In this database's own schema only (introspection would also see other schemas' tables). */
async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const found =
      await sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(
        db,
      );
    return found.rows.length > 0;
  }
  const columns = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return columns.rows.some((row) => row.name === column);
}

/**
 * E-mail verification and password reset: when an address was proven, single-use e-mailed
 * tokens (stored as SHA-256 only), and a role set by an operator or admin that outranks ADMIN_EMAILS.
 * Accounts linked to Google count as verified; the others verify from the next link they are sent.
 */
export const accountSecurity: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
    await db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('google_sub', 'is not', null).execute();
    // Another branch's migration (admin user management) may have added this column already.
    if (!(await hasColumn(db, 'users', 'role_set_by_admin_at'))) {
      await db.schema.alterTable('users').addColumn('role_set_by_admin_at', 'text').execute();
    }
    await db.schema
      .createTable('email_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .$call(userColumn)
      .$call(requiredText('purpose', 'email', 'created_at', 'expires_at'))
      .$call(optionalText('used_at'))
      .execute();
    await createIndex(db, 'email_tokens_user_idx', 'email_tokens', ['user_id', 'purpose']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('email_tokens').execute();
    await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  },
};
