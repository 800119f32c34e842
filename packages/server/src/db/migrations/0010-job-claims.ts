import type { Kysely, Migration } from 'kysely';

/**
 * Scale mode: which BullMQ lock (the job token) owns a running job, and until when. A second
 * claimant backs off while the claim is fresh; the owner renews it while rendering and stops when
 * it finds the claim taken (it stalled past the lock and another worker took over).
 */
export const jobClaims: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('video_jobs').addColumn('claim_token', 'text').execute();
    await db.schema.alterTable('video_jobs').addColumn('claim_expires_at', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('video_jobs').dropColumn('claim_expires_at').execute();
    await db.schema.alterTable('video_jobs').dropColumn('claim_token').execute();
  },
};
