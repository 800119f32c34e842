import { expect, test } from '@playwright/test';

// The real build as the server sends it (issue 17, issue 11 items 6 and 7).
test('the built app is sent precompressed, without inline scripts, and its source maps are not served', async ({ request }) => {
  const page = await request.get('/', { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  expect(page.status()).toBe(200);
  expect(page.headers()['cache-control']).toBe('no-cache');
  const html = await page.text();
  // Every script is a file from this origin: the CSP allows no inline script.
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  const policy = page.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toMatch(/script-src 'self'(;| https)/);
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
