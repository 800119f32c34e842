import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { bearer, signInThroughApi, uniqueId } from './session.js';

test('My Videos: a video without burned-in captions offers its SRT and VTT; the post kit is copied and edited', async ({
  page,
  context,
}) => {
  test.setTimeout(6 * 60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const id = uniqueId();
  const user = await signInThroughApi(page, `post-kit-${id}@example.com`, 'Post Kit');
  const topic = `Why zebras have stripes ${id}`;

  // The creator's free video, as files for the captions (captions: 'file').
  const voices = await (await page.request.get('/voices?language=en')).json();
  const generated = await page.request.post('/api/videos/generate', {
    headers: bearer(user),
    data: {
      topic,
      style: 'educational',
      language: 'en',
      duration: 30,
      voice: voices.voices.female[0].id,
      resolution: '1:1',
      music: 'none',
      captions: 'file',
    },
  });
  expect(generated.status(), await generated.text()).toBe(200);
  const { jobId } = await generated.json();
  await expect
    .poll(async () => (await (await page.request.get(`/api/videos/${jobId}/status`, { headers: bearer(user) })).json()).status, {
      timeout: 4 * 60_000,
      intervals: [2000],
    })
    .toBe('completed');

  await page.goto('/videos');
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Captions as files (none drawn in the video)')).toBeVisible();
  // The whole title shows at 1280 px (issue 49: one line cut it to "Why zebras have stri…" with room below).
  const heading = row.getByRole('heading', { level: 2 });
  expect(await heading.evaluate((title) => title.scrollWidth <= title.clientWidth && title.scrollHeight <= title.clientHeight)).toBe(true);

  // The caption files, beside the video.
  const [srt] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'SRT caption file' }).click()]);
  expect(srt.suggestedFilename()).toMatch(/\.srt$/);
  const srtText = await readFile((await srt.path())!, 'utf8');
  expect(srtText).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n\S/);
  const [vtt] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'VTT caption file' }).click()]);
  expect(vtt.suggestedFilename()).toMatch(/\.vtt$/);
  const vttText = await readFile((await vtt.path())!, 'utf8');
  expect(vttText).toMatch(/^WEBVTT\r?\n\r?\n(\d+\r?\n)?\d\d:\d\d(:\d\d)?\.\d{3} --> /);

  // The post kit: one click copies each part.
  await row.getByRole('button', { name: 'Post kit' }).click();
  const title = (await (await page.request.get(`/api/videos/${jobId}`, { headers: bearer(user) })).json()).result.post.title as string;
  await expect(row.getByText(title, { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Copy title' }).click();
  await expect(page.getByText('Title copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(title);
  await row.getByRole('button', { name: 'Copy hashtags' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^#\S+( #\S+){2,7}$/);

  // Edited, saved, and still there after a reload.
  await row.getByRole('button', { name: 'Edit post text' }).click();
  await row.getByLabel('Title').fill(`Stripes that confuse flies ${id}`);
  await row.getByLabel('Hashtags').fill('zebras, #Stripes Savanna');
  await row.getByRole('button', { name: 'Save post text' }).click();
  await expect(page.getByText('Post text saved')).toBeVisible();
  await expect(row.getByText('#zebras #Stripes #Savanna')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Post kit' }).click();
  await expect(page.getByText(`Stripes that confuse flies ${id}`, { exact: true })).toBeVisible();
  await expect(page.getByText('#zebras #Stripes #Savanna')).toBeVisible();
});
