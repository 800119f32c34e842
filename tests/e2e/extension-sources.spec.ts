import { expect, test, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';

/**
 * "Make a video of this page" in the Chrome extension, against the real server: the popup reads the
 * article inside the page (Readability injected with chrome.scripting), sends it as an article
 * source with the page's title and address, and the finished video is credited to that page.
 *
 * Chrome grants activeTab only for a real click on the toolbar button or the page's menu, which
 * automation cannot make; the test page is served (by this test) at the API's origin, which the
 * extension's host permission covers, so the same executeScript runs on it.
 */
test.describe.configure({ mode: 'serial', timeout: 8 * 60_000 });

const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 8181);
const origin = `http://127.0.0.1:${port}`;
const PASSWORD = 'correct-horse';
const email = `page-video-${Date.now().toString(36)}@example.com`;
const ARTICLE_URL = `${origin}/e2e-pages/lighthouses.html`;
const ARTICLE_TITLE = 'How lighthouses keep ships safe';

const ARTICLE = [
  'The first lighthouse we know of stood at Alexandria, on the island of Pharos, more than two thousand years ago.',
  'Its fire burned at the top of a stone tower, and sailors could see it from far out at sea.',
  'For centuries every light was a fire of wood or coal, and keepers climbed the stairs all night to feed it.',
  'In 1822 the French engineer Augustin Fresnel built a lens of glass rings that bent the light into one strong beam.',
  'A Fresnel lens sent the beam much further than any mirror, and lighthouses around the world adopted it.',
  'Each lighthouse flashes in its own pattern, so a navigator who counts the flashes knows which coast the ship is passing.',
  'On foggy nights the light could not be seen, so many stations also sounded a horn at fixed intervals.',
  'Keepers kept logbooks of the weather, the ships that passed and every hour the lamp was lit.',
  'Electric lamps replaced oil in the twentieth century, and the lights began to run by themselves.',
  'Today satellite navigation guides most ships, but lighthouses still warn sailors away from rocks and shallow water.',
  'Many old towers are museums now, and visitors climb them to see the lens that once saved ships.',
];

const PAGE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${ARTICLE_TITLE} | Coast Weekly</title></head>
<body>
  <header><nav><a href="/">Home</a> · <a href="/news">News</a> · <a href="/sport">Sport</a> · <a href="/weather">Weather</a> · <a href="/shop">Shop</a></nav></header>
  <div class="cookie-banner" id="cookie-consent">We use cookies to improve your experience and show you personalised offers. <button>Accept all cookies</button></div>
  <aside class="advertisement ad-slot">Win a cruise! Subscribe to our newsletter today and save forty percent on your first order.</aside>
  <main><article>
    <h1>${ARTICLE_TITLE}</h1>
    <p class="byline">By Ana Reef</p>
    ${ARTICLE.map((sentence) => `<p>${sentence}</p>`).join('\n    ')}
  </article></main>
  <aside class="related"><h3>Read next</h3><a href="/beaches">Ten best beaches for a summer holiday</a></aside>
  <footer>© 2026 Coast Weekly. Privacy policy · Terms of use · Contact the newsroom · Advertise with us</footer>
</body></html>`;

let extensionDir: string;
let profileDir: string;
let context: BrowserContext;
let extensionId: string;

async function serviceWorker(): Promise<Worker> {
  const running = context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${extensionId}/`));
  return running ?? context.waitForEvent('serviceworker', { timeout: 30_000 });
}

async function inWorker<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T> {
  return (await serviceWorker()).evaluate(fn as (arg: unknown) => T | Promise<T>, arg);
}

/** Opens the extension's popup in a window of its own, as the toolbar button would beside the page. */
async function openPopupWindow(): Promise<Page> {
  const opened = context.waitForEvent('page', { predicate: (page) => page.url().includes('/src/popup/index.html') });
  await inWorker(
    () => chrome.windows.create({ url: chrome.runtime.getURL('src/popup/index.html'), type: 'popup', width: 420, height: 760 }),
    undefined,
  );
  return opened;
}

async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) });
}

