import { expect, test, type Locator, type Page } from '@playwright/test';
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
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'reelsmith-e2e-gallery-')),
      LOG_LEVEL: 'warn',
      GALLERY_EXAMPLES: 'on',
      RESEARCH_PROVIDER: 'off',
    },
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

const galleryState = async () => galleryResponseSchema.parse(await (await fetch(`${origin}/api/gallery`)).json());

/** A gallery video: no preload, a JPEG poster in its place, muted, and it plays where it is. */
async function expectPlayableInPlace(page: Page, video: Locator, format: string) {
  await expect(video).toHaveAccessibleName(new RegExp(`^Example video, ${format}`));
  await expect(video).toHaveAttribute('preload', 'none');
  const poster = await video.getAttribute('poster');
  expect((await page.request.get(new URL(poster!, origin).href)).headers()['content-type']).toBe('image/jpeg');
  expect(await video.evaluate((element: HTMLVideoElement) => element.readyState)).toBe(0);
  expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
  await video.evaluate((element: HTMLVideoElement) => element.play());
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
  await video.evaluate((element: HTMLVideoElement) => element.pause());
  const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
  expect(duration).toBeGreaterThan(29);
  expect(duration).toBeLessThan(31.5);
}

test('a visitor sees the gallery being made, then three muted example videos that play in place', async ({ page }) => {
  // Three 30 s renders at the lowest CPU priority: minutes on a quiet machine, far more on a busy one.
  test.setTimeout(2_400_000);
  await page.goto(`${origin}/`);
  const gallery = page.getByRole('region', { name: GALLERY_TEXT.title });
  await expect(gallery).toBeVisible();
  // Just started: the examples are made in page order, so the last one is still being made.
  await expect(gallery.getByRole('img', { name: /1:1 · Square: Being made…/ })).toBeVisible();

  // The first one made plays while the others are still being made.
  await expect.poll(async () => (await galleryState()).examples.length, { timeout: 1_200_000, intervals: [5_000] }).toBeGreaterThan(0);
  await page.reload();
  await expectPlayableInPlace(page, gallery.locator('video').first(), '9:16');

  await expect.poll(async () => (await galleryState()).state, { timeout: 2_000_000, intervals: [5_000] }).toBe('ready');
  await page.reload();
  const videos = gallery.locator('video');
  await expect(videos).toHaveCount(3);
  for (const [index, format] of ['9:16', '16:9', '1:1'].entries()) await expectPlayableInPlace(page, videos.nth(index), format);
  const response = await page.request.get(new URL((await videos.first().getAttribute('src'))!, origin).href);
  expect(response.headers()['cache-control']).toContain('immutable');
});
