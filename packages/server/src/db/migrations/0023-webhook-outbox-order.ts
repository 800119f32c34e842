import type { Kysely, Migration } from 'kysely';

/**
 * `webhook_deliveries` is the webhook outbox: a job's completion or failure writes its deliveries
 * in the transaction that records it, and the dispatcher sends each endpoint's deliveries in the
 * order they were written (created_at, then id), one at a time. Its claim asks whether an earlier
 * delivery to the same endpoint is still pending; this index keeps that a short range read.
 */
export const webhookOutboxOrder: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('webhook_deliveries_endpoint_order_idx')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'status', 'created_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('webhook_deliveries_endpoint_order_idx').execute();
  },
};
