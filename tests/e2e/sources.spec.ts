import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { bearer, signInThroughApi, uniqueId } from './session.js';

/**
 * The studio's source switch: a creator writes their own script, the video tells it word for word,
 * scene by scene, and the storyboard shows which of the script's sentences each scene tells.
 */

const SCRIPT = [
  'Every lighthouse flashes in a pattern of its own.',
  'Sailors count the flashes to know which coast they are passing.',
  'The brightest lights can be seen more than forty kilometres away.',
  'Today most of them run by themselves, without a keeper.',
].join(' ');

/** Screenshots for a person to look at (E2E_SCREENSHOT_DIR; none when unset). */
async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

test('a creator makes a video from their own script with the source switch, told word for word', async ({ page }) => {
  test.setTimeout(8 * 60_000);
  const user = await signInThroughApi(page, `script-${uniqueId()}@example.com`, 'Sol Script');
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Generate a video' });
  await form.getByRole('button', { name: 'Script', exact: true }).click();
  await expect(form.getByRole('button', { name: 'Script', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await form.getByLabel('Script', { exact: true }).fill(SCRIPT);
  await expect(form.getByText('41 words · a 30 s video holds at most 99, told word for word')).toBeVisible();
  await expect(form.getByLabel('Topic (optional)')).toHaveValue('');
  await form.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await form.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await shoot(page, 'sources-studio-script');
  await form.getByRole('button', { name: 'Generate Video' }).click();
  await expect(page.getByText('Video generation started! Watch the progress below.')).toBeVisible();

  // The first sentence names the video; Recent Videos credits the script.
  const title = 'Every lighthouse flashes in a pattern of its own.';
  const recent = page.getByRole('region', { name: /Recent Videos/ });
  const row = recent.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  await expect(row.getByText('Based on: your script')).toBeVisible();
  await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 5 * 60_000 });

  const { jobs } = (await (await page.request.get('/api/videos', { headers: bearer(user) })).json()) as {
    jobs: Array<{ id: string; params: { topic: string; source?: unknown } }>;
  };
  const job = jobs.find((j) => j.params.topic === title)!;
  expect(job.params.source).toEqual({ kind: 'script' });
  const board = (await (await page.request.get(`/api/videos/${job.id}/storyboard`, { headers: bearer(user) })).json()) as {
    scenes: Array<{ narration: string; sourceSentences?: string[] }>;
  };
  // Nothing added, nothing reworded: the scenes are the script, in order.
  expect(
    board.scenes
      .map((scene) => scene.narration)
      .join(' ')
      .replace(/\s+/g, ' '),
  ).toBe(SCRIPT);
  // Each scene names the script sentences it tells (a sentence split over two scenes is named by both).
  const told = board.scenes.flatMap((scene) => scene.sourceSentences ?? []).filter((sentence, i, all) => sentence !== all[i - 1]);
  expect(told).toEqual(SCRIPT.match(/[^.]+\./g)!.map((s) => s.trim()));

  await row.getByRole('link', { name: `Edit ${title}` }).click();
  const first = page.getByRole('listitem', { name: 'Scene 1' });
  await expect(first.getByRole('figure', { name: 'Source sentences told in scene 1' })).toContainText(
    'Every lighthouse flashes in a pattern of its own.',
  );
  await expect(page.getByText('Based on: your script')).toBeVisible();
  await shoot(page, 'sources-storyboard-script');
});
