import type { Insertable } from 'kysely';
import type { VideoJobsTable } from '../db/schema.js';

/**
 * Rows that tests and benches write straight into the database to set up history in any state and at
 * any date (the routes under test would refuse most of it). Each row starts from what a fresh record
 * holds; the caller names what its test is about.
 */

/** A video_jobs row: nothing run, nothing produced, last updated when created, unless `fields` say otherwise. */
export function videoJobRow(
  fields: Pick<VideoJobsTable, 'id' | 'user_id' | 'status' | 'created_at'> & Partial<Insertable<VideoJobsTable>>,
): Insertable<VideoJobsTable> {
  return {
    params: '{}',
    steps: '{}',
    result: null,
    error: null,
    current_step: null,
    updated_at: fields.created_at,
    started_at: null,
    completed_at: null,
    ...fields,
  };
}
