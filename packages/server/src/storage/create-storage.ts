import type { Config } from '../config.js';
import { LocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

/** S3 when S3_BUCKET is set, files under DATA_DIR otherwise. */
export function createStorage(config: Pick<Config, 'storage' | 'paths'>): ObjectStorage {
  const settings = config.storage;
  if (settings.kind === 's3') return new S3Storage(settings);
  return new LocalStorage(config.paths.dataDir);
}
