import { sql, type Kysely, type Migration } from 'kysely';
import { createIndex, requiredText, userColumn } from './migration-columns.js';

/**
 * One row per video a user made, written with the job and kept when the job is deleted: quotas
 * count videos made, so deleting a finished video cannot hand its slot back. Existing jobs are
 * copied in so usage carries over.
 */
export const videoUsage: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('video_usage')
      .addColumn('job_id', 'text', (c) => c.primaryKey())
      .$call(userColumn)
      .$call(requiredText('created_at'))
      .execute();
    await createIndex(db, 'video_usage_user_created_idx', 'video_usage', ['user_id', 'created_at']);
    await sql`insert into video_usage (job_id, user_id, created_at) select id, user_id, created_at from video_jobs`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('video_usage').execute();
  },
};
