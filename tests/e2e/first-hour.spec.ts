import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, signInThroughApi, subscribeThroughTestCheckout, uniqueId, type SignedInUser } from './session.js';

/**
 * What a creator hits in the first hour. Screenshots land in SCREENSHOT_DIR (default a temp
 * folder; Playwright empties its own output folder on every run) to be looked at.
 */
const shots = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'reelsmith-first-hour');
mkdirSync(shots, { recursive: true });

async function fillForm(page: Page, topic: string) {
  await page.getByLabel('Topic').fill(topic);
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await page.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
}

async function listJobs(page: Page, user: SignedInUser) {
  const response = await page.request.get('/api/videos', { headers: bearer(user) });
  return ((await response.json()) as { jobs: Array<{ id: string; status: string; params: { topic: string } }> }).jobs;
}

test('a submit while offline fails at once with "You are offline" and is never sent later by itself', async ({ page, context }) => {
  const user = await signInThroughApi(page, `offline-${uniqueId()}@e2e.reelsmith.test`, 'Offline Creator');
  await page.goto('/');
  await fillForm(page, 'Lighthouses of Kerala');
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Generate Video' }).click();
  await expect(page.getByText('You are offline. Check your connection and try again.').first()).toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole('button', { name: 'Generate Video' })).toBeEnabled();

  await context.setOffline(false);
  // Give a paused submit every chance to replay itself, as React Query's default would.
  await page.waitForTimeout(3_000);
  expect(await listJobs(page, user)).toEqual([]);
});

test('My Videos deletes with a confirmation and clears cancelled rows', async ({ page }) => {
  const user = await signInThroughApi(page, `delete-${uniqueId()}@e2e.reelsmith.test`, 'Tidy Creator');
  await subscribeThroughTestCheckout(page.request, user.token, { planId: 'essentials_plan' });
  const voices = (await (await page.request.get('/voices?language=en')).json()) as { voices: { female: Array<{ id: string }> } };
  for (const topic of ['Cancelled comet', 'Cancelled volcano']) {
    const submitted = await page.request.post('/api/videos/generate', {
      headers: bearer(user),
      data: { topic, style: 'educational', language: 'en', duration: 30, voice: voices.voices.female[0]!.id },
    });
    expect(submitted.ok(), await submitted.text()).toBe(true);
    const { jobId } = (await submitted.json()) as { jobId: string };
    expect((await page.request.delete(`/api/videos/${jobId}`, { headers: bearer(user) })).ok()).toBe(true);
  }

  await page.goto('/videos');
  await expect(page.getByText('2 of 2 videos')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select Cancelled comet' }).check();
  await page.getByRole('button', { name: 'Delete Cancelled comet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this video?' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: join(shots, 'my-videos-delete.png') });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('1 of 1 video', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cancelled comet' })).toHaveCount(0);

  // Only cancelled rows: the button says so, in My Videos as in Recent Videos.
  await page.getByRole('button', { name: 'Clear cancelled (1)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clear them' }).click();
  await expect(page.getByText('No videos yet')).toBeVisible();
  expect(await listJobs(page, user)).toEqual([]);
});

test('Settings shows the plan with its price, renewal date and usage, Upgrade and Cancel beside it', async ({ page }) => {
  const user = await signInThroughApi(page, `plan-${uniqueId()}@e2e.reelsmith.test`, 'Planned Creator');
  await subscribeThroughTestCheckout(page.request, user.token, { planId: 'starter_plan' });
  await page.goto('/settings');
  const plan = page.getByRole('region', { name: 'Starter plan' });
  await expect(plan.getByText('₹499 per month · Indian Rupees (INR)')).toBeVisible();
  await expect(plan.getByText(/^Renews on /)).toBeVisible();
  await expect(plan.getByText('0 of 30 videos')).toBeVisible();
  await expect(plan.getByRole('link', { name: 'Upgrade' })).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Cancel Plan' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'settings.png'), fullPage: true });
});

test.describe('in India', () => {
  test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-IN' });

  test("the INR pricing page shows each plan's price, 18% GST and total", async ({ page }) => {
    await page.goto('/pricing');
    await expect(page.getByText('Prices in Indian Rupees (₹)')).toBeVisible();
    const essentials = page.getByRole('article', { name: 'Essentials plan' });
    await expect(essentials.getByText('+ GST (18%) ₹35.82')).toBeVisible();
    await expect(essentials.getByText('Total ₹234.82/month')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(4);
    for (const card of await page.getByRole('article').all()) await expect(card.getByText(/^Total ₹/)).toBeVisible();
    await page.screenshot({ path: join(shots, 'pricing-inr.png'), fullPage: true });
  });
});

test.describe('narrow desktop window', () => {
  test.use({ viewport: { width: 860, height: 700 } });

  test('the extension banner does not cover the drawer header', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Chrome extension' })).toBeVisible();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    const brand = drawer.locator('.rs-nav__brand');
    await expect(brand).toBeVisible();
    // The drawer slides in: measure where it comes to rest, not a frame of the slide.
    await drawer.evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)));
    const box = (await brand.boundingBox())!;
    const topmostIsDrawer = await page.evaluate(({ x, y }) => Boolean(document.elementFromPoint(x, y)?.closest('.rs-drawer')), {
      x: box.x + 20,
      y: box.y + box.height / 2,
    });
    expect(topmostIsDrawer).toBe(true);
    await page.screenshot({ path: join(shots, 'drawer-with-banner.png') });
  });
});
