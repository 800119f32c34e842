import type { Kysely, Migration } from 'kysely';

/**
 * How long each pipeline step of each job took, written by the process that ran it (the same
 * figures /metrics counts): the admin's throughput charts read the last 24 h from here, so every API
 * process shows the same numbers whichever process ran the jobs. Numbered 0022: 0019–0021 are the
 * batch and publishing migrations of the same session's other branches.
 */
export const jobStepTimings: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('job_step_timings')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('job_id', 'text', (col) => col.notNull())
      .addColumn('step', 'text', (col) => col.notNull())
      .addColumn('seconds', 'double precision', (col) => col.notNull())
      .addColumn('finished_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('job_step_timings_finished_at_idx').on('job_step_timings').column('finished_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('job_step_timings').execute();
  },
};
