import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import { bearer, signInThroughApi, subscribeThroughTestCheckout, uniqueId } from './session.js';

test('a creator pastes a list, sees a bad row flagged before anything is queued, follows the batch live and downloads the zip', async ({
  page,
}) => {
  test.setTimeout(8 * 60_000);
  const id = uniqueId();
  const user = await signInThroughApi(page, `batch-${id}@example.com`, 'Batch Maker');
  // A plan: a batch of two is beyond the free video.
  await subscribeThroughTestCheckout(page.request, user.token);
  const topics = [`Why octopuses have three hearts ${id}`, `How bees talk by dancing ${id}`];

  await page.goto('/');
  await page.getByRole('navigation').getByRole('link', { name: 'Batch' }).click();
  await expect(page).toHaveURL(/\/batch$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Batch' })).toBeVisible();

  // The validation view: every row is checked with the contracts before anything is queued.
  const list = page.getByLabel(/Topics, one a line/);
  await list.fill([topics[0], 'x'.repeat(501), topics[1]].join('\n'));
  const rows = page.getByRole('list', { name: 'Rows' });
  await expect(rows.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByText('2 of 3 rows ready, 1 to fix', { exact: false })).toBeVisible();
  await expect(rows.getByRole('listitem').nth(1)).toContainText('topic: Topic must be at most 500 characters');
  await expect(rows.getByRole('listitem').nth(0)).toContainText('Ready');

  // The shared options, picked once with the studio's own fields.
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await page.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await page.getByLabel('Resolution').selectOption('1:1');
  await page.getByLabel('Music').selectOption('none');
  await page.getByRole('button', { name: 'Queue 3 videos' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was queued: fix the rows marked Fix first.' })).toBeVisible();
  // Refused in the page: the server saw nothing.
  const before = await (await page.request.get('/api/batches', { headers: bearer(user) })).json();
  expect(before.batches).toEqual([]);

  await list.fill(topics.join('\n'));
  await expect(page.getByText('2 of 2 rows ready')).toBeVisible();
  await page.getByLabel(/Batch name/).fill(`Ocean week ${id}`);
  await page.getByRole('button', { name: 'Queue 2 videos' }).click();
  await expect(page).toHaveURL(/\/batch\?id=/);

  // One live progress list, to completion.
  const progress = page.getByRole('list', { name: 'Videos of the batch' });
  await expect(progress.getByRole('listitem')).toHaveCount(2);
  await expect(progress.getByRole('listitem').nth(0)).toContainText(topics[0]!);
  await expect(page.getByRole('progressbar', { name: `Progress of ${topics[0]}` })).toBeVisible({ timeout: 60_000 });
  await expect(progress.getByText('Completed', { exact: true })).toHaveCount(2, { timeout: 6 * 60_000 });
  await expect(page.getByText('2 of 2 finished · 2 ready')).toBeVisible();

  // Download all: one zip holding both MP4s, in the list's order.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all (2)' }).click()]);
  expect(download.suggestedFilename()).toBe(`Ocean week ${id}.zip`);
  const entries = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const names = Object.keys(entries).sort();
  expect(names).toHaveLength(2);
  expect(names[0]).toMatch(/^1-.+\.mp4$/);
  expect(names[1]).toMatch(/^2-.+\.mp4$/);
  for (const name of names) {
    const file = entries[name]!;
    expect(file.length).toBeGreaterThan(10_000);
    // An ISO BMFF file starts with its ftyp box.
    expect(Buffer.from(file.subarray(4, 8)).toString('latin1')).toBe('ftyp');
  }
  await expect(page.getByRole('button', { name: 'New batch' })).toBeVisible();
});
