import type { Kysely, Migration } from 'kysely';

/**
 * Storyboards: the editable scenes of a finished video, the versions its renders made,
 * and the pictures and music creators upload. `video_jobs.version` is the version the job's current
 * (or last) run makes: 1 for the first render, then one more per storyboard render.
 */
export const storyboards: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('video_jobs')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createTable('video_versions')
      .addColumn('video_id', 'text', (c) => c.notNull().references('video_jobs.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('output_token', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('video_versions_pk', ['video_id', 'version'])
      .execute();
    await db.schema
      .createTable('video_storyboards')
      .addColumn('video_id', 'text', (c) => c.primaryKey().references('video_jobs.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('duration_seconds', 'double precision')
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('uploads_user_idx').on('uploads').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('uploads').execute();
    await db.schema.dropTable('video_storyboards').execute();
    await db.schema.dropTable('video_versions').execute();
    await db.schema.alterTable('video_jobs').dropColumn('version').execute();
  },
};
