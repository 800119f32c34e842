import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolderForTest } from '../testing/temp-folder.js';
import { downloadDisposition } from './output-plugin.js';
import { LocalStorage } from '../storage/local-storage.js';
import { isOutputToken, newOutputToken, publishOutput, removeOutput, slugifyTitle } from './output-files.js';

const tempDir = () => tempFolderForTest('reelsmith-output-');

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
    const published = await publishOutput(new LocalStorage(outputDir), {
      videoPath: join(workspace, 'video.mp4'),
      posterPath: join(workspace, 'poster.jpg'),
      title: 'Night Sky',
    });
    expect(published.videoUrl).toBe(`/output/${published.token}/night-sky.mp4`);
    expect(published.posterUrl).toBe(`/output/${published.token}/night-sky.jpg`);
    expect(published).toMatchObject({ filename: 'night-sky.mp4', sizeBytes: 1200, videoBytes: 1000 });
    expect(existsSync(join(workspace, 'video.mp4'))).toBe(false);
    expect(existsSync(join(outputDir, 'output', published.token, 'night-sky.mp4'))).toBe(true);

    await removeOutput(new LocalStorage(outputDir), '..');
    expect(existsSync(outputDir)).toBe(true);
    await removeOutput(new LocalStorage(outputDir), published.token);
    expect(existsSync(join(outputDir, 'output', published.token))).toBe(false);
  });

  it('leaves no half-published directory when a file is missing', async () => {
    const outputDir = tempDir();
    const storage = new LocalStorage(outputDir);
    await expect(
      publishOutput(storage, { videoPath: '/nonexistent/video.mp4', posterPath: '/nonexistent/poster.jpg', title: 'x' }),
    ).rejects.toThrow();
    expect(await storage.list('output/')).toEqual([]);
  });
});

describe('downloadDisposition', () => {
  const jobId = '0b6f2c1e-5d7a-4c39-9a57-2f0e8b1d4c11';

  it('keeps a Latin title and the job id in the ASCII fallback', () => {
    expect(downloadDisposition('Night Sky', jobId, 'mp4')).toBe(
      `attachment; filename="night-sky-${jobId}.mp4"; filename*=UTF-8''Night%20Sky.mp4`,
    );
  });

  it('gives Hindi and Japanese titles their own UTF-8 name and a fallback that never collides', () => {
    const hindi = downloadDisposition('समुद्र की कहानी', jobId, 'mp4');
    expect(hindi).toContain(`filename="reelsmith-video-${jobId}.mp4"`);
    expect(hindi).toContain(`filename*=UTF-8''${encodeURIComponent('समुद्र की कहानी')}.mp4`);
    const japanese = downloadDisposition('海の物語', 'other-id', 'mp4');
    expect(japanese).toContain('filename="reelsmith-video-other-id.mp4"');
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(japanese)![1]!)).toBe('海の物語.mp4');
    // A storyboard version keeps its number in both names, after the title's length limit.
    const v2 = downloadDisposition('x'.repeat(200), jobId, 'mp4', '-v2');
    expect(v2).toContain(`-v2-${jobId}.mp4"`);
    expect(v2).toMatch(/-v2\.mp4$/);
  });

  it('escapes what a header or a file system cannot hold', () => {
    const value = downloadDisposition(`Bob's "best" (cut) / 100%*`, jobId, 'mp4');
    expect(value).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|#-]+$/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(value)![1]!)).toBe(`Bob's "best" (cut) _ 100%*.mp4`.replace(/["*]/g, '_'));
  });
});
