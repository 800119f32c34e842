import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
/** The creator's own picture: one solid colour, easy to find in the decoded frames. */
const PICTURE_RGB = [30, 144, 255] as const;

async function signUpAndSignIn(page: Page, name: string, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText(`Welcome back, ${name}!`)).toBeVisible();
}

/** Decoded frames (RGB24 at a small size) of `file` from `start` for `seconds`, one buffer per frame. */
function frames(file: string, start: number, seconds: number, size = '90x160'): Buffer[] {
  const [width, height] = size.split('x').map(Number) as [number, number];
  const raw = execFileSync(
    FFMPEG,
    [
      '-v',
      'error',
      '-ss',
      start.toFixed(3),
      '-i',
      file,
      '-t',
      seconds.toFixed(3),
      '-vf',
      `scale=${size}:flags=neighbor`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  const frameBytes = width * height * 3;
  return Array.from({ length: Math.floor(raw.length / frameBytes) }, (_, i) => raw.subarray(i * frameBytes, (i + 1) * frameBytes));
}

/** Share of pixels within `tolerance` of the colour. */
function colourShare(frame: Buffer, rgb: readonly number[], tolerance = 24): number {
  let near = 0;
  for (let i = 0; i < frame.length; i += 3) {
    if (
      Math.abs(frame[i]! - rgb[0]!) <= tolerance &&
      Math.abs(frame[i + 1]! - rgb[1]!) <= tolerance &&
      Math.abs(frame[i + 2]! - rgb[2]!) <= tolerance
    )
      near++;
  }
  return near / (frame.length / 3);
}

/** Screenshots at desktop and phone width for a person to look at (E2E_SCREENSHOT_DIR; none when unset). */
async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  const size = page.viewportSize();
  await page.screenshot({ path: join(dir, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(dir, `${name}-phone.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
}

test('a creator edits scene 2 in the storyboard, renders v2, and both versions download', async ({ page }) => {
  test.setTimeout(10 * 60_000);
  const work = mkdtempSync(join(tmpdir(), 'reelsmith-storyboard-e2e-'));
  const picture = join(work, 'my-picture.png');
  execFileSync(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=0x${PICTURE_RGB.map((c) => c.toString(16).padStart(2, '0')).join('')}:s=720x1280`,
    '-frames:v',
    '1',
    picture,
  ]);

  const id = unique();
  // A plain topic: the writer repeats it in the narration, and a random suffix would make the narration
  // overrun 30 s, which the renderer fits by speeding all of it up (so every scene's timing would move).
  const topic = 'Why octopuses have three hearts';
  await signUpAndSignIn(page, 'Ria Story', `storyboard-${id}@example.com`, 'correct-horse');

  // A 30 s video, generated the ordinary way.
  await page.getByLabel('Topic').fill(topic);
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await page.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await expect(page.getByLabel('Duration')).toHaveValue('30');
  await page.getByRole('button', { name: 'Generate Video' }).click();
  const recent = page.getByRole('region', { name: /Recent Videos/ });
  await expect(recent.getByText('Completed', { exact: true })).toBeVisible({ timeout: 5 * 60_000 });

  // Open its storyboard from the Studio's recent list.
  await recent.getByRole('link', { name: `Edit ${topic}` }).click();
  await expect(page).toHaveURL(/\/videos\/[^/]+\/edit$/);
  const videoId = page.url().split('/').at(-2)!;
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 1 })).toBeVisible();
  const scene1 = page.getByRole('listitem', { name: 'Scene 1' });
  const scene2 = page.getByRole('listitem', { name: 'Scene 2' });
  await expect(scene1.getByRole('img', { name: 'Picture of scene 1' })).toBeVisible();
  await expect(scene1.getByText(/^0\.0 s · \d+\.\d s$/)).toBeVisible();
  // The offline painter says what it drew: the topic's subject opens the video.
  await expect(scene1.getByText('Shows: octopus')).toBeVisible();

  // Scene 2: new words (shorter, so the other scenes keep their timing) and the creator's own picture.
  await scene2.getByLabel('Narration').fill('Two hearts pump blood through the gills.');
  await scene2.getByLabel('Upload a picture for scene 2').setInputFiles(picture);
  await expect(page.getByText('Picture added to scene 2')).toBeVisible();
  await expect(scene2.getByText('Your picture')).toBeVisible();

  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await expect(page.getByText('Rendering version 2').first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Progress of the render' })).toBeVisible();
  await expect(page.getByText('Version 2 is ready')).toBeVisible({ timeout: 5 * 60_000 });

  // v2 plays in the page.
  const player = page.locator('video[data-version="2"]');
  await expect(player).toBeVisible();
  await player.evaluate(async (video: HTMLVideoElement) => {
    video.muted = true;
    await video.play();
  });
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);
  await expect(scene2.getByRole('img', { name: 'Picture of scene 2' })).toBeVisible();

  await shoot(page, 'storyboard');

  // The scenes' places in v2, as the storyboard reports them.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const board = await (
    await page.request.get(`/api/videos/${videoId}/storyboard`, { headers: { Authorization: `Bearer ${token}` } })
  ).json();
  expect(board.version).toBe(2);
  const [first, second] = board.scenes as Array<{ startSeconds: number; durationSeconds: number }>;

  // Both versions download from My Videos' version menu.
  await page.goto('/videos');
  const row = page.getByRole('listitem').filter({ hasText: topic });
  const versionSelect = row.getByLabel('Version', { exact: true });
  await expect(versionSelect.locator('option')).toHaveCount(2);
  const downloads: string[] = [];
  for (const version of [1, 2]) {
    await versionSelect.selectOption(String(version));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download version ${version}` }).click(),
    ]);
    // Each version's file carries its number from v2 on, so the two downloads never overwrite each other.
    if (version === 1) expect(download.suggestedFilename()).not.toMatch(/-v\d+\.mp4$/);
    else expect(download.suggestedFilename()).toMatch(new RegExp(`-v${version}\\.mp4$`));
    const path = join(work, `v${version}.mp4`);
    await download.saveAs(path);
    downloads.push(path);
  }
  const [v1, v2] = downloads as [string, string];
  await shoot(page, 'my-videos');

  // Scene 2 of v2 shows the uploaded picture (and v1's did not).
  const middleOfScene2 = second!.startSeconds + second!.durationSeconds / 2;
  const [v2Scene2] = frames(v2, middleOfScene2, 0.04);
  const [v1Scene2] = frames(v1, middleOfScene2, 0.04);
  expect(colourShare(v2Scene2!, PICTURE_RGB)).toBeGreaterThan(0.6);
  expect(colourShare(v1Scene2!, PICTURE_RGB)).toBeLessThan(0.2);

  // Scene 1's frames are unchanged from v1: every decoded frame of its first part is identical.
  const span = Math.max(0.5, first!.durationSeconds - 1);
  const before = frames(v1, 0, span);
  const after = frames(v2, 0, span);
  expect(before.length).toBeGreaterThan(10);
  expect(after.length).toBe(before.length);
  const differing = before.filter((frame, index) => !frame.equals(after[index]!));
  const largest = Math.max(
    0,
    ...before.map((frame, index) => frame.reduce((most, value, i) => Math.max(most, Math.abs(value - after[index]![i]!)), 0)),
  );
  // Byte-identical scene segments (the render's segment cache) decode to identical frames; a full re-encode does not.
  expect(differing.length, `${differing.length} of ${before.length} frames of scene 1 differ (largest channel difference ${largest})`).toBe(
    0,
  );
});
