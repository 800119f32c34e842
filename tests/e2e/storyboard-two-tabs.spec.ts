import { expect, test, type Browser, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bearer, signInThroughApi, uniqueId, type SignedInUser } from './session.js';

/** Where the screenshots of the editor go, to be looked at (set EDITOR_SHOTS_DIR to keep them somewhere else). */
const SHOTS = process.env.EDITOR_SHOTS_DIR ?? join(process.cwd(), 'test-results', 'editor-shots');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const ARTICLE = [
  'Lighthouses warned ships away from rocks for centuries before satellites could.',
  'Each lighthouse had its own pattern of flashes, so a captain could tell one tower from another at night.',
  'Keepers trimmed the wicks and wound the clockwork that turned the great lens every few hours.',
  'In fog the light was useless, so many stations sounded horns or rang bells instead.',
  'Radio beacons arrived in the twentieth century and let ships take bearings from far beyond the horizon.',
  'Today most lighthouses run by themselves, and a few keepers remain to look after the oldest towers.',
].join(' ');

let user: SignedInUser;
let videoId: string;

async function signedInPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.addInitScript(
    ({ user, token }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('reelsmith-auth', JSON.stringify({ state: { user, token, apiKey: null, isAuthenticated: true }, version: 0 }));
    },
    { user: { id: user.id, name: user.name, email: user.email, role: user.role }, token: user.token },
  );
  return page;
}

async function narrationsOnServer(page: Page): Promise<string[]> {
  const response = await page.request.get(`/api/videos/${videoId}/storyboard`, { headers: bearer(user) });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { scenes: Array<{ narration: string }> }).scenes.map((scene) => scene.narration);
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(6 * 60_000);
  mkdirSync(SHOTS, { recursive: true });
  const page = await browser.newPage();
  user = await signInThroughApi(page, `two-tabs-${uniqueId()}@example.com`, 'Tess Tabs');
  const generated = await page.request.post('/api/videos/generate', {
    headers: bearer(user),
    data: {
      source: { kind: 'article', text: ARTICLE, title: 'How lighthouses guided ships' },
      style: 'educational',
      language: 'en',
      duration: 30,
      resolution: '9:16',
      voice: 'en-us-m3',
    },
  });
  expect(generated.status(), await generated.text()).toBe(200);
  videoId = ((await generated.json()) as { jobId: string }).jobId;
  await expect
    .poll(
      async () => {
        const status = await page.request.get(`/api/videos/${videoId}/status`, { headers: bearer(user) });
        return ((await status.json()) as { status: string }).status;
      },
      { timeout: 5 * 60_000, intervals: [1000] },
    )
    .toBe('completed');
  await page.close();
});

