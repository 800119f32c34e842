import type { Kysely, Migration } from 'kysely';

/** Video generation jobs; created now so usage counts are real, filled by the jobs service. */
export const videoJobs: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('video_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('current_step', 'text')
      .addColumn('step_progress', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('steps', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema.createIndex('video_jobs_user_created_idx').on('video_jobs').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('video_jobs_status_idx').on('video_jobs').column('status').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('video_jobs').execute();
  },
};
