import type { Kysely, Migration } from 'kysely';
import { createIndex, idAndUserColumns, requiredText, userColumn } from './migration-columns.js';

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
      .$call(userColumn)
      .$call(requiredText('document', 'updated_at'))
      .execute();
    await db.schema
      .createTable('uploads')
      .$call(idAndUserColumns)
      .$call(requiredText('kind', 'file_name', 'content_hash'))
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('duration_seconds', 'double precision')
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await createIndex(db, 'uploads_user_idx', 'uploads', ['user_id']);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('uploads').execute();
    await db.schema.dropTable('video_storyboards').execute();
    await db.schema.dropTable('video_versions').execute();
    await db.schema.alterTable('video_jobs').dropColumn('version').execute();
  },
};
