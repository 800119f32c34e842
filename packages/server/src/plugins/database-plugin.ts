import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createDatabase, migrateToLatest, type DatabaseDialect, type DatabaseHandle } from '../db/connection.js';
import type { Database } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbDialect: DatabaseDialect;
  }
}

export interface DatabasePluginOptions {
  /** An already open database (owned by the caller, not closed with the app). */
  handle?: DatabaseHandle;
}

/** Opens the database named by the config, runs pending migrations, and closes it with the app. */
export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, options) => {
    const owned = !options.handle;
    const handle = options.handle ?? createDatabase(app.config.database);
    try {
      const applied = await migrateToLatest(handle.db);
      if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
    } catch (error) {
      if (owned) await handle.db.destroy();
      throw error;
    }
    app.decorate('db', handle.db);
    app.decorate('dbDialect', handle.dialect);
    if (owned) app.addHook('onClose', async () => handle.db.destroy());
  },
  { name: 'database', fastify: '5.x', dependencies: ['config'] },
);
