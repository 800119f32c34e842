import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, signInThroughApi, uniqueId } from './session.js';

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const WIDTH = 108;
const HEIGHT = 192;
/** The logo: a solid magenta square, easy to find in decoded frames. */
const LOGO_RGB = [255, 0, 255] as const;
/** The brand accent: the template's spoken word and the end card are drawn in it. */
const ACCENT = '#00C8FF';
const ACCENT_RGB = [0, 200, 255] as const;

/**
 * Decoded RGB24 frames of a file (a still or a stretch of the video) at 108x192, or at `size`;
 * `perSecond` samples a stretch at that many frames a second instead of decoding every frame.
 */
function decode(file: string, args: string[] = [], size = { width: WIDTH, height: HEIGHT }, perSecond?: number): Buffer[] {
  const sample = perSecond ? `fps=${perSecond},` : '';
  const raw = execFileSync(
    FFMPEG,
    [
      '-v',
      'error',
      ...args,
      '-i',
      file,
      '-vf',
      `${sample}scale=${size.width}:${size.height}:flags=area`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  const frameBytes = size.width * size.height * 3;
  return Array.from({ length: Math.floor(raw.length / frameBytes) }, (_, i) => raw.subarray(i * frameBytes, (i + 1) * frameBytes));
}

/** Pixels within `tolerance` of the colour inside the box (fractions of the frame), in a frame of `size`. */
function count(
  frame: Buffer,
  rgb: readonly number[],
  box: { x: [number, number]; y: [number, number] },
  tolerance = 70,
  size = { width: WIDTH, height: HEIGHT },
): number {
  let near = 0;
  for (let y = Math.floor(box.y[0] * size.height); y < Math.ceil(box.y[1] * size.height); y++) {
    for (let x = Math.floor(box.x[0] * size.width); x < Math.ceil(box.x[1] * size.width); x++) {
      const i = (y * size.width + x) * 3;
      if (Math.abs(frame[i]! - rgb[0]!) + Math.abs(frame[i + 1]! - rgb[1]!) + Math.abs(frame[i + 2]! - rgb[2]!) <= tolerance) near++;
    }
  }
  return near;
}

const TOP_RIGHT = { x: [0.5, 1], y: [0, 0.3] } as { x: [number, number]; y: [number, number] };
const ELSEWHERE = { x: [0, 0.5], y: [0, 1] } as { x: [number, number]; y: [number, number] };
const CAPTION_BAND = { x: [0, 1], y: [0.45, 0.75] } as { x: [number, number]; y: [number, number] };

test('a creator sets a brand, picks a caption template from its previews, and sees both in the poster and the frames', async ({ page }) => {
  test.setTimeout(6 * 60_000);
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-brand-e2e-'));
  const logo = join(dir, 'logo.png');
  execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF00FF:s=256x256', '-frames:v', '1', logo]);
  const user = await signInThroughApi(page, `brand-${uniqueId()}@example.com`, 'Brand Owner');

  // Settings → Brand: switch it on, upload the logo, top right, the accent, an end card.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Brand' }).click();
  await page.getByLabel('Apply my brand to new videos and re-renders').check();
  await page.getByLabel('Logo (PNG, JPEG, WebP or SVG)').setInputFiles(logo);
  await expect(page.getByText('A logo is set.')).toBeVisible();
  await page.getByLabel('Logo position').selectOption('top-right');
  await page.getByLabel('Accent colour (caption template highlights)').fill(ACCENT.toLowerCase());
  await page.getByLabel('End card', { exact: true }).check();
  await page.getByLabel('End card text').fill('@brandowner');
  await expect(page.getByRole('img', { name: 'Brand preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Save brand' }).click();
  await expect(page.getByText('Brand saved')).toBeVisible();
  const saved = await (await page.request.get('/api/brand', { headers: bearer(user) })).json();
  expect(saved).toMatchObject({
    enabled: true,
    logoPosition: 'top-right',
    accentColor: ACCENT,
    endCard: { text: '@brandowner', seconds: 2 },
  });

  // The studio: captions on, the Word Pop template picked from the previews.
  await page.goto('/');
  await page.getByLabel('Topic').fill(`Why lighthouses blink ${uniqueId()}`);
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await page.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  // The switch's track covers its input: the keyboard turns it on, as a keyboard user would.
  await page.getByRole('switch', { name: 'Captions' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('switch', { name: 'Captions' })).toBeChecked();
  const styles = page.getByRole('radiogroup', { name: 'Caption Style' });
  await expect(styles.getByRole('radio')).toHaveCount(13);
  await styles.getByText('Word Pop', { exact: true }).click();
  await expect(styles.getByRole('radio', { name: 'Word Pop' })).toBeChecked();
  await page.getByRole('button', { name: 'Generate Video' }).click();
  await expect(page.getByText('Video generation started! Watch the progress below.')).toBeVisible();

  const recent = page.getByRole('region', { name: /Recent Videos/ });
  await expect(recent.getByText('Completed', { exact: true })).toBeVisible({ timeout: 5 * 60_000 });
  const list = await (await page.request.get('/api/videos', { headers: bearer(user) })).json();
  const job = list.jobs[0];
  expect(job.params.captionStyle).toBe('word-pop');
  const video = join(dir, 'video.mp4');
  writeFileSync(video, await (await page.request.get(job.result.videoUrl)).body());
  const poster = join(dir, 'poster.jpg');
  writeFileSync(poster, await (await page.request.get(job.result.posterUrl)).body());
  expect(readFileSync(poster).length).toBeGreaterThan(1000);

  // Poster: the logo top right (nowhere else), and the first caption with its spoken word in the accent.
  const [still] = decode(poster);
  expect(count(still!, LOGO_RGB, TOP_RIGHT)).toBeGreaterThan(60);
  expect(count(still!, LOGO_RGB, ELSEWHERE)).toBe(0);
  // The spoken word's thin strokes at 4x the size: scaled down to 108x192 they average into their outline.
  const fine = { width: WIDTH * 4, height: HEIGHT * 4 };
  const [sharp] = decode(poster, [], fine);
  expect(count(sharp!, ACCENT_RGB, CAPTION_BAND, 90, fine)).toBeGreaterThan(200);

  // Frames: the logo in its corner throughout, the accent in the caption band while words are
  // spoken, and the end card (accent box) only on the closing card after the last word (the last two seconds).
  const early = decode(video, ['-ss', '1', '-t', '8'], undefined, 2);
  for (const frame of early) expect(count(frame, LOGO_RGB, TOP_RIGHT)).toBeGreaterThan(60);
  // The spoken word is looked for at 4x, as on the poster: at 108x192 a short word's strokes
  // average into their outline, and whether any pixel stays near the accent depended on the
  // words the narration happened to say (CI once found none in 16 frames).
  const earlyFine = decode(video, ['-ss', '1', '-t', '8'], fine, 2);
  expect(earlyFine.filter((frame) => count(frame, ACCENT_RGB, CAPTION_BAND, 90, fine) > 100).length).toBeGreaterThan(earlyFine.length / 2);
  const card = { x: [0.2, 0.8], y: [0.3, 0.45] } as { x: [number, number]; y: [number, number] };
  expect(early.every((frame) => count(frame, ACCENT_RGB, card, 90) < 20)).toBe(true);
  const [last] = decode(video, ['-sseof', '-0.5']);
  expect(count(last!, LOGO_RGB, TOP_RIGHT)).toBeGreaterThan(60);
  expect(count(last!, ACCENT_RGB, card, 90)).toBeGreaterThan(40);
});
