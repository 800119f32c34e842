import type { Kysely, Migration } from 'kysely';

/** Subscriptions (one per user) and the payment orders that pay for them. */
export const payments: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text', (c) => c.notNull())
      .addColumn('cancelled_at', 'text')
      .addColumn('cancellation_reason', 'text')
      .addColumn('last_order_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('payment_orders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('period_end', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('provider_order_id', 'text', (c) => c.notNull().unique())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_payment_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('paid_at', 'text')
      .execute();
    await db.schema.createIndex('payment_orders_user_id_idx').on('payment_orders').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('payment_orders').execute();
    await db.schema.dropTable('subscriptions').execute();
  },
};
