import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, optionalText, requiredText } from './migration-columns.js';

/**
 * Batches (POST /api/batches): one row per batch, and on each of its jobs the batch and the row's
 * position in it. The jobs stay ordinary video jobs (My Videos, the queue, quota); the batch's status
 * and figures are read from them.
 */
export const videoBatches: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('video_batches')
      .$call(idAndUserColumns)
      .$call(optionalText('name'))
      .$call(requiredText('created_at'))
      // Set once, by whichever process saw the last row finish (or the cancel): batch.completed goes out once.
      .$call(optionalText('completed_at', 'cancelled_at'))
      .execute();
    await createIndex(db, 'video_batches_user_created', 'video_batches', ['user_id', 'created_at']);
    await db.schema.alterTable('video_jobs').addColumn('batch_id', 'text').execute();
    await db.schema.alterTable('video_jobs').addColumn('batch_index', 'integer').execute();
    await createIndex(db, 'video_jobs_batch', 'video_jobs', ['batch_id', 'batch_index']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('video_jobs_batch').execute();
    await db.schema.alterTable('video_jobs').dropColumn('batch_index').execute();
    await db.schema.alterTable('video_jobs').dropColumn('batch_id').execute();
    await db.schema.dropTable('video_batches').execute();
  },
};
