import type { Kysely, Migration } from 'kysely';
import { createIndex, idColumn, requiredText } from './migration-columns.js';

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
      .$call(idColumn)
      .$call(requiredText('job_id', 'step'))
      .addColumn('seconds', 'double precision', (col) => col.notNull())
      .$call(requiredText('finished_at'))
      .execute();
    await createIndex(db, 'job_step_timings_finished_at_idx', 'job_step_timings', ['finished_at']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('job_step_timings').execute();
  },
};
