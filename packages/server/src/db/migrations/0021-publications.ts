import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, optionalText, requiredText, timestamps } from './migration-columns.js';

/**
 * One row per video and platform the creator published to: the table is the publishing queue (a row
 * is due when `run_at` has passed and nobody holds its claim), so a scheduled post survives restarts
 * and runs once however many API processes look. `active_key` is `<video>:<platform>` while the
 * publication is live (queued, under way or published) and null once it failed or was cancelled: its
 * unique index keeps a video from going to one platform twice unless the creator asks again.
 */
export const publications: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('publications')
      .$call(idAndUserColumns)
      .addColumn('video_id', 'text', (column) => column.notNull().references('video_jobs.id').onDelete('cascade'))
      .$call(requiredText('platform', 'status'))
      .$call(optionalText('active_key'))
      .$call(requiredText('title', 'description', 'hashtags', 'privacy'))
      .$call(optionalText('publish_at'))
      .$call(requiredText('run_at'))
      .$call(optionalText('claimed_until'))
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('progress', 'integer', (column) => column.notNull().defaultTo(0))
      // Where an interrupted upload resumes (YouTube's session URI, TikTok's publish id, Instagram's container).
      .$call(optionalText('remote_state', 'remote_id', 'url', 'error'))
      .$call(timestamps)
      .$call(optionalText('published_at'))
      .execute();
    await db.schema.createIndex('publications_active_key').on('publications').column('active_key').unique().execute();
    await createIndex(db, 'publications_due', 'publications', ['status', 'run_at']);
    await createIndex(db, 'publications_video', 'publications', ['video_id', 'created_at']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('publications').execute();
  },
};
