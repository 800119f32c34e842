import type { Kysely, Migration } from 'kysely';

/**
 * What each version's render did (its wall time, scene segments rendered and reused), as the
 * contract's RenderStats JSON; NULL for versions rendered before it was recorded.
 */
export const versionRenderStats: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('video_versions').addColumn('render_stats', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('video_versions').dropColumn('render_stats').execute();
  },
};
