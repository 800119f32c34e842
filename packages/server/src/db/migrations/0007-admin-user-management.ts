import type { Kysely, Migration } from 'kysely';
import { createIndex, idColumn, requiredText } from './migration-columns.js';

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
      .$call(idColumn)
      .$call(requiredText('action', 'admin_id', 'admin_email', 'target_user_id', 'target_email', 'reason', 'details', 'created_at'))
      .execute();
    await createIndex(db, 'admin_audit_log_created_idx', 'admin_audit_log', ['created_at']);
    await createIndex(db, 'admin_audit_log_target_idx', 'admin_audit_log', ['target_user_id', 'created_at']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('admin_audit_log').execute();
    await db.schema.alterTable('subscriptions').dropColumn('granted_by').execute();
    for (const column of ['role_set_by_admin_at', 'usage_reset_at', 'last_sign_in_at', 'suspension_reason', 'suspended_at', 'status']) {
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
  },
};
