import { STORAGE_KEYS, WEB_SHELL_BOOT_SCRIPT } from '@reelsmith/contracts';
import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';

// The real build as the server sends it: precompressed, its inline script pinned by the CSP, no source maps.
test('the built app is sent precompressed, with one inline script pinned by the CSP, and its source maps are not served', async ({
  request,
}) => {
  const page = await request.get('/', { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  expect(page.status()).toBe(200);
  expect(page.headers()['cache-control']).toBe('no-cache');
  const html = await page.text();
  // Every script is a file from this origin but the boot script, which the CSP allows by its hash alone.
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  expect(inline).toEqual([WEB_SHELL_BOOT_SCRIPT]);
  const policy = page.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(WEB_SHELL_BOOT_SCRIPT).digest('base64')}'`);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(page.headers()['x-content-type-options']).toBe('nosniff');

  const entry = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
  for (const encoding of ['br', 'gzip'] as const) {
    const asset = await request.get(entry!, { headers: { 'accept-encoding': encoding } });
    expect(asset.status()).toBe(200);
    expect(asset.headers()['content-encoding']).toBe(encoding);
    expect(asset.headers().vary).toMatch(/accept-encoding/i);
    expect(asset.headers()['cache-control']).toContain('immutable');
  }
  const map = await request.get(`${entry}.map`);
  expect(map.status()).toBe(404);
  expect(await map.text()).not.toContain('sourcesContent');
});

// What a phone shows before any of the app's JavaScript has arrived.
test.describe('the first paint, before the app starts', () => {
  test.beforeEach(async ({ page }) => {
    // The inline boot script runs; the app's module scripts never arrive.
    await page.route('**/assets/*.js', (route) => route.abort());
  });

  test('a visitor sees the Video Studio at once, inert until the app takes over; no splash', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Create AI videos for social media' })).toBeVisible();
    await expect(page.locator('.rs-prerender')).toHaveAttribute('inert', '');
    await expect(page.locator('.rs-splash')).toBeHidden();
  });

  test('a stored session, or a page other than the studio, shows the splash instead', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('.rs-boot-splash .rs-splash')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Create AI videos for social media' })).toBeHidden();

    await page.evaluate(
      (key) =>
        localStorage.setItem(
          key,
          JSON.stringify({ state: { token: 'stored-token', user: null, apiKey: null, isAuthenticated: true }, version: 0 }),
        ),
      STORAGE_KEYS.authStore,
    );
    await page.goto('/');
    await expect(page.locator('.rs-boot-splash .rs-splash')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Create AI videos for social media' })).toBeHidden();
  });

  test('once the app runs, it replaces the first paint with the live studio', async ({ page }) => {
    await page.unroute('**/assets/*.js');
    await page.goto('/');
    await expect(page.locator('.rs-prerender')).toHaveCount(0);
    await expect(page.locator('.rs-boot-splash')).toHaveCount(0);
    await page.getByRole('textbox', { name: /topic/i }).fill('Why octopuses have three hearts');
    await expect(page.getByRole('textbox', { name: /topic/i })).toHaveValue('Why octopuses have three hearts');
  });
});

test("a stored session is checked once: the boot script's profile request is the one the app uses", async ({ page, request }) => {
  const email = `boot-${Date.now()}@e2e.reelsmith.test`;
  const password = 'boot-password-1234';
  expect((await request.post('/auth/register', { data: { name: 'Boot Check', email, password } })).ok()).toBe(true);
  const session = (await (await request.post('/auth/login', { data: { email, password } })).json()) as { token: string; user: unknown };

  // A page of this origin that runs no app, so nothing rewrites the stored session meanwhile.
  await page.goto('/health');
  await page.evaluate(
    ({ key, tokenKey, session }) => {
      localStorage.setItem(tokenKey, session.token);
      localStorage.setItem(
        key,
        JSON.stringify({ state: { user: session.user, token: session.token, apiKey: null, isAuthenticated: true }, version: 0 }),
      );
    },
    { key: STORAGE_KEYS.authStore, tokenKey: STORAGE_KEYS.token, session },
  );
  const profileRequests: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/auth/profile') profileRequests.push(sent.headers().authorization ?? '');
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome back, Boot Check!' })).toBeVisible();
  expect(profileRequests).toEqual([`Bearer ${session.token}`]);
});
