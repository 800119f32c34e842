import type { Kysely, Migration } from 'kysely';

/**
 * Batches (POST /api/batches): one row per batch, and on each of its jobs the batch and the row's
 * position in it. The jobs stay ordinary video jobs (My Videos, the queue, quota); the batch's status
 * and figures are read from them.
 */
export const videoBatches: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('video_batches')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      // Set once, by whichever process saw the last row finish (or the cancel): batch.completed goes out once.
      .addColumn('completed_at', 'text')
      .addColumn('cancelled_at', 'text')
      .execute();
    await db.schema.createIndex('video_batches_user_created').on('video_batches').columns(['user_id', 'created_at']).execute();
    await db.schema.alterTable('video_jobs').addColumn('batch_id', 'text').execute();
    await db.schema.alterTable('video_jobs').addColumn('batch_index', 'integer').execute();
    await db.schema.createIndex('video_jobs_batch').on('video_jobs').columns(['batch_id', 'batch_index']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('video_jobs_batch').execute();
    await db.schema.alterTable('video_jobs').dropColumn('batch_index').execute();
    await db.schema.alterTable('video_jobs').dropColumn('batch_id').execute();
    await db.schema.dropTable('video_batches').execute();
  },
};
