import type { Kysely, Migration } from 'kysely';

/**
 * Admin User Management: a user's status (suspension and its reason), last sign-in, a month's usage
 * reset, a role an admin set by hand (it then outranks ADMIN_EMAILS), plans granted as a comp, and
 * the audit log of every admin action.
 */
export const adminUserManagement: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
      .execute();
    await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('suspension_reason', 'text').execute();
    await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('usage_reset_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('role_set_by_admin_at', 'text').execute();
    await db.schema.alterTable('subscriptions').addColumn('granted_by', 'text').execute();
    await db.schema
      .createTable('admin_audit_log')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('action', 'text', (column) => column.notNull())
      .addColumn('admin_id', 'text', (column) => column.notNull())
      .addColumn('admin_email', 'text', (column) => column.notNull())
      .addColumn('target_user_id', 'text', (column) => column.notNull())
      .addColumn('target_email', 'text', (column) => column.notNull())
      .addColumn('reason', 'text', (column) => column.notNull())
      .addColumn('details', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('admin_audit_log_created_idx').on('admin_audit_log').column('created_at').execute();
    await db.schema.createIndex('admin_audit_log_target_idx').on('admin_audit_log').columns(['target_user_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('admin_audit_log').execute();
    await db.schema.alterTable('subscriptions').dropColumn('granted_by').execute();
    for (const column of ['role_set_by_admin_at', 'usage_reset_at', 'last_sign_in_at', 'suspension_reason', 'suspended_at', 'status']) {
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
  },
};
