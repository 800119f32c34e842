import { expect, test, type Page } from '@playwright/test';
import { signInThroughApi, uniqueId } from './session.js';

/** The first load's JavaScript budget on a phone, on the wire (brotli and headers), as Lighthouse counts it. */
const FIRST_LOAD_JS_BUDGET_BYTES = 120 * 1024;

/** Scripts only some views need: their schemas and code must not be fetched (or evaluated) by the first screen. */
const NOT_AT_START_UP = [
  /routes-more-/,
  /admin-users-/,
  /storyboard-/,
  /developer-/,
  /caption-style-picker-/,
  /account-menu-/,
  /pricing-dialog-/,
  // socket.io-client (about 12 KB): only where a WebSocket cannot open.
  /\/esm-/,
  // Radix's dialog (focus trap, scroll lock): with the first confirmation or preview.
  /confirm-dialog-modal-|video-preview-dialog-|react-remove-scroll|es2015-/,
];

// A phone (a mobile user agent: the extension banner is for desktop Chrome) on the studio's first screen.
test.use({
  viewport: { width: 412, height: 823 },
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
});

/** Every script the page fetched until the network went quiet, with its bytes on the wire. */
async function firstLoadScripts(page: Page): Promise<Array<{ path: string; bytes: number }>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, { path: string; bytes: number }>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.set(event.requestId, { path: new URL(event.response.url).pathname, bytes: 0 });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const script = scripts.get(event.requestId);
    if (script) script.bytes = event.encodedDataLength;
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  // What the page fetches once it is idle (a preload on idle, a lazily loaded part) counts as well.
  await page.waitForTimeout(1500);
  return [...scripts.values()];
}

const total = (scripts: Array<{ bytes: number }>) => scripts.reduce((sum, script) => sum + script.bytes, 0);
const lateScripts = (scripts: Array<{ path: string }>) =>
  scripts.map((script) => script.path).filter((path) => NOT_AT_START_UP.some((pattern) => pattern.test(path)));

test('a visitor’s first load stays within 120 KB of JavaScript and fetches no view’s schemas it does not show', async ({ page }) => {
  const scripts = await firstLoadScripts(page);
  await expect(page.getByRole('heading', { name: 'Create AI videos for social media' })).toBeVisible();
  expect(lateScripts(scripts)).toEqual([]);
  expect(total(scripts), scripts.map((s) => `${s.path} ${s.bytes}`).join('\n')).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
});

test('a signed-in first load stays within 120 KB of JavaScript and fetches neither the account menu, the pricing dialog nor the registry’s other half', async ({
  page,
}) => {
  await signInThroughApi(page, `budget-${uniqueId()}@e2e.reelsmith.test`, 'Budget Check');
  const scripts = await firstLoadScripts(page);
  await expect(page.getByRole('heading', { name: 'Welcome back, Budget Check!' })).toBeVisible();
  // The live connection is up without socket.io-client (jobs/live-socket.ts), and no dialog code came with the panels.
  await expect(page.getByRole('region', { name: /Recent Videos/ }).getByText('Live')).toBeVisible();
  expect(lateScripts(scripts)).toEqual([]);
  expect(total(scripts), scripts.map((s) => `${s.path} ${s.bytes}`).join('\n')).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
  // The account menu still works: its code arrives with the first click.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
});

test('the caption picker loads when captions are switched on and plays only the chosen preview', async ({ page }) => {
  const pickerScripts: string[] = [];
  page.on('request', (request) => {
    if (/caption-style-picker-[\w-]+\.js$/.test(request.url())) pickerScripts.push(request.url());
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  expect(pickerScripts).toEqual([]);
  await page.getByRole('switch', { name: 'Captions' }).click({ force: true });
  const picker = page.getByRole('radiogroup', { name: 'Caption Style' });
  await expect(picker.getByRole('radio')).toHaveCount(13);
  expect(pickerScripts).toHaveLength(1);
  // Thirteen looping previews repainted on the main thread for as long as the form was open.
  const playing = async () =>
    page.evaluate(() =>
      document
        .getAnimations()
        .filter((animation) => animation.playState === 'running')
        .map((animation) => ((animation.effect as KeyframeEffect).target as Element).closest('label')?.textContent ?? ''),
    );
  await expect.poll(async () => [...new Set(await playing())]).toEqual([expect.stringContaining('TikTok')]);
});
