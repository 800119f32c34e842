import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The temporary folders an upload is received and decoded in (`reelsmith-upload-<pid>-…` in the
 * temp dir). Each is removed when its upload is answered; those of a process that ended mid-upload
 * (its shutdown grace ran out with an upload arriving, a crash) are removed on exit and at the next
 * start-up, so they never pile up.
 */
export const UPLOAD_SCRATCH_PREFIX = 'reelsmith-upload-';

/** A folder of a live process is left alone at start-up unless it is this old (no upload takes an hour). */
const STALE_AFTER_MS = 60 * 60_000;

const live = new Set<string>();
let exitHook = false;

function removeLiveSync(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

export async function makeUploadScratch(root = tmpdir()): Promise<string> {
  if (!exitHook) {
    exitHook = true;
    // Synchronous: 'exit' runs no more asynchronous work.
    process.once('exit', removeLiveSync);
  }
  const dir = await mkdtemp(join(root, `${UPLOAD_SCRATCH_PREFIX}${process.pid}-`));
  live.add(dir);
  return dir;
}

export async function removeUploadScratch(dir: string): Promise<void> {
  live.delete(dir);
  await rm(dir, { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Start-up: removes the scratch folders left by processes that are gone (their pid is in the name),
 * and any older than an hour; returns how many. Another live process's folders are kept.
 */
export async function removeLeftUploadScratch(root = tmpdir(), now = Date.now()): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(UPLOAD_SCRATCH_PREFIX)) continue;
    const dir = join(root, name);
    if (live.has(dir)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(UPLOAD_SCRATCH_PREFIX.length))?.[1]);
    const orphaned = !Number.isInteger(pid) || pid <= 0 || (pid !== process.pid && !processAlive(pid));
    const info = await stat(dir).catch(() => null);
    if (!info) continue;
    if (orphaned || now - info.mtimeMs > STALE_AFTER_MS) {
      await rm(dir, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
