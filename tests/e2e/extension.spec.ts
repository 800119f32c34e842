import { expect, test, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageScripts } from '../../scripts/extension-bundle.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
import { subscribeThroughTestCheckout } from './session.js';

/**
 * The Chrome extension against the real server: a build of it pointed at the e2e server, loaded
 * unpacked into Chromium (extensions need a persistent profile; --headless=new runs them).
 * One creator's journey, in order: sign in from the popup, generate, watch the badge, lose the
 * service worker mid-job, still get the notification; then the web app's hand-off and the
 * context menu.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 8181);
const origin = `http://127.0.0.1:${port}`;
const PASSWORD = 'correct-horse';
const email = `extension-${Date.now().toString(36)}@example.com`;

let extensionDir: string;
let profileDir: string;
let context: BrowserContext;
let extensionId: string;

async function serviceWorker(): Promise<Worker> {
  const running = context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${extensionId}/`));
  return running ?? context.waitForEvent('serviceworker', { timeout: 30_000 });
}

/** Runs `fn` in the extension's service worker (waking it if Chrome stopped it). */
async function inWorker<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T> {
  return (await serviceWorker()).evaluate(fn as (arg: unknown) => T | Promise<T>, arg);
}

const badgeText = () => inWorker(() => chrome.action.getBadgeText({}), undefined);

async function openExtensionPage(path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/${path}`);
  return page;
}

test.beforeAll(async ({ request }) => {
  extensionDir = mkdtempSync(join(tmpdir(), 'reelsmith-extension-'));
  const build = spawnSync('npx', ['vite', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, VITE_API_BASE_URL: origin, VITE_WEB_APP_ORIGINS: origin, EXTENSION_OUT_DIR: extensionDir },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`Building the extension failed:\n${build.stdout}\n${build.stderr}`);

  const registered = await request.post('/auth/register', { data: { name: 'Kai Extension', email, password: PASSWORD } });
  expect(registered.ok()).toBe(true);

  profileDir = mkdtempSync(join(tmpdir(), 'reelsmith-profile-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: false,
    viewport: { width: 1280, height: 800 },
    args: ['--headless=new', ...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  extensionId = new URL(first.url()).host;
});

test.afterAll(async () => {
  await context?.close();
  for (const dir of [extensionDir, profileDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('signs in from the popup, generates, survives a stopped worker and notifies on completion', async () => {
  const popup = await openExtensionPage('src/popup/index.html');
  await popup.getByLabel('Email').fill(email);
  await popup.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await popup.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(popup.getByText('Signed in as Kai Extension')).toBeVisible();
  // Every resolution's name fits its select whole ("16:9 · Landscape", not "16:9 · Landscap").
  const cutOff = await popup.getByLabel('Resolution').evaluate((select: HTMLSelectElement) => {
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Array.from(select.options, (option) => option.text).filter((text) => context.measureText(text).width > room);
  });
  expect(cutOff).toEqual([]);
  // The worker follows the sign-in through chrome.storage.
  await expect.poll(() => inWorker(async () => (await chrome.storage.local.get('token')).token !== undefined, undefined)).toBe(true);

  const topic = 'Why octopuses have three hearts';
  await popup.getByLabel('Topic').fill(topic);
  const male = popup.getByRole('radiogroup', { name: 'Male voices' });
  await male.getByRole('radio').first().check();
  await popup.getByRole('button', { name: 'Generate Video' }).click();
  await expect(popup.getByText('Video generation started! Watch the progress below.')).toBeVisible();
  await expect(popup.getByRole('progressbar', { name: `${topic} progress` })).toBeVisible();
  await expect.poll(badgeText).toBe('1');
  const jobId = await inWorker(async () => {
    const state = (await chrome.storage.local.get('reelsmith-extension-jobs'))['reelsmith-extension-jobs'] as {
      jobs: Array<{ id: string }>;
    };
    return state.jobs[0]!.id;
  }, undefined);
  // The creator closes the popup; the job goes on in the worker.
  await popup.close();

  // Chrome stops idle workers; do it mid-job through the DevTools protocol.
  const cdp: CDPSession = await context.browser()!.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${extensionId}/`));
  expect(worker).toBeDefined();
  await cdp.send('Target.closeTarget', { targetId: worker!.targetId });
  await expect.poll(async () => (await cdp.send('Target.getTargets')).targetInfos.some((t) => t.targetId === worker!.targetId)).toBe(false);

  // The minute alarm wakes a fresh worker, which reconciles over REST and announces the video once.
  const notificationIds = () =>
    inWorker(async () => Object.keys(await chrome.notifications.getAll()), undefined).catch(() => [] as string[]);
  await expect.poll(notificationIds, { timeout: 240_000, intervals: [5_000] }).toContain(`reelsmith-job:${jobId}`);
  expect(await badgeText()).toBe('');

  // Clicking the notification opens the finished video.
  const videoTab = context.waitForEvent('page');
  await inWorker(
    (id) => (globalThis as unknown as { reelsmith: { notificationClicked(id: string): Promise<void> } }).reelsmith.notificationClicked(id),
    `reelsmith-job:${jobId}`,
  );
  await expect.poll(async () => (await videoTab).url()).toMatch(new RegExp(`^${origin}/output/.+\\.mp4$`));
  const video = await context.request.get((await videoTab).url());
  expect(video.ok()).toBe(true);
  expect(video.headers()['content-type']).toContain('video/mp4');
});

