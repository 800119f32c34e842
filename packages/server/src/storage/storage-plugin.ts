import fp from 'fastify-plugin';
import { createStorage } from './create-storage.js';
import type { ObjectStorage } from './object-storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Finished videos, posters, uploads and voice samples: local files or an S3 bucket (S3_BUCKET). */
    storage: ObjectStorage;
  }
}

export interface StoragePluginOptions {
  /** Use this storage instead of the one the config names (tests). */
  storage?: ObjectStorage;
}

export const storagePlugin = fp<StoragePluginOptions>(
  async (app, options) => {
    const storage = options.storage ?? createStorage(app.config);
    app.decorate('storage', storage);
    if (storage.kind === 's3') app.log.info({ bucket: storage.bucket }, 'finished files are stored in S3');
  },
  { name: 'storage', fastify: '5.x', dependencies: ['config'] },
);
