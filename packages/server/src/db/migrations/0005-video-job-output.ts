import type { Kysely, Migration } from 'kysely';
import { createIndex } from './migration-columns.js';

/**
 * Where a finished job's files live (the random directory under DATA_DIR/output) and how big they
 * are, so deleting a job and summing storage need no JSON parsing; plus the queue's lookup index.
 */
export const videoJobOutput: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('video_jobs').addColumn('output_token', 'text').execute();
    await db.schema.alterTable('video_jobs').addColumn('size_bytes', 'bigint').execute();
    await createIndex(db, 'video_jobs_status_created_idx', 'video_jobs', ['status', 'created_at']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('video_jobs_status_created_idx').execute();
    await db.schema.alterTable('video_jobs').dropColumn('size_bytes').execute();
    await db.schema.alterTable('video_jobs').dropColumn('output_token').execute();
  },
};