test('the web app hands the extension a one-time code that signs it in', async () => {
  await inWorker(() => chrome.storage.local.remove(['token', 'reelsmith-auth']), undefined);
  await expect.poll(() => inWorker(async () => (await chrome.storage.local.get('token')).token ?? null, undefined)).toBeNull();

  const web = await context.newPage();
  await web.goto(`${origin}/login`);
  await web.getByLabel('Email').fill(email);
  await web.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await web.getByRole('button', { name: 'Sign In', exact: true }).click();
  const banner = web.getByRole('region', { name: 'Chrome extension' });
  await expect(banner.getByText('Try our Chrome Extension!')).toBeVisible();
  await banner.getByRole('button', { name: 'Connect the extension' }).click();
  await expect(web.getByText('The Chrome extension is now signed in.')).toBeVisible();

  const token = await inWorker(async () => (await chrome.storage.local.get('token')).token as string, undefined);
  const webToken = await web.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  // The extension got a session of its own, never the web app's token.
  expect(token).not.toBe(webToken);
  const popup = await openExtensionPage('src/popup/index.html');
  await expect(popup.getByText('Signed in as Kai Extension')).toBeVisible();

  // Logging out in the web app leaves the extension signed in (sessions are per device).
  await web.getByRole('button', { name: /account menu/i }).click();
  await web.getByRole('menuitem', { name: 'Logout' }).click();
  const profile = await context.request.get(`${origin}/auth/profile`, { headers: { authorization: `Bearer ${token}` } });
  expect(profile.status()).toBe(200);
  await popup.close();
  await web.close();
});

test('the popup opens on the splash, not a blank frame, and its scripts carry no router or studio shell', () => {
  const html = readFileSync(join(extensionDir, 'src', 'popup', 'index.html'), 'utf8');
  expect(html).toMatch(/<div id="root"><div class="rs-splash" role="status" aria-label="Loading Reelsmith">/);
  // The entry script and every file it imports statically: what the popup runs before its first frame.
  const scripts = pageScripts(extensionDir, 'popup');
  expect(scripts.length).toBeGreaterThan(1);
  for (const script of scripts) {
    const text = readFileSync(join(extensionDir, script), 'utf8');
    // react-router's own error text, and class names only the web shell and its pages use.
    for (const marker of ['useNavigate() may be used only', 'rs-shell__sidebar', 'rs-drawer', 'rs-plan-grid']) {
      expect(text.includes(marker), `${marker} in ${script}`).toBe(false);
    }
  }
});

test('"Create a video about this" opens the studio with the selected text as the topic', async () => {
  const topic = 'The history of the printing press';
  const windowId = await inWorker(async () => (await chrome.windows.getAll())[0]!.id!, undefined);
  const pending = await inWorker(
    ({ topic, windowId }) =>
      (
        globalThis as unknown as {
          reelsmith: { contextMenuClicked(info: object, tab: object): Promise<{ request: { kind: string; topic?: string } } | null> };
        }
      ).reelsmith.contextMenuClicked({ menuItemId: 'reelsmith-create-video', selectionText: `  ${topic}\n` }, { windowId, id: 1 }),
    { topic, windowId },
  );
  expect(pending?.request).toEqual({ kind: 'topic', topic });
  // Chrome opens the panel only inside a real menu click, which automation cannot make; the
  // panel page itself is what it would show.
  const panel = await openExtensionPage('src/sidepanel/index.html');
  await expect(panel.getByLabel('Topic')).toHaveValue(topic);
  await expect.poll(() => inWorker(async () => Object.keys(await chrome.storage.session.get(null)), undefined)).toEqual([]);
});

