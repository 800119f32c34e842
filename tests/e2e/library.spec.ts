import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { E2E_LIBRARY_ADMIN_EMAIL } from './playwright.config.js';
import { bearer, signInThroughApi, uniqueId, type SignedInUser } from './session.js';

/**
 * The creator's library as they see it: every video's poster (My Videos, Recent Videos, the
 * embedded studio), one Download per video, the embed offering only what works there, and a
 * suspended creator told why they were signed out.
 */
test.describe.configure({ mode: 'serial' });

const studioPort = Number(process.env.E2E_PORT ?? 8181);
const partnerPort = Number(process.env.E2E_PARTNER_PORT ?? studioPort + 10);
const studioOrigin = `http://127.0.0.1:${studioPort}`;
const partnerOrigin = `http://127.0.0.1:${partnerPort}`;
const PHONE = { width: 390, height: 844 };
const topic = 'How bees find their way home';

let creator: SignedInUser;
let apiKey: string;
let videoId: string;

/** Screenshots for a person to look at (E2E_SCREENSHOT_DIR; none when unset). */
async function shoot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

async function waitForVersion(request: APIRequestContext, version: number) {
  await expect
    .poll(
      async () => {
        const body = await (await request.get(`/api/videos/${videoId}`, { headers: bearer(creator) })).json();
        const job = body.job ?? body;
        if (job.status === 'failed') return `failed: ${job.error}`;
        return job.status === 'completed' && (job.result?.version ?? 1) >= version ? 'done' : job.status;
      },
      { timeout: 5 * 60_000, intervals: [1000] },
    )
    .toBe('done');
}

/** The poster's box and picture: sized before the picture arrives, then showing it. */
async function expectPoster(scope: Locator, box: { width: number; height: number }) {
  const poster = scope.locator('.rs-poster');
  const image = poster.locator('img');
  await expect(image).toHaveAttribute('loading', 'lazy');
  await expect(image).toHaveAttribute('src', /\/output\/.+\.jpg$/);
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 15_000 })
    .toBeGreaterThan(0);
  const measured = await poster.boundingBox();
  expect(Math.round(measured!.width)).toBe(box.width);
  expect(Math.round(measured!.height)).toBe(box.height);
  // The picture really is the video's portrait poster.
  const natural = await image.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight);
  expect(natural).toBeCloseTo(9 / 16, 1);
  await expect(poster.getByLabel(/^Length \d+:\d\d$/)).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(12 * 60_000);
  const page = await browser.newPage({ baseURL: studioOrigin });
  const email = `library-${uniqueId()}@example.com`;
  // The account's API key comes with its registration: the embed test mints its session with it.
  const registered = await page.request.post('/auth/register', { data: { name: 'Lena Library', email, password: 'correct-horse' } });
  expect(registered.ok(), await registered.text()).toBe(true);
  apiKey = (await registered.json()).api_key.key as string;
  const login = await (await page.request.post('/auth/login', { data: { email, password: 'correct-horse' } })).json();
  creator = { ...login.user, token: login.token };
  const voices = await (await page.request.get('/voices?language=en')).json();
  const generated = await page.request.post('/api/videos/generate', {
    headers: bearer(creator),
    data: { topic, style: 'educational', language: 'en', duration: 30, voice: voices.voices.female[0].id },
  });
  expect(generated.ok(), await generated.text()).toBe(true);
  videoId = (await generated.json()).jobId as string;
  await waitForVersion(page.request, 1);
  // A second version: the storyboard rendered again unchanged.
  const rendered = await page.request.post(`/api/videos/${videoId}/render`, { headers: bearer(creator) });
  expect(rendered.status(), await rendered.text()).toBe(202);
  await waitForVersion(page.request, 2);
  await page.close();
});

test("My Videos and Recent Videos show each video's poster in a box of its shape, with its length, and one Download", async ({ page }) => {
  await page.addInitScript(
    ({ user, token }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('reelsmith-auth', JSON.stringify({ state: { user, token, apiKey: null, isAuthenticated: true }, version: 0 }));
    },
    { user: { id: creator.id, name: creator.name, email: creator.email, role: creator.role }, token: creator.token },
  );
  await page.goto('/');
  const recent = page.getByRole('region', { name: /Recent Videos/ });
  const recentItem = recent.getByRole('listitem').filter({ has: page.getByRole('heading', { name: topic }) });
  await expect(recentItem.getByText('Completed', { exact: true })).toBeVisible();
  // A 9:16 video: a portrait box, 72 px tall in the recent list.
  await expectPoster(recentItem, { width: 41, height: 72 });
  await shoot(page, 'recent-videos-desktop');

  await page.getByRole('navigation').getByRole('link', { name: 'My Videos' }).click();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: topic }) });
  await expect(row.getByText('Completed', { exact: true })).toBeVisible();
  await expectPoster(row, { width: 54, height: 96 });
  // One Download, the version menu's, for the version chosen there.
  await expect(row.getByRole('button', { name: 'Download version 2' })).toBeVisible();
  await expect(row.getByRole('button', { name: /Download/ })).toHaveCount(1);
  await shoot(page, 'myvideos-desktop');

  await page.setViewportSize(PHONE);
  await expectPoster(row, { width: 54, height: 96 });
  await expect(row.getByRole('button', { name: /Download/ })).toHaveCount(1);
  await shoot(page, 'myvideos-phone');
});

