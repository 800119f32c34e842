import type { Kysely, Migration } from 'kysely';

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
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('video_id', 'text', (column) => column.notNull().references('video_jobs.id').onDelete('cascade'))
      .addColumn('platform', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('active_key', 'text')
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('hashtags', 'text', (column) => column.notNull())
      .addColumn('privacy', 'text', (column) => column.notNull())
      .addColumn('publish_at', 'text')
      .addColumn('run_at', 'text', (column) => column.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('progress', 'integer', (column) => column.notNull().defaultTo(0))
      // Where an interrupted upload resumes (YouTube's session URI, TikTok's publish id, Instagram's container).
      .addColumn('remote_state', 'text')
      .addColumn('remote_id', 'text')
      .addColumn('url', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addColumn('published_at', 'text')
      .execute();
    await db.schema.createIndex('publications_active_key').on('publications').column('active_key').unique().execute();
    await db.schema.createIndex('publications_due').on('publications').columns(['status', 'run_at']).execute();
    await db.schema.createIndex('publications_video').on('publications').columns(['video_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('publications').execute();
  },
};
