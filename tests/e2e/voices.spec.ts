import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { voicesResponseSchema, voiceSamplePath, voiceSampleStatsSchema } from '@reelsmith/contracts';

/** The first English male voice of the current (offline) provider, once its sample has been generated. */
async function firstEnglishVoiceWithSample(request: APIRequestContext) {
  const voices = voicesResponseSchema.parse(await (await request.get('/voices?language=en')).json());
  const voice = voices.voices.male[0];
  if (!voice) throw new Error('No English male voice');
  const path = voiceSamplePath(voices.provider, voice.id, 'en');
  // A fresh install makes the offline samples in the background, first voice first.
  await expect.poll(async () => (await request.get(path)).status(), { timeout: 90_000, intervals: [500] }).toBe(200);
  return { voice, path, provider: voices.provider };
}

/** Resolves once the audio element has really played: its clock moved forward. */
async function expectAudioAdvances(audio: Locator) {
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.2);
}

test('the server lists voices for every language and serves a playable offline preview sample', async ({ page, request }) => {
  for (const language of ['en', 'hi', 'de', 'es', 'ja', 'fr', 'pt', 'ko', 'zh', 'it']) {
    const body = voicesResponseSchema.parse(await (await request.get(`/voices?language=${language}`)).json());
    expect(body.voices.male.length, language).toBeGreaterThan(0);
    expect(body.voices.female.length, language).toBeGreaterThan(0);
  }
  expect((await request.get('/voices?language=xx')).status()).toBe(400);

  const { path } = await firstEnglishVoiceWithSample(request);
  const stats = voiceSampleStatsSchema.parse(await (await request.get('/api/voice-samples/stats')).json());
  expect(stats.currentProvider).toBe('offline');
  expect(stats.available).toBeGreaterThan(0);

  // Chromium plays the MP3 straight from the static path.
  await page.goto('/health');
  await page.setContent(`<audio controls src="${path}"></audio>`);
  const audio = page.locator('audio');
  await audio.evaluate((element: HTMLAudioElement) => element.play());
  await expectAudioAdvances(audio);
});

test('the studio form lists English voices, plays a preview and selects a voice', async ({ page, request }) => {
  const { voice } = await firstEnglishVoiceWithSample(request);
  await page.goto('/');
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });

  const male = page.getByRole('radiogroup', { name: 'Male voices' });
  const female = page.getByRole('radiogroup', { name: 'Female voices' });
  await expect(male.getByRole('radio').first()).toBeVisible();
  await expect(female.getByRole('radio').first()).toBeVisible();
  await expect(page.getByText('Please select a voice from either male or female voices above.')).toBeVisible();

  await male.getByRole('button', { name: `Play preview of ${voice.name}` }).click();
  await expect(male.getByRole('button', { name: `Pause preview of ${voice.name}` })).toBeVisible();
  await expectAudioAdvances(page.locator(`audio[data-voice-id="${voice.id}"]`));

  await male.getByRole('radio', { name: voice.name, exact: true }).check();
  await expect(male.getByRole('radio', { name: voice.name, exact: true })).toBeChecked();
  await expect(page.getByText('Please select a voice from either male or female voices above.')).toBeHidden();
});
