import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, optionalText, requiredText, timestamps } from './migration-columns.js';

/** Video generation jobs; created now so usage counts are real, filled by the jobs service. */
export const videoJobs: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('video_jobs')
      .$call(idAndUserColumns)
      .$call(requiredText('status', 'params'))
      .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('current_step', 'text')
      .addColumn('step_progress', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('steps', 'text', (c) => c.notNull())
      .$call(optionalText('result', 'error'))
      .$call(timestamps)
      .$call(optionalText('started_at', 'completed_at'))
      .execute();
    await createIndex(db, 'video_jobs_user_created_idx', 'video_jobs', ['user_id', 'created_at']);
    await createIndex(db, 'video_jobs_status_idx', 'video_jobs', ['status']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('video_jobs').execute();
  },
};