test('the popup and the side panel show one state of a job, through a completion and a failure', async () => {
  // The worker is signed in again (the hand-off test above). The free video is used: buy a plan.
  const token = await inWorker(async () => (await chrome.storage.local.get('token')).token as string, undefined);
  await subscribeThroughTestCheckout(context.request, token, { origin });

  const popup = await openExtensionPage('src/popup/index.html');
  const panel = await openExtensionPage('src/sidepanel/index.html');
  const recent = panel.getByRole('region', { name: /Recent Videos/ });
  await expect(recent.getByText('Live')).toBeVisible();

  // Submitted from the side panel: it goes through the worker, like the popup's.
  const topic = 'How lighthouses keep ships safe';
  await panel.getByLabel('Topic').fill(topic);
  await panel.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await panel.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await panel.getByRole('button', { name: 'Generate Video' }).click();
  await expect(panel.getByText('Video generation started! Watch the progress below.')).toBeVisible();
  await expect(popup.getByRole('progressbar', { name: `${topic} progress` })).toBeVisible();
  await expect(recent.getByRole('progressbar', { name: `Progress of ${topic}` })).toBeVisible();

  const panelJob = (title: string) =>
    recent.getByRole('listitem').filter({ has: panel.getByRole('heading', { name: title, exact: true }) });
  await expect(panelJob(topic).getByText('Completed', { exact: true })).toBeVisible({ timeout: 4 * 60_000 });
  const popupRow = popup.getByRole('article', { name: `Job ${topic}` });
  await expect(popupRow.getByRole('button', { name: /Watch/ })).toBeVisible();
  // The finished video's poster, in the popup and in the panel's list, loaded lazily.
  for (const poster of [popupRow.locator('img'), panelJob(topic).locator('.rs-poster img')]) {
    await expect(poster).toHaveAttribute('loading', 'lazy');
    await expect
      .poll(() => poster.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 15_000 })
      .toBeGreaterThan(0);
  }
  await expect(popup.getByRole('progressbar', { name: `${topic} progress` })).toBeHidden();

  // A job that fails (an API caller's voice the server does not have), sent as the worker's own submit.
  const failingTopic = 'A voice nobody has';
  const submitted = await popup.evaluate(
    (topic) =>
      chrome.runtime.sendMessage({
        type: 'submit',
        params: {
          topic,
          style: 'educational',
          language: 'en',
          duration: 30,
          voice: 'no-such-voice',
          visualStyle: 'cinematic',
          resolution: '9:16',
          customPrompt: '',
          enableZoom: true,
          zoomDirection: 'in',
          enableCaptions: false,
          captionStyle: 'tiktok',
        },
      }),
    failingTopic,
  );
  expect(submitted).toMatchObject({ ok: true, status: expect.any(String) });
  const failedRow = popup.getByRole('article', { name: `Job ${failingTopic}` });
  await expect(failedRow.getByText(/^Video generation failed/)).toBeVisible({ timeout: 2 * 60_000 });
  const popupText = (await failedRow.getByText(/^Video generation failed/).textContent())!;
  // The panel's toast says the same words, once, and its list shows the job failed.
  await expect(panel.getByText(popupText, { exact: true })).toHaveCount(1);
  await expect(panelJob(failingTopic).getByText('Failed', { exact: true })).toBeVisible();
  expect(popupText).not.toMatch(/failed: Video generation failed/);

  // Both read one stored state.
  const stored = await inWorker(async () => {
    const state = (await chrome.storage.local.get('reelsmith-extension-jobs'))['reelsmith-extension-jobs'] as {
      jobs: Array<{ params: { topic: string }; status: string }>;
    };
    return Object.fromEntries(state.jobs.map((job) => [job.params.topic, job.status]));
  }, undefined);
  expect(stored).toMatchObject({ [topic]: 'completed', [failingTopic]: 'failed' });
  await popup.close();
  await panel.close();
});