test('two tabs editing one storyboard: the second save is stopped, said, and settled by Keep yours or Reload', async ({ browser }) => {
  const one = await signedInPage(browser);
  const two = await signedInPage(browser);
  const scene = (page: Page, n: number) => page.getByRole('listitem', { name: `Scene ${n}` });
  const draft = (page: Page) => page.getByRole('status', { name: 'Draft' });
  for (const page of [one, two]) {
    await page.goto(`/videos/${videoId}/edit`);
    await expect(draft(page)).toHaveText('Saved');
  }
  const original = await narrationsOnServer(one);

  await scene(one, 1).getByLabel('Narration').fill('Tab one wrote this opening.');
  await expect(draft(one)).toHaveText('Saved');

  await scene(two, 2).getByLabel('Narration').fill('Tab two wrote this middle.');
  const conflict = two.getByRole('alertdialog', { name: 'This storyboard changed in another tab: reload or keep yours' });
  await expect(conflict).toBeVisible();
  await expect(draft(two)).toHaveText('Not saved: changed in another tab');
  await expect(two.getByRole('button', { name: 'Render' })).toBeDisabled();
  await two.screenshot({ path: join(SHOTS, 'storyboard-conflict-desktop.png') });
  expect((await narrationsOnServer(two)).slice(0, 2)).toEqual(['Tab one wrote this opening.', original[1]]);

  // Keep yours: tab two's whole version goes over tab one's.
  await conflict.getByRole('button', { name: 'Keep yours' }).click();
  await expect(conflict).toBeHidden();
  await expect(draft(two)).toHaveText('Saved');
  expect((await narrationsOnServer(two)).slice(0, 2)).toEqual([original[0], 'Tab two wrote this middle.']);

  // Tab one has not seen that: its next save is stopped too, and Reload takes tab two's version.
  await scene(one, 3).getByLabel('Narration').fill('Tab one tries again.');
  const again = one.getByRole('alertdialog', { name: 'This storyboard changed in another tab: reload or keep yours' });
  await expect(again).toBeVisible();
  await again.getByRole('button', { name: 'Reload' }).click();
  await expect(again).toBeHidden();
  await expect(scene(one, 2).getByLabel('Narration')).toHaveValue('Tab two wrote this middle.');
  await expect(scene(one, 3).getByLabel('Narration')).toHaveValue(original[2]!);
  await expect(draft(one)).toHaveText('Saved');

  // The rewritten scene's source sentences say it no longer tells them word for word; the others do not.
  await expect(scene(one, 2).getByRole('figure')).toContainText('narration edited');
  await expect(scene(one, 1).getByRole('figure')).not.toContainText('narration edited');
  // The player shows the poster before it plays.
  await expect(one.locator('video[data-version="1"]')).toHaveAttribute('poster', /\.jpg$/);
  await one.screenshot({ path: join(SHOTS, 'storyboard-desktop.png'), fullPage: true });
  await one.close();
  await two.close();
});

test('on a phone a card is its picture and narration (the rest behind More), the Render bar is slim, and an edit over the budget says how much to cut', async ({
  browser,
}) => {
  const page = await signedInPage(browser, PHONE);
  await page.goto(`/videos/${videoId}/edit`);
  const first = page.getByRole('listitem', { name: 'Scene 1' });
  await expect(first.getByLabel('Narration')).toBeVisible();
  await expect(first.getByLabel('Image prompt', { exact: true })).toBeHidden();
  await expect(first.getByRole('button', { name: 'Delete scene 1' })).toBeHidden();
  await page.screenshot({ path: join(SHOTS, 'storyboard-phone.png') });
  const bar = (await page.getByRole('region', { name: 'Render' }).boundingBox())!;
  // Measured for the report: the bar's share of the screen and the page's height.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  test.info().annotations.push({ type: 'phone', description: `render bar ${Math.round(bar.height)} px, page ${height} px` });
  expect(bar.height / PHONE.height).toBeLessThan(0.1);

  await first.getByRole('button', { name: 'Show more of scene 1' }).click();
  await expect(first.getByLabel('Image prompt', { exact: true })).toBeVisible();
  await expect(first.getByRole('button', { name: 'Delete scene 1' })).toBeVisible();
  await first.screenshot({ path: join(SHOTS, 'storyboard-phone-scene-more.png') });

  await first.getByLabel('Narration').fill(`${'many words '.repeat(60)}`.trim());
  await expect(page.getByRole('status', { name: 'Draft' })).toHaveText(/^Not saved: cut \d+ words$/);
  await expect(page.getByRole('status', { name: 'Draft' }).getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: join(SHOTS, 'storyboard-phone-over-budget.png') });
  await page.close();
});

test('the brand tab: the upload button and a preview that stays in view, on a desktop and a phone', async ({ browser }) => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    const page = await signedInPage(browser, viewport);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Brand' }).click();
    await page.getByLabel('Apply my brand to new videos and re-renders').check();
    await expect(page.getByText('Upload logo')).toBeVisible();
    await page.getByLabel('End card', { exact: true }).check();
    await page.getByLabel('End card text').fill('@lighthouses');
    await page.screenshot({ path: join(SHOTS, `brand-${name}.png`) });
    // Scrolled to the Save button, the preview is still on screen.
    await page.getByRole('button', { name: 'Save brand' }).scrollIntoViewIfNeeded();
    await expect(page.getByRole('img', { name: 'Brand preview' })).toBeInViewport();
    await page.screenshot({ path: join(SHOTS, `brand-${name}-scrolled.png`) });
    await page.close();
  }
});
