import fp from 'fastify-plugin';
import { join } from 'node:path';
import { AppSettings } from '../app-settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The admin's provider choices, shared by every process through the database. */
    appSettings: AppSettings;
  }
}

export const appSettingsPlugin = fp(
  async (app) => {
    const settings = new AppSettings(app.db, { legacyFile: join(app.config.paths.dataDir, 'settings.json') });
    await settings.start();
    app.decorate('appSettings', settings);
    app.addHook('onClose', async () => settings.stop());
  },
  { name: 'app-settings', fastify: '5.x', dependencies: ['config', 'database'] },
);