test.beforeAll(async ({ request }) => {
  extensionDir = mkdtempSync(join(tmpdir(), 'reelsmith-extension-'));
  const build = spawnSync('npx', ['vite', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, VITE_API_BASE_URL: origin, VITE_WEB_APP_ORIGINS: origin, EXTENSION_OUT_DIR: extensionDir },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`Building the extension failed:\n${build.stdout}\n${build.stderr}`);
  const registered = await request.post('/auth/register', { data: { name: 'Pia Page', email, password: PASSWORD } });
  expect(registered.ok()).toBe(true);

  profileDir = mkdtempSync(join(tmpdir(), 'reelsmith-profile-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: false,
    viewport: { width: 1280, height: 800 },
    args: ['--headless=new', ...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  await context.route(ARTICLE_URL, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PAGE_HTML }));
  const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  extensionId = new URL(first.url()).host;
});

test.afterAll(async () => {
  await context?.close();
  for (const dir of [extensionDir, profileDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('"Make a video of this page" in the popup tells the page\'s article and credits the page', async () => {
  const article = context.pages()[0] ?? (await context.newPage());
  await article.goto(ARTICLE_URL);
  await article.bringToFront();

  const popup = await openPopupWindow();
  await popup.getByLabel('Email').fill(email);
  await popup.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await popup.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(popup.getByText('Signed in as Pia Page')).toBeVisible();

  await popup.getByRole('button', { name: 'Make a video of this page' }).click();
  await expect(popup.getByRole('button', { name: 'Article or link' })).toHaveAttribute('aria-pressed', 'true');
  const credit = popup.getByRole('link', { name: new RegExp(ARTICLE_TITLE) });
  await expect(credit).toHaveAttribute('href', ARTICLE_URL);
  const text = await popup.getByLabel('Article text or link').inputValue();
  // The article's body, nothing of the navigation, cookie banner, advert or footer.
  for (const sentence of ARTICLE) expect(text).toContain(sentence);
  for (const noise of ['cookies', 'cruise', 'Weather', 'Privacy policy', 'Ten best beaches']) expect(text).not.toContain(noise);
  await popup.setViewportSize({ width: 400, height: 700 });
  await shoot(popup, 'sources-popup-page');
  await popup.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await popup.getByRole('button', { name: 'Generate Video' }).click();
  await expect(popup.getByText('Video generation started! Watch the progress below.')).toBeVisible();

  const token = await inWorker(async () => (await chrome.storage.local.get('token')).token as string, undefined);
  const headers = { Authorization: `Bearer ${token}` };
  type Job = { id: string; status: string; params: { topic: string; source?: { kind: string; title?: string; url?: string } } };
  const job = async (): Promise<Job | undefined> =>
    ((await (await context.request.get(`${origin}/api/videos`, { headers })).json()) as { jobs: Job[] }).jobs[0];
  await expect.poll(async () => (await job())?.status, { timeout: 5 * 60_000, intervals: [5_000] }).toBe('completed');
  const made = (await job())!;
  expect(made.params.source).toMatchObject({ kind: 'article', url: ARTICLE_URL, title: expect.stringContaining(ARTICLE_TITLE) });

  // Every narration sentence is one of the article's.
  const board = (await (await context.request.get(`${origin}/api/videos/${made.id}/storyboard`, { headers })).json()) as {
    scenes: Array<{ narration: string; sourceSentences?: string[] }>;
  };
  const told = board.scenes.flatMap((scene) => scene.sourceSentences ?? []);
  expect(told.length).toBeGreaterThan(0);
  for (const sentence of told) expect(ARTICLE).toContain(sentence);

  // The side panel's Recent Videos credits the page, with its link.
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
  const recent = panel.getByRole('region', { name: /Recent Videos/ });
  await expect(recent.getByRole('link', { name: ARTICLE_TITLE, exact: true })).toHaveAttribute('href', ARTICLE_URL);
  await expect(recent.getByText(/^Based on:/)).toBeVisible();
  await shoot(panel, 'sources-sidepanel-credit');
  await popup.close();
  await panel.close();
});

test('the page\'s context menu: "Make a video of this page" and "Make a video of this text" fill the side panel\'s form', async () => {
  const article = context.pages().find((page) => page.url() === ARTICLE_URL)!;
  await article.bringToFront();
  const { windowId, tabId } = await inWorker(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    return { windowId: tab!.windowId, tabId: tab!.id! };
  }, ARTICLE_URL);
  const clicked = (info: object) =>
    inWorker(
      ({ info, windowId, tabId }) =>
        (
          globalThis as unknown as { reelsmith: { contextMenuClicked(info: object, tab: object): Promise<unknown> } }
        ).reelsmith.contextMenuClicked(info, { windowId, id: tabId }),
      { info, windowId, tabId },
    );
  expect(await clicked({ menuItemId: 'reelsmith-page-video' })).toMatchObject({ request: { kind: 'article', url: ARTICLE_URL } });
  // Chrome opens the panel only inside a real menu click; the panel page itself is what it would show.
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
  const form = panel.getByRole('form', { name: 'Generate a video' });
  await expect(form.getByRole('button', { name: 'Article or link' })).toHaveAttribute('aria-pressed', 'true');
  await expect(form.getByLabel('Article text or link')).toHaveValue(new RegExp(ARTICLE[0]!.slice(0, 40)));
  await expect(form.getByRole('link', { name: new RegExp(ARTICLE_TITLE) })).toHaveAttribute('href', ARTICLE_URL);
  await shoot(panel, 'sources-sidepanel-page');

  const selection = 'Every lighthouse flashes in its own pattern. Sailors count the flashes.';
  await clicked({ menuItemId: 'reelsmith-script-video', selectionText: selection });
  await expect(form.getByRole('button', { name: 'Script', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(form.getByLabel('Script', { exact: true })).toHaveValue(selection);
  await panel.close();
});
