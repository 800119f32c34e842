import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { subscribeThroughTestCheckout } from './session.js';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const STEP_LABELS = ['Preparing', 'Creating story', 'Generating audio', 'Creating visuals', 'Finalizing video'];

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

/** Fills the generate form: English, the first female voice, 30 s. */
async function fillForm(page: Page, topic: string) {
  await page.getByLabel('Topic').fill(topic);
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  const female = page.getByRole('radiogroup', { name: 'Female voices' });
  await female.getByRole('radio').first().check();
  await expect(page.getByText('Please select a voice from either male or female voices above.')).toBeHidden();
  await expect(page.getByLabel('Duration')).toHaveValue('30');
}

/** Records every step label and percent the Recent Videos panel shows while a job runs. */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const samples: { step: string; percent: number }[] = [];
    (window as unknown as { __progressSamples: typeof samples }).__progressSamples = samples;
    const read = () => {
      const bar = document.querySelector('[aria-labelledby="rs-recent-title"] [role="progressbar"]');
      const step = document.querySelector('[aria-labelledby="rs-recent-title"] .rs-job-progress__step');
      if (bar && step) samples.push({ step: step.textContent ?? '', percent: Number(bar.getAttribute('aria-valuenow')) });
    };
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

test('a creator generates a video, watches it progress live, previews, downloads, finds it, and cancels another', async ({ page }) => {
  test.setTimeout(6 * 60_000);
  const id = unique();
  const topic = `The secret life of octopuses ${id}`;
  await signUpAndSignIn(page, 'Maya Reel', `jobs-${id}@example.com`, 'correct-horse');

  const recent = page.getByRole('region', { name: /Recent Videos/ });
  await expect(recent.getByText('Live')).toBeVisible();
  await expect(recent.getByRole('link', { name: 'View All Videos' })).toBeVisible();
  // Before any subscription, 60 and 90 s are locked.
  await expect(page.getByRole('option', { name: '60 seconds 🔒' })).toBeDisabled();

  await fillForm(page, topic);
  await recordProgress(page);
  await page.getByRole('button', { name: 'Generate Video' }).click();
  await expect(page.getByText('Video generation started! Watch the progress below.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Starting|Processing \(1 video\(s\)\))\.\.\.$/ })).toBeDisabled();
  await expect(recent.getByRole('progressbar', { name: `Progress of ${topic}` })).toBeVisible();

  // The real render takes a while; the panel follows it live until it completes.
  await expect(recent.getByText('Completed', { exact: true })).toBeVisible({ timeout: 4 * 60_000 });
  const samples = await page.evaluate(
    () => (window as unknown as { __progressSamples: { step: string; percent: number }[] }).__progressSamples,
  );
  const seenSteps = new Set(samples.map((s) => s.step).filter((s) => STEP_LABELS.includes(s)));
  expect(seenSteps.size, JSON.stringify(samples.slice(-20))).toBeGreaterThanOrEqual(2);
  const percents = samples.map((s) => s.percent);
  expect(percents, 'progress never goes back').toEqual([...percents].sort((a, b) => a - b));
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const jobs = await (await page.request.get('/api/videos?limit=100', { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(jobs.jobs[0]).toMatchObject({ status: 'completed', progress: 100, params: { topic } });
  await expect(page.getByRole('button', { name: 'Generate Video' })).toBeEnabled();

  // Preview: the dialog's video plays and seeks.
  await recent.getByRole('button', { name: `Preview ${topic}` }).click();
  await expect(page.getByText('Opening video preview...')).toBeVisible();
  const dialog = page.getByRole('dialog', { name: topic });
  const video = dialog.locator('video');
  await expect(video).toBeVisible();
  await video.evaluate((element: HTMLVideoElement) => element.play());
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
  await video.evaluate((element: HTMLVideoElement) => {
    element.currentTime = 10;
  });
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => (element.seeking ? -1 : element.currentTime)), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(10);
  await dialog.getByRole('button', { name: 'Close preview' }).click();
  await expect(dialog).toBeHidden();

  // Download: a real MP4 (an ISO BMFF file starts with an ftyp box).
  const [download] = await Promise.all([page.waitForEvent('download'), recent.getByRole('button', { name: `Download ${topic}` }).click()]);
  await expect(page.getByText('Download started!')).toBeVisible();
  const file = await readFile((await download.path())!);
  expect(file.length).toBeGreaterThan(10_000);
  expect(file.subarray(4, 8).toString('latin1')).toBe('ftyp');
  expect(download.suggestedFilename()).toMatch(/\.mp4$/);

  // My Videos: search, filter and sort find it.
  await page.getByRole('navigation').getByRole('link', { name: 'My Videos' }).click();
  await expect(page.getByText('1 of 1 video', { exact: true })).toBeVisible();
  await page.getByLabel('Search videos').fill('octopuses');
  await expect(page.getByRole('heading', { level: 2, name: topic })).toBeVisible();
  await page.getByLabel('Search videos').fill('penguins');
  await expect(page.getByText('No videos match your filters')).toBeVisible();
  await page.getByLabel('Search videos').fill('');
  await page.getByLabel('Status').selectOption({ label: 'Failed' });
  await expect(page.getByText('0 of 1 video', { exact: true })).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'Completed' });
  await page.getByLabel('Sort').selectOption({ label: 'Name A-Z' });
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: topic }) });
  await expect(row.getByText('Completed')).toBeVisible();
  await expect(row.getByText('30s')).toBeVisible();
  await expect(row.getByRole('button', { name: `Preview ${topic}` })).toBeVisible();

  // The free video is used: a plan (bought through the test checkout) allows the next one.
  await subscribeThroughTestCheckout(page.request, (await page.evaluate(() => localStorage.getItem('token'))) as string);
  await page.goto('/');
  await expect(page.getByRole('option', { name: '60 seconds', exact: true })).toBeEnabled();
  const second = `Volcanoes under the sea ${id}`;
  await fillForm(page, second);
  await page.getByRole('button', { name: 'Generate Video' }).click();
  await expect(page.getByText('Video generation started! Watch the progress below.')).toBeVisible();

  await page.getByRole('navigation').getByRole('link', { name: 'My Videos' }).click();
  const secondRow = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: second }) });
  await secondRow.getByRole('button', { name: `Cancel ${second}` }).click();
  await expect(page.getByText('Job cancelled')).toBeVisible();
  await expect(secondRow.getByText('Cancelled')).toBeVisible();
  await expect(secondRow.getByRole('button', { name: `Cancel ${second}` })).toBeHidden();
  // The server agrees, and it stays cancelled after a reload.
  await page.reload();
  await expect(
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: second }) })
      .getByText('Cancelled'),
  ).toBeVisible();
  await expect(page.getByText('2 of 2 videos')).toBeVisible();
});
