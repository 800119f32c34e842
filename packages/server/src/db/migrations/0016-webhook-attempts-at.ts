import type { Kysely, Migration } from 'kysely';

/**
 * The webhook dispatcher counts each tenant's delivery attempts of the last minute before it sends
 * more (a per-minute cap); this index keeps that count a range read as the attempt log grows.
 */
export const webhookAttemptsAt: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('webhook_attempts_at_idx').on('webhook_attempts').column('at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('webhook_attempts_at_idx').execute();
  },
};
