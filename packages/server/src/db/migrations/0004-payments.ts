import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, idColumn, optionalText, requiredText, timestamps } from './migration-columns.js';

/** Subscriptions (one per user) and the payment orders that pay for them. */
export const payments: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('subscriptions')
      .$call(idColumn)
      .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .$call(requiredText('plan_id', 'currency', 'status', 'start_date', 'end_date'))
      .$call(optionalText('cancelled_at', 'cancellation_reason', 'last_order_id'))
      .$call(timestamps)
      .execute();

    await db.schema
      .createTable('payment_orders')
      .$call(idAndUserColumns)
      .$call(requiredText('plan_id', 'currency'))
      .addColumn('amount', 'integer', (c) => c.notNull())
      .$call(requiredText('kind'))
      .$call(optionalText('period_end'))
      .$call(requiredText('status'))
      .addColumn('provider_order_id', 'text', (c) => c.notNull().unique())
      .$call(requiredText('provider'))
      .$call(optionalText('provider_payment_id'))
      .$call(requiredText('created_at'))
      .$call(optionalText('paid_at'))
      .execute();
    await createIndex(db, 'payment_orders_user_id_idx', 'payment_orders', ['user_id']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('payment_orders').execute();
    await db.schema.dropTable('subscriptions').execute();
  },
};
