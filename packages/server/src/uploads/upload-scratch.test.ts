import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeUploadScratch, removeLeftUploadScratch, removeUploadScratch, UPLOAD_SCRATCH_PREFIX } from './upload-scratch.js';

const root = mkdtempSync(join(tmpdir(), 'reelsmith-scratch-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('upload scratch folders', () => {
  it("removes at start-up the folders of processes that are gone and old ones, keeping a live process's", async () => {
    const gone = join(root, `${UPLOAD_SCRATCH_PREFIX}999999-abc`);
    const unnamed = join(root, `${UPLOAD_SCRATCH_PREFIX}xyz`);
    const liveOther = join(root, `${UPLOAD_SCRATCH_PREFIX}${process.ppid}-def`);
    const oldOther = join(root, `${UPLOAD_SCRATCH_PREFIX}${process.ppid}-old`);
    for (const dir of [gone, unnamed, liveOther, oldOther]) mkdirSync(dir);
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(oldOther, hoursAgo, hoursAgo);
    const mine = await makeUploadScratch(root);
    expect(await removeLeftUploadScratch(root)).toBe(3);
    expect(readdirSync(root).sort()).toEqual([liveOther, mine].map((dir) => dir.slice(root.length + 1)).sort());
    await removeUploadScratch(mine);
    expect(existsSync(mine)).toBe(false);
  });

  it('removes a process’s folders when it exits with an upload under way', () => {
    const main = fileURLToPath(new URL('./upload-scratch-test-main.ts', import.meta.url));
    const made = execFileSync(process.execPath, ['--import', 'tsx', main, root], { encoding: 'utf8', timeout: 60_000 }).trim();
    expect(made).toContain(UPLOAD_SCRATCH_PREFIX);
    expect(existsSync(made)).toBe(false);
  }, 90_000);
});
