import { expect, test, type Page } from '@playwright/test';
import { GALLERY_TEXT, type GalleryResponse } from '@reelsmith/contracts';
import { join } from 'node:path';

/**
 * The visitor page's layout: the example gallery across the page above the form, all three players
 * on the first screen of a desktop, what Reelsmith makes beside it, no counters. The suite's server
 * makes no examples (GALLERY_EXAMPLES=off; gallery.spec.ts makes real ones), so the gallery's answer
 * and posters are served here in the API's own format.
 */
const EXAMPLES: GalleryResponse = {
  state: 'ready',
  examples: [
    { slug: 'portrait', resolution: '9:16', width: 540, height: 960, title: 'Why octopuses have three hearts' },
    { slug: 'landscape', resolution: '16:9', width: 960, height: 540, title: 'The lighthouse keeper who vanished' },
    { slug: 'square', resolution: '1:1', width: 540, height: 540, title: 'Small habits that change a morning' },
  ].map(({ slug, ...example }) => ({
    ...example,
    resolution: example.resolution as '9:16' | '16:9' | '1:1',
    videoUrl: `/gallery/${slug}-0123456789ab.mp4`,
    posterUrl: `/gallery/${slug}-0123456789ab.svg`,
    durationSeconds: 30,
  })),
};

/** A poster of the example's size: a gradient and its format, so a screenshot shows which tile is which. */
const poster = (width: number, height: number, label: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1">` +
  `<stop offset="0" stop-color="#f59e0b"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>` +
  `<rect width="100%" height="100%" fill="url(#g)"/><text x="50%" y="50%" font-size="${Math.round(height / 8)}" ` +
  `text-anchor="middle" fill="#fff" font-family="sans-serif">${label}</text></svg>`;

async function serveExamples(page: Page) {
  // The suite's server makes no examples, so it marks its page <html class="rs-no-gallery">; this page
  // is the one a server with examples sends.
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace('<html class="rs-no-gallery"', '<html');
      await route.fulfill({ status: response.status(), contentType: 'text/html; charset=utf-8', body });
    },
  );
  await page.route('**/api/gallery', (route) => route.fulfill({ json: EXAMPLES }));
  await page.route('**/gallery/*.svg', (route) => {
    const example = EXAMPLES.examples.find((candidate) => route.request().url().endsWith(candidate.posterUrl))!;
    return route.fulfill({ contentType: 'image/svg+xml', body: poster(example.width, example.height, example.resolution) });
  });
}

const shot = async (page: Page, name: string) => {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: join(dir, name) });
};

test('on a desktop the gallery spans the page above the form, its three players on the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await serveExamples(page);
  await page.goto('/');
  const gallery = page.getByRole('region', { name: GALLERY_TEXT.title });
  const videos = gallery.locator('video');
  await expect(videos).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'What Reelsmith makes' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Your videos' })).toHaveCount(0);
  await expect(page.getByText('Total Videos')).toHaveCount(0);

  const galleryBox = (await gallery.boundingBox())!;
  const makesBox = (await page.getByRole('list', { name: 'What Reelsmith makes' }).boundingBox())!;
  const formBox = (await page.locator('.rs-generate').boundingBox())!;
  // Full width: as wide as the row of what-it-makes cards, not a side column.
  expect(Math.abs(galleryBox.width - makesBox.width)).toBeLessThanOrEqual(2);
  expect(galleryBox.y + galleryBox.height).toBeLessThanOrEqual(formBox.y);
  // Every player wholly on the first screen, the three at one height.
  const heights: number[] = [];
  for (const video of await videos.all()) {
    const box = (await video.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    heights.push(box.height);
  }
  expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(3);
  // Large enough to watch: the vertical one at least a fifth of the screen's height.
  expect(Math.min(...heights)).toBeGreaterThanOrEqual(160);
  await shot(page, 'visitor-desktop.png');
});

test('on a phone the three players keep one row at one height above the form, scrolled sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await serveExamples(page);
  await page.goto('/');
  const videos = page.getByRole('region', { name: GALLERY_TEXT.title }).locator('video');
  await expect(videos).toHaveCount(3);
  const boxes = await Promise.all((await videos.all()).map(async (video) => (await video.boundingBox())!));
  for (const box of boxes) {
    expect(Math.abs(box.y - boxes[0]!.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.height - boxes[0]!.height)).toBeLessThanOrEqual(2);
    // Large enough to watch, and none wider than the screen.
    expect(box.height).toBeGreaterThanOrEqual(160);
    expect(box.width).toBeLessThanOrEqual(390 - 32);
  }
  // The row scrolls sideways within the card; the page itself is no wider than the screen.
  const row = page.locator('.rs-gallery__grid');
  expect(await row.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The next player shows at the row's edge.
  const rowBox = (await row.boundingBox())!;
  expect(boxes[1]!.x).toBeLessThan(rowBox.x + rowBox.width);
  const formTop = (await page.locator('.rs-generate').boundingBox())!.y;
  expect(boxes[0]!.y).toBeLessThan(formTop);
  await shot(page, 'visitor-phone.png');
});
