import type { Kysely, Migration } from 'kysely';

/**
 * Runs of a job claimed since it last stopped cleanly: a job whose runs crashed the process (or its
 * worker) twice is failed instead of resumed a third time (job-worker.ts).
 */
export const jobUnfinishedRuns: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('video_jobs')
      .addColumn('unfinished_runs', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('video_jobs').dropColumn('unfinished_runs').execute();
  },
};
