import { copyFile, mkdir, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where stored uploads live: DATA_DIR/uploads/<user id>/<upload id>.<ext>. A small local module so the
 * storage layer can later route the same three operations elsewhere.
 */
export class UploadFiles {
  constructor(private readonly root: string) {}

  pathOf(userId: string, fileName: string): string {
    return join(this.root, userId, fileName);
  }

  /** Moves a prepared file in; returns its stored path. */
  async store(userId: string, fileName: string, preparedPath: string): Promise<string> {
    const target = this.pathOf(userId, fileName);
    await mkdir(join(this.root, userId), { recursive: true });
    try {
      await rename(preparedPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(preparedPath, target);
      await unlink(preparedPath);
    }
    return target;
  }

  async remove(userId: string, fileName: string): Promise<void> {
    await rm(this.pathOf(userId, fileName), { force: true });
  }
}