let partner: Server;
test.describe('the embedded studio', () => {
  test.beforeAll(async () => {
    partner = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><html><head><meta charset="utf-8"><title>Partner</title></head><body>
<div id="studio"></div>
<script src="${studioOrigin}/embed.js"></script>
<script>Reelsmith.mount(document.getElementById('studio'), { sessionToken: new URLSearchParams(location.search).get('token'), mode: 'studio' });</script>
</body></html>`);
    });
    await new Promise<void>((resolve) => partner.listen(partnerPort, '127.0.0.1', resolve));
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => partner.close(() => resolve()));
  });

  test('lists videos with their posters, offers no Edit it cannot open, and asks for nothing it may not read', async ({ page }) => {
    const minted = await page.request.post(`${studioOrigin}/api/embed/sessions`, { headers: { 'x-api-key': apiKey } });
    expect(minted.ok(), await minted.text()).toBe(true);
    const token = (await minted.json()).token as string;
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400 && response.url().startsWith(studioOrigin))
        refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });

    await page.goto(`${partnerOrigin}/?token=${encodeURIComponent(token)}`);
    const studio = page.frameLocator('iframe[title="Reelsmith video studio"]');
    const item = studio.getByRole('listitem').filter({ has: studio.getByRole('heading', { name: topic }) });
    await expect(item.getByRole('button', { name: `Preview ${topic}` })).toBeVisible();
    await expectPoster(item, { width: 41, height: 72 });
    await shoot(page, 'embed-desktop');
    // An embed session may not open the storyboard: no Edit that does nothing.
    await expect(studio.getByRole('link', { name: `Edit ${topic}` })).toHaveCount(0);
    await expect(studio.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
    // Settled: the list has loaded and every first-load call has answered.
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    expect(consoleErrors.filter((text) => /403|Forbidden/.test(text))).toEqual([]);
  });
});

test('a suspended creator is told once why they were signed out and how to appeal', async ({ browser }) => {
  const adminContext = await browser.newContext({ baseURL: studioOrigin });
  const adminPage = await adminContext.newPage();
  const admin = await signInThroughApi(adminPage, E2E_LIBRARY_ADMIN_EMAIL, 'Library Admin', { verifyEmail: true });
  expect(admin.role).toBe('admin');

  const context = await browser.newContext({ baseURL: studioOrigin });
  const page = await context.newPage();
  // The session is stored before the first load only: a reload must not sign the page in again.
  const email = `suspended-${uniqueId()}@example.com`;
  expect((await page.request.post('/auth/register', { data: { name: 'Sami Suspended', email, password: 'correct-horse' } })).ok()).toBe(
    true,
  );
  const login = await (await page.request.post('/auth/login', { data: { email, password: 'correct-horse' } })).json();
  const suspended = { id: login.user.id as string };
  await page.addInitScript(({ user, token }) => {
    if (sessionStorage.getItem('e2e-seeded')) return;
    sessionStorage.setItem('e2e-seeded', '1');
    localStorage.setItem('token', token);
    localStorage.setItem('reelsmith-auth', JSON.stringify({ state: { user, token, apiKey: null, isAuthenticated: true }, version: 0 }));
  }, login);
  await page.goto('/');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'My Videos' })).toBeVisible();

  const response = await adminPage.request.post(`/api/admin/users/${suspended.id}/suspend`, {
    headers: bearer(admin),
    data: { reason: 'Spam videos reported by viewers' },
  });
  expect(response.status(), await response.text()).toBe(200);

  // The open studio is signed out at once, and says why.
  const notice = page.getByRole('dialog', { name: 'Your account is suspended' });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await expect(notice).toContainText('An administrator suspended this account');
  const contact = notice.getByRole('link', { name: 'Contact Us' });
  await expect(contact).toHaveAttribute('href', /(^|\/\/127\.0\.0\.1:\d+)\/contact\.html$/);
  await expect(contact).toHaveAttribute('target', '_blank');
  await shoot(page, 'suspended-notice-desktop');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'My Videos' })).toHaveCount(0);
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect(notice).toBeHidden();

  // Once: the next visit is an ordinary visitor's.
  await page.reload();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Your account is suspended' })).toHaveCount(0);

  await context.close();
  await adminContext.close();
});
