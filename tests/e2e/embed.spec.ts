import { embedEventSchema } from '@reelsmith/contracts';
import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { subscribeThroughTestCheckout } from './session.js';

/**
 * A partner site on another origin embeds the studio with a session token its "backend" (this test)
 * minted with an API key. The server under test allows http://127.0.0.1:<partner port> only
 * (EMBED_ALLOWED_ORIGINS in playwright.config.ts); http://localhost:<partner port> is another origin.
 */
const studioPort = Number(process.env.E2E_PORT ?? 8181);
const partnerPort = Number(process.env.E2E_PARTNER_PORT ?? studioPort + 10);
const studioOrigin = `http://127.0.0.1:${studioPort}`;
const allowedPartner = `http://127.0.0.1:${partnerPort}`;
const otherPartner = `http://localhost:${partnerPort}`;

interface RecordedEvent {
  type: string;
  [key: string]: unknown;
}

/** The partner's page: the one-tag snippet, mounting with the token from its query; events kept for the test. */
function partnerPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Partner</title></head>
<body style="margin:0;font-family:sans-serif">
<h1>Partner course platform</h1>
<div id="studio"></div>
<script src="${studioOrigin}/embed.js"></script>
<script>
  window.__events = [];
  const params = new URLSearchParams(location.search);
  window.__handle = Reelsmith.mount(document.getElementById('studio'), {
    sessionToken: params.get('token') || undefined,
    topic: params.get('topic') || undefined,
    mode: 'studio',
    theme: 'light',
    onEvent: (event) => window.__events.push(event),
  });
