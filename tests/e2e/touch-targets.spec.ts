import { expect, test, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import { bearer, signInThroughApi, uniqueId } from './session.js';

/**
 * Issue 49 item 7: on a phone (390 px) every control a creator taps is at least 44 × 44 px (WCAG
 * 2.5.5): the Facts line's "change", the post kit's SRT, VTT and Copy buttons, the Publish dialog's
 * platform checkbox and "When" radios (their labels are the targets: tapping the line ticks them), and
 * the voice preview's play buttons in the storyboard's settings. Each is measured where it is, and
 * photographed (E2E_SCREENSHOT_DIR, or the test's output folder) for a person to look at.
 */
const PHONE = { width: 390, height: 844 };
const MIN = 44;

async function shoot(page: Page, target: Locator, name: string): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const dir = process.env.E2E_SCREENSHOT_DIR;
  await page.screenshot({ path: dir ? join(dir, `touch-${name}-390.png`) : test.info().outputPath(`touch-${name}-390.png`) });
}

async function expectTouchTarget(target: Locator, name: string): Promise<void> {
  await expect(target, name).toBeVisible();
  const box = (await target.boundingBox())!;
  expect(box, name).not.toBeNull();
  expect.soft(Math.round(box.width), `${name}: width`).toBeGreaterThanOrEqual(MIN);
  expect.soft(Math.round(box.height), `${name}: height`).toBeGreaterThanOrEqual(MIN);
}

test('on a phone every control named in issue 49 is a 44 px touch target', async ({ page, context }) => {
  test.setTimeout(8 * 60_000);
  await page.setViewportSize(PHONE);
  const user = await signInThroughApi(page, `touch-${uniqueId()}@example.com`, 'Touch Targets');
  const voices = (await (await page.request.get('/voices?language=en')).json()) as { voices: { female: { id: string }[] } };
  const generated = await page.request.post('/api/videos/generate', {
    headers: bearer(user),
    data: {
      topic: `Why lighthouses blink ${uniqueId()}`,
      style: 'educational',
      language: 'en',
      duration: 30,
      voice: voices.voices.female[0]!.id,
      music: 'none',
      // Caption files, so the post kit offers SRT and VTT.
      captions: 'file',
    },
  });
  expect(generated.ok(), await generated.text()).toBe(true);
  const { jobId } = (await generated.json()) as { jobId: string };

  // The Facts line. The suite's server never reaches Wikipedia (RESEARCH_PROVIDER=off), so the
  // look-up's answer is the one a research server gives for a matching topic.
  await page.route('**/api/research/articles?*', (route) =>
    route.fulfill({
      json: {
        articles: [
          { title: 'Lighthouse', url: 'https://en.wikipedia.org/wiki/Lighthouse', description: 'Tower that emits light' },
          { title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus', description: 'Soft-bodied mollusc' },
        ],
        match: 'Lighthouse',
      },
    }),
  );
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Generate a video' });
  await form.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await form.getByLabel('Topic', { exact: true }).fill('How lighthouses warn ships off the reefs');
  const change = form.getByRole('button', { name: 'Change the Wikipedia article (now Lighthouse)' });
  await expectTouchTarget(change, 'Wikipedia "change"');
  await shoot(page, change, 'wikipedia-change');
  await page.unroute('**/api/research/articles?*');

  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/videos/${jobId}/status`, { headers: bearer(user) })).json()) as { status: string }).status,
      { timeout: 6 * 60_000, intervals: [2000] },
    )
    .toBe('completed');

  // The post kit: caption files and Copy.
  await page.goto('/videos');
  const row = page.locator('li.rs-video-row').first();
  for (const name of ['SRT caption file', 'VTT caption file']) await expectTouchTarget(row.getByRole('button', { name }), name);
  await shoot(page, row.getByRole('button', { name: 'SRT caption file' }), 'post-kit-captions');
  await row.getByRole('button', { name: 'Post kit' }).click();
  for (const name of ['Copy title', 'Copy description', 'Copy hashtags']) await expectTouchTarget(row.getByRole('button', { name }), name);
  await shoot(page, row.getByRole('button', { name: 'Copy title' }), 'post-kit-copy');

  // The Publish dialog, with YouTube connected through its consent page (the local fake of Google's).
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Connections' }).click();
  const youtube = page.locator('.rs-connection[data-platform="youtube"]');
  const [consent] = await Promise.all([context.waitForEvent('page'), youtube.getByRole('button', { name: 'Connect YouTube' }).click()]);
  await consent.getByRole('link', { name: 'Allow' }).click();
  await expect(consent.getByText('YouTube connected')).toBeVisible();
  await consent.close();
  await page.goto('/videos');
  await page
    .getByRole('button', { name: /^Publish / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Publish' });
  const platform = dialog.getByRole('checkbox', { name: /YouTube/ });
  // A filter's inner locator is relative to the label it tests: rooted at the page, not the dialog.
  await expectTouchTarget(
    dialog.locator('label').filter({ has: page.getByRole('checkbox', { name: /YouTube/ }) }),
    'Publish: YouTube checkbox',
  );
  await platform.check();
  for (const name of ['Now', 'At a date and time']) {
    const radio = page.getByRole('radio', { name });
    await expectTouchTarget(dialog.locator('label').filter({ has: radio }), `Publish: "${name}" radio`);
  }
  // The whole line is the target: a tap at its far end picks the radio.
  const later = dialog.locator('label').filter({ has: page.getByRole('radio', { name: 'At a date and time' }) });
  const laterBox = (await later.boundingBox())!;
  await page.mouse.click(laterBox.x + laterBox.width - 4, laterBox.y + laterBox.height / 2);
  await expect(dialog.getByRole('radio', { name: 'At a date and time' })).toBeChecked();
  await shoot(page, dialog.getByRole('radio', { name: 'Now' }), 'publish-dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The storyboard's settings: each voice's preview play button.
  await page.goto(`/videos/${jobId}/edit`);
  const play = page.getByRole('button', { name: /^Play preview of / });
  await expect(play.first()).toBeVisible();
  const count = await play.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index++) {
    if (!(await play.nth(index).isVisible())) continue;
    await expectTouchTarget(play.nth(index), `storyboard voice preview ${index + 1}`);
  }
  await shoot(page, play.first(), 'storyboard-voice-play');
});
