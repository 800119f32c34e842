import { expect, test } from '@playwright/test';
import { bearer, signInThroughApi, uniqueId } from './session.js';

/**
 * A creator connects YouTube through the consent page (the local fake of Google's, whose address the
 * suite's server has in GOOGLE_OAUTH_AUTHORIZE_URL), publishes a finished video from My Videos and
 * sees the link to it on YouTube.
 */
test('connect YouTube through its consent page, publish from My Videos, see the link', async ({ page, context }) => {
  // Generating the video is most of it: on a loaded machine it takes longer than the suite's default.
  test.setTimeout(300_000);
  const user = await signInThroughApi(page, `publisher-${uniqueId()}@example.com`, 'Publishing Creator');
  const voices = (await (await page.request.get('/voices?language=en')).json()) as { voices: { female: { id: string }[] } };
  const topic = `Why lighthouses blink ${uniqueId()}`;
  const generated = await page.request.post('/api/videos/generate', {
    headers: bearer(user),
    data: { topic, style: 'educational', language: 'en', duration: 30, resolution: '9:16', voice: voices.voices.female[0]!.id },
  });
  expect(generated.ok(), await generated.text()).toBe(true);
  const { jobId } = (await generated.json()) as { jobId: string };

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Connections' }).click();
  const youtube = page.locator('.rs-connection[data-platform="youtube"]');
  await expect(youtube).toContainText('Not connected');
  // The consent page opens beside the studio, as the platform's own would.
  const [consent] = await Promise.all([context.waitForEvent('page'), youtube.getByRole('button', { name: 'Connect YouTube' }).click()]);
  await expect(consent.getByText('Reelsmith wants to post videos to Reelsmith Test Channel.')).toBeVisible();
  await consent.getByRole('link', { name: 'Allow' }).click();
  await expect(consent).toHaveURL(/\/settings$/);
  await expect(consent.getByText('YouTube connected')).toBeVisible();
  await consent.close();

  // The tab the creator started from hears it (no reload): it shows the connection.
  await expect(page.locator('.rs-connection[data-platform="youtube"]')).toContainText('Connected as Reelsmith Test Channel');

  // The video finishes while the creator connects; My Videos shows it with Publish.
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/videos/${jobId}/status`, { headers: bearer(user) })).json()) as { status: string }).status,
      {
        timeout: 240_000,
      },
    )
    .toBe('completed');
  await page.goto('/videos');
  const publish = page.getByRole('button', { name: /^Publish / }).first();
  await publish.click();
  const dialog = page.getByRole('dialog', { name: 'Publish' });
  await dialog.getByRole('checkbox', { name: /YouTube/ }).check();
  await expect(dialog.getByLabel('Title')).not.toHaveValue('');
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await expect(dialog).toBeHidden();

  const link = page.getByRole('link', { name: 'View on YouTube' });
  await expect(link).toBeVisible({ timeout: 30_000 });
  await expect(link).toHaveAttribute('href', /^https:\/\/www\.youtube\.com\/watch\?v=vid[0-9a-f]{8}$/);
  const publications = (await (await page.request.get(`/api/videos/${jobId}/publications`, { headers: bearer(user) })).json()) as {
    publications: { platform: string; status: string }[];
  };
  expect(publications.publications).toEqual([expect.objectContaining({ platform: 'youtube', status: 'published' })]);

  // Scheduled on a phone: YouTube gets it now, private, and makes it public at the time; the dialog says so.
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole('button', { name: /^Publish / })
    .first()
    .click();
  const phoneDialog = page.getByRole('dialog', { name: 'Publish' });
  await phoneDialog.getByRole('checkbox', { name: /YouTube/ }).check();
  await phoneDialog.getByRole('radio', { name: 'At a date and time' }).check();
  const at = new Date(Date.now() + 26 * 3600_000);
  const local = (n: number) => String(n).padStart(2, '0');
  await phoneDialog
    .getByLabel(/^Date and time/)
    .fill(`${at.getFullYear()}-${local(at.getMonth() + 1)}-${local(at.getDate())}T${local(at.getHours())}:${local(at.getMinutes())}`);
  await expect(phoneDialog.getByLabel('Privacy')).toHaveCount(0);
  const held = phoneDialog.getByRole('status');
  await expect(held).toContainText('will be public at');
  await held.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('publish-youtube-scheduled-390.png') });
  await phoneDialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(phoneDialog).toBeHidden();
  // Uploaded at once and held private by YouTube until its time, with what can still be done.
  await expect(page.getByText(/Uploaded, private until .*: YouTube makes it public then\./).first()).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('publication-held-390.png') });
  await page.getByRole('button', { name: 'Keep private' }).first().click();
  await expect(page.getByText('Kept private on YouTube: it will not go public.').first()).toBeVisible();
});
