import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

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

type BoardScene = { narration: string; startSeconds: number; durationSeconds: number };

async function storyboardOnServer(page: Page, videoId: string): Promise<{ version: number; scenes: BoardScene[] }> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.get(`/api/videos/${videoId}/storyboard`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { version: number; scenes: BoardScene[] };
}

/** One finished 30 s video for every test here; a worker that restarts after a failure makes its own. */
let page: Page;
let videoId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(6 * 60_000);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const topic = 'Why octopuses have three hearts';
  await signUpAndSignIn(page, 'Eda Editor', `editor-${unique()}@example.com`, 'correct-horse');
  await page.getByLabel('Topic').fill(topic);
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await page.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await page.getByRole('button', { name: 'Generate Video' }).click();
  const recent = page.getByRole('region', { name: /Recent Videos/ });
  await expect(recent.getByText('Completed', { exact: true })).toBeVisible({ timeout: 5 * 60_000 });
  await recent.getByRole('link', { name: `Edit ${topic}` }).click();
  await expect(page).toHaveURL(/\/videos\/[^/]+\/edit$/);
  videoId = page.url().split('/').at(-2)!;
});

test.afterAll(async () => {
  await page.close();
});

const scene = (n: number) => page.getByRole('listitem', { name: `Scene ${n}` });
const draftState = () => page.getByRole('status', { name: 'Draft' });

test('the player sits beside the scenes, plays the scene picked and marks the one playing; the ±1 s rule is said before a render', async () => {
  const player = page.locator('video[data-version="1"]');
  await expect(player).toBeVisible();
  const playerBox = (await player.boundingBox())!;
  const sceneBox = (await scene(2).boundingBox())!;
  expect(playerBox.x).toBeGreaterThanOrEqual(sceneBox.x + sceneBox.width);
  await expect(
    page.getByText(
      'Only the scenes you changed are re-timed, so the new version may run a few tenths of a second longer or shorter than 30 s.',
    ),
  ).toBeVisible();

  const board = await storyboardOnServer(page, videoId);
  const start2 = board.scenes[1]!.startSeconds;
  await scene(2)
    .getByRole('button', { name: /^Play scene 2/ })
    .click();
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime)).toBeGreaterThanOrEqual(start2);
  expect(await player.evaluate((video: HTMLVideoElement) => video.currentTime)).toBeLessThan(start2 + board.scenes[1]!.durationSeconds);
  await expect(scene(2)).toHaveAttribute('aria-current', 'true');
  await expect(scene(1)).not.toHaveAttribute('aria-current', 'true');
  await player.evaluate((video: HTMLVideoElement) => video.pause());
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(dir, 'editor-desktop-top.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(dir, 'editor-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('edits save themselves, leaving asks first, and a draft the server refused survives a reload until it is saved', async () => {
  await expect(draftState()).toHaveText('Saved');
  await scene(1).getByLabel('Narration').fill('Octopuses carry three hearts and blue blood.');
  await expect(draftState()).toHaveText('Saving…');
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: join(dir, 'editor-desktop.png') });
  await expect(draftState()).toHaveText('Saved');
  expect((await storyboardOnServer(page, videoId)).scenes[0]!.narration).toBe('Octopuses carry three hearts and blue blood.');

  // Leaving by an in-app link before the save lands asks first.
  await scene(1).getByLabel('Narration').fill('Octopuses carry three hearts.');
  await page.getByRole('link', { name: 'My Videos' }).first().click();
  const leave = page.getByRole('dialog', { name: 'Leave with unsaved changes?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/edit$/);
  await expect(draftState()).toHaveText('Saved');

  // The server refuses the next save: the draft says so, stays on this device through a reload
  // (which the browser asks about first), and reaches the server once it answers again.
  await page.route(`**/api/videos/${videoId}/storyboard`, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The service is busy.' }),
        })
      : route.continue(),
  );
  const kept = 'Three hearts, one of them resting while the octopus swims.';
  await scene(1).getByLabel('Narration').fill(kept);
  await expect(draftState()).toHaveText('Not saved: retry');
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }),
  );
  await page.reload();
  expect(await asked).toBe('beforeunload');
  await expect(scene(1).getByLabel('Narration')).toHaveValue(kept);
  await expect(page.getByText('Your unsaved changes are back')).toBeVisible();
  await expect(draftState()).toHaveText('Not saved: retry');
  await page.unroute(`**/api/videos/${videoId}/storyboard`);
  await draftState().getByRole('button', { name: 'retry' }).click();
  await expect(draftState()).toHaveText('Saved');
  expect((await storyboardOnServer(page, videoId)).scenes[0]!.narration).toBe(kept);
});

test('during a render no picture button says Uploading…, and afterwards the player shows the new version', async () => {
  test.setTimeout(6 * 60_000);
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await expect(page.getByText('Rendering version 2').first()).toBeVisible();
  const sceneCount = await page.getByRole('listitem', { name: /^Scene \d+$/ }).count();
  await expect(page.getByText('Uploading…')).toHaveCount(0);
  await expect(page.getByText('Upload picture', { exact: true })).toHaveCount(sceneCount);

  await expect(page.getByText('Version 2 is ready')).toBeVisible({ timeout: 5 * 60_000 });
  await expect(page.locator('video[data-version="2"]')).toBeVisible();
  await expect(page.getByText('Version 2 · pick a scene to play it')).toBeVisible();
});
