import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObjectStorage } from '../storage/object-storage.js';

/**
 * The creator's uploaded pictures and music, in the finished-files storage under
 * `uploads/<user id>/<upload id>.<ext>`: DATA_DIR/uploads/… locally (where they always were), the
 * bucket with S3. Renders read a worker-local copy (copyFor), so no process needs a shared volume.
 */
export class UploadFiles {
  constructor(private readonly storage: ObjectStorage) {}

  keyOf(userId: string, fileName: string): string {
    return `uploads/${userId}/${fileName}`;
  }

  /** Stores a prepared file (the storage takes ownership of it). */
  async store(userId: string, fileName: string, preparedPath: string): Promise<void> {
    await this.storage.put(this.keyOf(userId, fileName), preparedPath);
  }

  async remove(userId: string, fileName: string): Promise<void> {
    await this.storage.delete(this.keyOf(userId, fileName));
  }

  /**
   * A local copy of the upload inside `dir`, fetched once: an upload's file name carries its id and
   * an upload never changes, so a copy already there is the same bytes.
   */
  async copyFor(userId: string, fileName: string, dir: string): Promise<string> {
    const target = join(dir, fileName);
    if ((await stat(target).catch(() => null))?.isFile()) return target;
    // Downloaded beside the target and renamed in, so a crash never leaves a partial copy under its name.
    const partial = `${target}.${process.pid}.part`;
    await this.storage.download(this.keyOf(userId, fileName), partial);
    await rename(partial, target);
    return target;
  }
}
