import { expect, test } from '@playwright/test';
import { GALLERY_TEXT, galleryResponseSchema } from '@reelsmith/contracts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The visitor page's "See what it makes" gallery on a server of its own with GALLERY_EXAMPLES=on
 * (the suite's shared server turns it off): a fresh DATA_DIR, so the server makes the three
 * examples with the real offline generator after it starts, one at a time.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 8181) + 3;
const origin = `http://127.0.0.1:${port}`;
let server: ChildProcess;

test.beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'reelsmith-e2e-gallery-')), LOG_LEVEL: 'warn', GALLERY_EXAMPLES: 'on' },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the gallery server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});
test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('a visitor sees the gallery being made, then three muted example videos that play in place', async ({ page }) => {
  // Three 30 s renders at low priority on a busy machine.
  test.setTimeout(900_000);
  await page.goto(`${origin}/`);
  const gallery = page.getByRole('region', { name: GALLERY_TEXT.title });
  await expect(gallery).toBeVisible();
  // Just started: at least the last example is still being made, and its tile says so.
  await expect(gallery.getByRole('img', { name: /1:1 · Square: Being made…/ })).toBeVisible();

  await expect
    .poll(async () => galleryResponseSchema.parse(await (await fetch(`${origin}/api/gallery`)).json()).state, { timeout: 840_000, intervals: [5_000] })
    .toBe('ready');
  await page.reload();
  const videos = gallery.locator('video');
  await expect(videos).toHaveCount(3);
  for (const [index, format] of ['9:16', '16:9', '1:1'].entries()) {
    const video = videos.nth(index);
    await expect(video).toHaveAccessibleName(new RegExp(`^Example video, ${format}`));
    // Nothing loads before play: no preload, a poster in its place.
    await expect(video).toHaveAttribute('preload', 'none');
    const poster = await video.getAttribute('poster');
    expect((await page.request.get(new URL(poster!, origin).href)).headers()['content-type']).toBe('image/jpeg');
    expect(await video.evaluate((element: HTMLVideoElement) => element.readyState)).toBe(0);
    // Muted by default, and it plays where it is.
    expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
    await video.evaluate((element: HTMLVideoElement) => element.play());
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
    expect(duration).toBeGreaterThan(29);
    expect(duration).toBeLessThan(31.5);
  }
  const response = await page.request.get(new URL((await videos.first().getAttribute('src'))!, origin).href);
  expect(response.headers()['cache-control']).toContain('immutable');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(root, 'test-results', 'visitor-gallery.png'), fullPage: false });
});
