import { expect, test, type Page, type Request } from '@playwright/test';
import { startFakeWikimediaServer, type FakeWikimediaServer } from '@reelsmith/pipeline/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bearer, signInThroughApi, uniqueId } from './session.js';

/**
 * Topic mode's "Facts from Wikipedia" line, on a server of its own pointed at a local fake of
 * Wikipedia and Commons (the suite's shared server has RESEARCH_PROVIDER=off and never reaches
 * Wikimedia): the article the video will use, changing it, "Don't look it up", and the credits the
 * finished video carries in My Videos.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 8181) + 4;
const origin = `http://127.0.0.1:${port}`;
let fake: FakeWikimediaServer;
let server: ChildProcess;

test.use({ baseURL: origin });

test.beforeAll(async () => {
  fake = await startFakeWikimediaServer();
  server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'reelsmith-e2e-research-')),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTH_MAX: '1000',
      GALLERY_EXAMPLES: 'off',
      PUBLIC_URL: origin,
      // RESEARCH_PROVIDER=wikipedia, WIKIPEDIA_API_URL, COMMONS_API_URL and RESEARCH_MEDIA_HOSTS: the fake.
      ...fake.env,
    },
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the research server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});
test.afterAll(async () => {
  server?.kill('SIGTERM');
  await fake?.close();
});

/** Screenshots for a person to look at (E2E_SCREENSHOT_DIR; none when unset): the screen as it is, the topic field in view. */
async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  await page.getByLabel('Topic', { exact: true }).evaluate((field) => field.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

const generateBody = (request: Request) => request.postDataJSON() as { topic: string; research?: boolean; source?: unknown };
const isGenerate = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/videos/generate';

test('the Topic form names the Wikipedia article, the creator changes it, and My Videos credits what the video used', async ({ page }) => {
  test.setTimeout(8 * 60_000);
  const user = await signInThroughApi(page, `research-${uniqueId()}@example.com`, 'Rhea Research');
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Generate a video' });
  await form.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await form.getByLabel('Topic', { exact: true }).fill('How lighthouses warn ships off the reefs');
  // The article a topic-only video of this topic is told from, looked up once the typing pauses.
  const line = form.getByText(/^Facts from Wikipedia:/);
  await expect(line).toHaveText('Facts from Wikipedia: Lighthouse');
  await shoot(page, 'research-facts-line');

  await form.getByRole('button', { name: 'Change the Wikipedia article (now Lighthouse)' }).click();
  const picker = form.getByRole('group', { name: 'Tell the video from' });
  await expect(picker.getByRole('radio', { name: /^Lighthouse/ })).toBeChecked();
  await expect(picker.getByRole('radio', { name: /^Octopus/ })).not.toBeChecked();
  await expect(picker.getByRole('radio', { name: /Don't look it up/ })).toBeVisible();
  await shoot(page, 'research-picker');
  await picker.getByRole('radio', { name: /^Octopus/ }).click();
  await expect(line).toHaveText('Facts from Wikipedia: Octopus');
  await expect(picker).toBeHidden();

  await form.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  const sent = page.waitForRequest(isGenerate);
  await form.getByRole('button', { name: 'Generate Video' }).click();
  // The picked article goes with the topic as the video's source.
  expect(generateBody(await sent)).toMatchObject({
    topic: 'How lighthouses warn ships off the reefs',
    source: { kind: 'wikipedia', title: 'Octopus' },
  });
  await expect(page.getByText('Video generation started! Watch the progress below.')).toBeVisible();

  await page.goto('/videos');
  // The creator's only video.
  const row = page.locator('li.rs-video-row');
  await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 6 * 60_000 });
  await expect(row.getByText(/^Based on Wikipedia:/)).toHaveText('Based on Wikipedia: Octopus');
  await row.getByText(/^Credits \(\d+\)$/).click();
  const credits = row.getByRole('list', { name: 'Credits' });
  await expect(credits.getByRole('listitem').first()).toHaveText('Text: Octopus by Wikipedia contributors, CC BY-SA 4.0');
  await expect(credits.getByRole('link', { name: 'Octopus', exact: true })).toHaveAttribute('href', `${fake.url}/en/wiki/Octopus`);
  // The article's own lead picture, free (CC BY-SA), credited to its author with the markup stripped.
  await expect(credits).toContainText('Picture: Common octopus on a reef by Ana Reef & friends, CC BY-SA 4.0');
  await expect(credits).not.toContainText(/NC|ND|Fair use|Nobody Knows/);

  const { jobs } = (await (await page.request.get('/api/videos', { headers: bearer(user) })).json()) as {
    jobs: Array<{ result?: { attributions?: Array<{ kind: string }> } }>;
  };
  expect(jobs[0]!.result!.attributions!.filter((credit) => credit.kind === 'image').length).toBeGreaterThan(0);

  // The storyboard credits each scene's picture where it is shown.
  await row.getByRole('link', { name: /^Edit / }).click();
  const scene = page.getByRole('listitem', { name: 'Scene 1' });
  await expect(scene.getByText(/^Picture:/)).toHaveText('Picture: Common octopus on a reef by Ana Reef & friends, CC BY-SA 4.0');
  if (process.env.E2E_SCREENSHOT_DIR)
    await scene.screenshot({ path: join(process.env.E2E_SCREENSHOT_DIR, 'research-storyboard-scene.png') });
  await expect(scene.getByRole('link', { name: 'Common octopus on a reef' })).toHaveAttribute(
    'href',
    'https://commons.wikimedia.org/wiki/File:Common_octopus_on_a_reef.jpg',
  );
});

test("Don't look it up sends research: false and asks Wikipedia nothing more", async ({ page }) => {
  await signInThroughApi(page, `no-research-${uniqueId()}@example.com`, 'Nico Offline');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Generate a video' });
  await form.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await form.getByLabel('Topic', { exact: true }).fill('Why octopuses have three hearts');
  await expect(form.getByText(/^Facts from Wikipedia:/)).toHaveText('Facts from Wikipedia: Octopus');
  await shoot(page, 'research-facts-line-phone');
  await form.getByRole('button', { name: /Change the Wikipedia article/ }).click();
  await shoot(page, 'research-picker-phone');
  await form.getByRole('radio', { name: /Don't look it up/ }).click();
  await expect(form.getByText('Not looked up on Wikipedia')).toBeVisible();

  const lookUps = () => fake.requests.filter((request) => request.url.pathname.endsWith('/w/api.php')).length;
  const asked = lookUps();
  await form.getByLabel('Topic', { exact: true }).fill('Why octopuses have blue blood');
  await page.waitForTimeout(1_000);
  expect(lookUps()).toBe(asked);
  await expect(form.getByText('Not looked up on Wikipedia')).toBeVisible();

  await form.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  const sent = page.waitForRequest(isGenerate);
  await form.getByRole('button', { name: 'Generate Video' }).click();
  const body = generateBody(await sent);
  expect(body).toMatchObject({ topic: 'Why octopuses have blue blood', research: false });
  expect(body.source).toBeUndefined();
  await expect(page.getByText('Video generation started! Watch the progress below.')).toBeVisible();
  // The job itself sends Wikimedia nothing either.
  await page.waitForTimeout(2_000);
  expect(lookUps()).toBe(asked);
});
