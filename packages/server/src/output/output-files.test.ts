import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentDisposition } from './output-plugin.js';
import { isOutputToken, newOutputToken, publishOutput, removeOutput, slugifyTitle } from './output-files.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-output-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('slugifyTitle', () => {
  it.each([
    ['Why Octopuses Have 3 Hearts!', 'why-octopuses-have-3-hearts'],
    ['  Café   Crème — à la carte ', 'cafe-creme-a-la-carte'],
    ['../../etc/passwd', 'etc-passwd'],
    ['समुद्र की कहानी', 'reelsmith-video'],
    ['', 'reelsmith-video'],
    ['a'.repeat(80), 'a'.repeat(60)],
  ])('%j → %j', (title, slug) => {
    expect(slugifyTitle(title)).toBe(slug);
  });
});

describe('output tokens', () => {
  it('are 128 random bits in hex, never repeated', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newOutputToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(isOutputToken(token)).toBe(true);
    expect(isOutputToken('../x')).toBe(false);
  });
});

describe('publishOutput and removeOutput', () => {
  it('moves the files into a token directory and removes them again', async () => {
    const workspace = tempDir();
    const outputDir = tempDir();
    writeFileSync(join(workspace, 'video.mp4'), Buffer.alloc(1000));
    writeFileSync(join(workspace, 'poster.jpg'), Buffer.alloc(200));
    const published = await publishOutput(outputDir, { videoPath: join(workspace, 'video.mp4'), posterPath: join(workspace, 'poster.jpg'), title: 'Night Sky' });
    expect(published.videoUrl).toBe(`/output/${published.token}/night-sky.mp4`);
    expect(published.posterUrl).toBe(`/output/${published.token}/night-sky.jpg`);
    expect(published).toMatchObject({ filename: 'night-sky.mp4', sizeBytes: 1200, videoBytes: 1000 });
    expect(existsSync(join(workspace, 'video.mp4'))).toBe(false);
    expect(existsSync(join(outputDir, published.token, 'night-sky.mp4'))).toBe(true);

    await removeOutput(outputDir, '..');
    expect(existsSync(outputDir)).toBe(true);
    await removeOutput(outputDir, published.token);
    expect(existsSync(join(outputDir, published.token))).toBe(false);
  });

  it('leaves no half-published directory when a file is missing', async () => {
    const outputDir = tempDir();
    await expect(publishOutput(outputDir, { videoPath: '/nonexistent/video.mp4', posterPath: '/nonexistent/poster.jpg', title: 'x' })).rejects.toThrow();
    expect(readdirSync(outputDir)).toEqual([]);
  });
});

describe('attachmentDisposition', () => {
  it('names the file for the browser, escaping what a header cannot hold', () => {
    expect(attachmentDisposition('night-sky.mp4')).toBe(`attachment; filename="night-sky.mp4"; filename*=UTF-8''night-sky.mp4`);
    expect(attachmentDisposition('a"b.mp4')).toBe(`attachment; filename="a_b.mp4"; filename*=UTF-8''a%22b.mp4`);
  });
});