</script>
</body></html>`;
}

/** A page of the partner that tries to frame some other Reelsmith page. */
const framingPage = (src: string) =>
  `<!doctype html><html><body><iframe id="target" src="${src}" style="width:800px;height:600px"></iframe></body></html>`;

let partner: Server;
test.beforeAll(async () => {
  partner = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://partner');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/frame') response.end(framingPage(url.searchParams.get('src') ?? '/'));
    else response.end(partnerPage());
  });
  await new Promise<void>((resolve) => partner.listen(partnerPort, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => partner.close(() => resolve()));
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The partner's backend: an account with its API key, and a 15-minute embed session minted with it. */
async function mintSession(page: Page): Promise<string> {
  return (await partnerAccount(page)).sessionToken;
}

/** The partner's account (its API key, and a plan when asked: a batch of two is beyond the free video) and an embed session. */
async function partnerAccount(page: Page, options: { plan?: boolean } = {}): Promise<{ apiKey: string; sessionToken: string }> {
  const registered = await page.request.post(`${studioOrigin}/auth/register`, {
    data: { name: 'Partner Account', email: `partner-${unique()}@example.com`, password: 'correct-horse' },
  });
  expect(registered.ok()).toBe(true);
  const account = await registered.json();
  const apiKey = account.api_key.key as string;
  if (options.plan) await subscribeThroughTestCheckout(page.request, account.token as string, { origin: studioOrigin });
  const minted = await page.request.post(`${studioOrigin}/api/embed/sessions`, { headers: { 'x-api-key': apiKey } });
  expect(minted.ok()).toBe(true);
  return { apiKey, sessionToken: (await minted.json()).token as string };
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: RecordedEvent[] }).__events);

test('a partner page on an allowed origin embeds the studio, generates a video and hears every step', async ({ page }) => {
  test.setTimeout(6 * 60_000);
  const token = await mintSession(page);
  const topic = `Why the sea is salty ${unique()}`;
  await page.goto(`${allowedPartner}/?token=${encodeURIComponent(token)}&topic=${encodeURIComponent(topic)}`);

  const studio = page.frameLocator('iframe[title="Reelsmith video studio"]');
  await expect(studio.getByRole('button', { name: 'Generate Video' })).toBeVisible();
  await expect(studio.getByLabel('Topic')).toHaveValue(topic);
  // No admin, pricing or settings inside: only the studio.
  await expect(studio.getByRole('link', { name: /Settings|Admin|Pricing/ })).toHaveCount(0);
  const withoutResize = async () => (await events(page)).map((e) => e.type).filter((type) => type !== 'resize');
  await expect.poll(async () => (await withoutResize()).slice(0, 2)).toEqual(['ready', 'signed-in']);

  // setTopic from the partner page reaches the form.
  await page.evaluate((text) => (window as unknown as { __handle: { setTopic(t: string): void } }).__handle.setTopic(text), `${topic}!`);
  await expect(studio.getByLabel('Topic')).toHaveValue(`${topic}!`);

  await studio.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await studio.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await studio.getByRole('button', { name: 'Generate Video' }).click();

  // Waits for the job's end either way, so a failed job shows its error rather than a timeout; a
  // timeout shows the last events heard.
  const ended = (list: RecordedEvent[]) =>
    list.some((e) => e.type === 'job-completed' || e.type === 'job-failed')
      ? 'ended'
      : JSON.stringify(list.filter((e) => e.type !== 'resize').slice(-4));
  await expect.poll(async () => ended(await events(page)), { timeout: 4 * 60_000, intervals: [1000] }).toBe('ended');
  const seen = await events(page);
  const types = seen.map((e) => e.type).filter((t) => t !== 'resize');
  expect(
    seen.find((e) => e.type === 'job-failed'),
    'the job failed',
  ).toBeUndefined();
  expect(types.slice(0, 3)).toEqual(['ready', 'signed-in', 'job-created']);
  const jobId = seen.find((e) => e.type === 'job-created')!.jobId as string;
  const progress = seen.filter((e) => e.type === 'job-progress');
  expect(progress.length).toBeGreaterThanOrEqual(3);
  expect(progress.every((e) => e.jobId === jobId)).toBe(true);
  const percents = progress.map((e) => e.progress as number);
  expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  expect(new Set(progress.map((e) => e.step)).size).toBeGreaterThan(1);
  const completed = seen.find((e) => e.type === 'job-completed')!;
  expect(completed).toMatchObject({ jobId, videoUrl: expect.stringMatching(new RegExp(`^${studioOrigin}/output/.+\\.mp4$`)) });
  expect(types.indexOf('job-completed')).toBe(types.length - 1);

  // The URL plays on the partner's page.
  const duration = await page.evaluate(
    (src) =>
      new Promise<number>((resolve, reject) => {
        const video = document.createElement('video');
        video.muted = true;
        video.onloadedmetadata = () => resolve(video.duration);
        video.onerror = () => reject(new Error('video did not load'));
        video.src = src;
        document.body.appendChild(video);
      }),
    completed.videoUrl as string,
  );
  expect(duration).toBeGreaterThan(5);

  // The iframe follows its content's height, so the page has one scroll bar.
  const resize = seen.filter((e) => e.type === 'resize').at(-1)!;
  const frameHeight = await page.locator('iframe').evaluate((frame) => frame.getBoundingClientRect().height);
  expect(Math.abs(frameHeight - (resize.height as number))).toBeLessThanOrEqual(1);
  const frameScrolls = await studio.locator('html').evaluate((html) => html.scrollHeight > html.clientHeight + 1);
  expect(frameScrolls).toBe(false);
});

test('a partner page hears batch-completed when a batch queued in the embedded studio ends', async ({ page }) => {
  test.setTimeout(8 * 60_000);
  const { apiKey, sessionToken } = await partnerAccount(page, { plan: true });
  await page.goto(`${allowedPartner}/?token=${encodeURIComponent(sessionToken)}`);
  const studio = page.frameLocator('iframe[title="Reelsmith video studio"]');
  await expect(studio.getByRole('button', { name: 'Generate Video' })).toBeVisible();

  // The Batch view, fetched on first open: the web studio's list, its check and the shared options.
  await studio.getByRole('button', { name: 'Batch', exact: true }).click();
  const id = unique();
  const topics = [`Why the moon has phases ${id}`, `How owls see at night ${id}`];
  await studio.getByLabel(/Topics, one a line/).fill(topics.join('\n'));
  await expect(studio.getByText('2 of 2 rows ready')).toBeVisible();
  await studio.getByLabel('Language', { exact: true }).selectOption({ label: 'English' });
  await studio.getByRole('radiogroup', { name: 'Female voices' }).getByRole('radio').first().check();
  await studio.getByLabel('Resolution').selectOption('1:1');
  await studio.getByLabel('Music').selectOption('none');
  await studio.getByRole('button', { name: 'Queue 2 videos' }).click();
  const progress = studio.getByRole('list', { name: 'Videos of the batch' });
  await expect(progress.getByRole('listitem')).toHaveCount(2);

  // A timeout shows the last events heard.
  const ended = (list: RecordedEvent[]) =>
    list.some((e) => e.type === 'batch-completed') ? 'ended' : JSON.stringify(list.filter((e) => e.type !== 'resize').slice(-4));
  await expect.poll(async () => ended(await events(page)), { timeout: 6 * 60_000, intervals: [1000] }).toBe('ended');
  // The partner's backend knows the batch by the same id (its API key reads the account's batches).
  const listed = await page.request.get(`${studioOrigin}/api/batches`, { headers: { 'x-api-key': apiKey } });
  const batches = (await listed.json()).batches as Array<{ id: string }>;
  expect(batches).toHaveLength(1);
  const completed = (await events(page)).filter((e) => e.type === 'batch-completed');
  expect(completed.map((event) => embedEventSchema.parse(event))).toEqual([
    {
      type: 'batch-completed',
      batchId: batches[0]!.id,
      status: 'completed',
      counts: { total: 2, queued: 0, processing: 0, completed: 2, failed: 0, cancelled: 0 },
    },
  ]);
  await expect(progress.getByText('Completed', { exact: true })).toHaveCount(2);
  // Once: nothing more about it arrives later.
  await page.waitForTimeout(1500);
  expect((await events(page)).filter((e) => e.type === 'batch-completed')).toHaveLength(1);
});

test('a partner page on an origin not on EMBED_ALLOWED_ORIGINS gets no working studio', async ({ page }) => {
  const token = await mintSession(page);
  await page.goto(`${otherPartner}/?token=${encodeURIComponent(token)}`);
  await page.waitForTimeout(3000);
  expect(await events(page)).toEqual([]);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  expect(await frame!.locator('button', { hasText: 'Generate Video' }).count()).toBe(0);
});

test('the studio cannot be framed outside /embed', async ({ page }) => {
  for (const path of ['/', '/login', '/settings', '/embed.html']) {
    const response = await page.request.get(`${studioOrigin}${path}`, { headers: { accept: 'text/html' } });
    expect(frameAncestors(response.headers()['content-security-policy']), path).toBe("frame-ancestors 'none'");
    await page.goto(`${allowedPartner}/frame?src=${encodeURIComponent(`${studioOrigin}${path}`)}`);
    await page.waitForTimeout(1500);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.locator('#root *').count(), path).toBe(0);
  }
  const embed = await page.request.get(`${studioOrigin}/embed`);
  expect(frameAncestors(embed.headers()['content-security-policy'])).toBe(`frame-ancestors 'self' ${allowedPartner}`);
});

test('the loader stays small and the embed bundle carries no admin, pricing or settings code', async ({ request }) => {
  const loader = await request.get(`${studioOrigin}/embed.js`);
  const gzipped = gzipSync(await loader.body(), { level: 9 }).length;
  expect(gzipped).toBeLessThanOrEqual(8 * 1024);
  expect(await loader.text()).not.toMatch(/\bimport\b|\bexport\b|react/i);

  const page = await (await request.get(`${studioOrigin}/embed`)).text();
  const assets = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  expect(assets.length).toBeGreaterThan(1);
  for (const asset of assets) {
    const text = await (await request.get(`${studioOrigin}${asset}`)).text();
    // Class names only the admin dashboard, the pricing UI and the settings page use.
    for (const marker of ['rs-admin', 'rs-plan-grid', 'rs-pricing', 'rs-settings', 'rs-developer']) {
      expect(text.includes(marker), `${marker} in ${asset}`).toBe(false);
    }
  }
});

/** The frame-ancestors directive of a CSP header (the rest of the strict policy is the security headers' test). */
function frameAncestors(policy: string | undefined): string | undefined {
  return (policy ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('frame-ancestors '));
}
