import { API_KEY_HEADER, DEFAULT_BRAND_KIT, SVG_UPLOAD_MESSAGES } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, subscribe, videoBody, type TestUser } from './server-jobs-fakes.js';

/**
 * The third security round's untrusted inputs through HTTP on a listening server: pages, links and
 * logos built to stall or crash it are refused within their limits while other requests (GET
 * /health, another user's profile) keep answering at once.
 */

const PARAGRAPH =
  '<p>The lighthouse lens gathers the light of the lamp into a single beam that sailors can see from thirty kilometres away at night.</p>';
const ARTICLE = `<html><head><title>Lighthouses</title></head><body><article><h1>Lighthouses</h1>${PARAGRAPH.repeat(8)}</article></body></html>`;
const NESTED = `<html><body>${'<div>'.repeat(2_000)}<article>${PARAGRAPH.repeat(8)}</article>${'</div>'.repeat(2_000)}</body></html>`;

let pages: Server;
let pagesUrl: string;
const drips = new Set<NodeJS.Timeout>();
/** Requests the page server took for /counted: a refusal before fetching leaves it untouched. */
let countedFetches = 0;

beforeAll(async () => {
  pages = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/counted') {
      countedFetches += 1;
      return void response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    }
    if (path === '/nested') return void response.writeHead(200, { 'content-type': 'text/html' }).end(NESTED);
    if (path === '/gzip')
      return void response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(ARTICLE));
    if (path === '/br')
      return void response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }).end(brotliCompressSync(ARTICLE));
    if (path.startsWith('/drip')) {
      // A byte every half second, for ever: the page never finishes.
      response.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => response.write('<'), 500);
      drips.add(timer);
      response.on('close', () => {
        clearInterval(timer);
        drips.delete(timer);
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const timer of drips) clearInterval(timer);
  pages.closeAllConnections();
  pages.close();
});

const linkBody = (url: string) => ({ style: 'educational', language: 'en', duration: 30, voice: 'en-us-m3', source: { kind: 'url', url } });

function multipart(file: Buffer, fileName: string, contentType: string) {
  const boundary = `----reelsmith${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('untrusted pages, links and logos', () => {
  let database: TestDatabase;
  let app: App;
  let base: string;
  const pipeline = new FakePipeline();

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', SOURCE_ALLOW_PRIVATE: 'true' }), {
      voices: { autoGenerateOfflineSamples: false },
      // Submitted jobs are not run: what is tested is how the request is answered.
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const post = (user: TestUser, path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...bearer(user), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Polls `path` every 200 ms until `work` settles; returns the slowest answer, ms. */
  async function slowestWhile(work: Promise<unknown>, path: string, headers: Record<string, string> = {}): Promise<number> {
    let done = false;
    void work.finally(() => (done = true));
    let slowest = 0;
    while (!done) {
      const started = Date.now();
      const response = await fetch(`${base}${path}`, { headers });
      expect(response.status).toBe(200);
      slowest = Math.max(slowest, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return slowest;
  }

  it('refuses a page of 2,000 nested elements while /health keeps answering within 1 s', async () => {
    const user = await registerUser(app, 'nested');
    const refusal = post(user, '/api/videos/generate', linkBody(`${pagesUrl}/nested`));
    expect(await slowestWhile(refusal, '/health')).toBeLessThan(1_000);
    const response = await refusal;
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/^This page is too complex to read/);
  }, 60_000);

  it('reads gzip and brotli pages', async () => {
    for (const encoding of ['gzip', 'br']) {
      const user = await registerUser(app, encoding);
      const response = await post(user, '/api/videos/generate', linkBody(`${pagesUrl}/${encoding}`));
      expect(response.status, await response.clone().text()).toBe(200);
    }
  }, 60_000);

  it("answers 50 slow links at once within 15 s each, another user's requests unaffected", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, (_, index) => registerUser(app, `drip-${index}`)));
    const other = await registerUser(app, 'bystander');
    const started = Date.now();
    const answers = Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const response = await post(users[index % 10]!, '/api/videos/generate', linkBody(`${pagesUrl}/drip/${index}`));
        return { status: response.status, seconds: (Date.now() - started) / 1000 };
      }),
    );
    expect(await slowestWhile(answers, '/auth/profile', bearer(other))).toBeLessThan(1_000);
    for (const answer of await answers) {
      expect(answer.seconds).toBeLessThan(15);
      // The fetch deadline (400), or the user's bound on links read at once (429).
      expect([400, 429]).toContain(answer.status);
    }
  }, 60_000);

  it('checks the plan and the submit rate before fetching a link: a refused request costs no fetch', async () => {
    // No videos left: the free video is used by a topic, then a link is a 403 that fetched nothing.
    const spent = await registerUser(app, 'no-quota');
    expect((await post(spent, '/api/videos/generate', videoBody('Tides'))).status).toBe(200);
    const before = countedFetches;
    const noQuota = await post(spent, '/api/videos/generate', linkBody(`${pagesUrl}/counted`));
    expect(noQuota.status, await noQuota.clone().text()).toBe(403);
    expect(countedFetches).toBe(before);

    // Past the submit rate (30 a minute): the 31st, a link, is a 429 that fetched nothing either.
    const busy = await registerUser(app, 'submit-rate');
    await subscribe(app, busy.id, 'pro_plan');
    for (let index = 0; index < 30; index++) {
      expect((await post(busy, '/api/videos/generate', videoBody(`Topic ${index}`))).status).toBe(200);
    }
    const limited = await post(busy, '/api/videos/generate', linkBody(`${pagesUrl}/counted`));
    expect(limited.status, await limited.clone().text()).toBe(429);
    expect(countedFetches).toBe(before);

    // The same link from an account with videos left is fetched (the count above can move).
    const fresh = await registerUser(app, 'with-quota');
    expect((await post(fresh, '/api/videos/generate', linkBody(`${pagesUrl}/counted`))).status).toBe(200);
    expect(countedFetches).toBe(before + 1);
  }, 60_000);

  it('refuses a <use> fan-out SVG logo and a 100000×100000 one while /health keeps answering within 1 s', async () => {
    const user = await registerUser(app, 'svg-bomb');
    let defs = '<g id="l0"><rect width="1" height="1"/></g>';
    for (let level = 1; level <= 8; level++) defs += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    const bombs = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs>${defs}</defs><use href="#l8"/></svg>`,
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>',
    ];
    for (const svg of bombs) {
      const form = multipart(Buffer.from(svg), 'logo.svg', 'image/svg+xml');
      const upload = fetch(`${base}/api/uploads?purpose=logo`, {
        method: 'POST',
        headers: { ...bearer(user), ...form.headers },
        body: form.payload,
      });
      expect(await slowestWhile(upload, '/health')).toBeLessThan(1_000);
      const response = await upload;
      expect(response.status).toBe(400);
      const { message } = (await response.json()) as { message: string };
      expect(message === SVG_UPLOAD_MESSAGES.size(100_000, 100_000) || message.startsWith('This logo is too complex')).toBe(true);
    }
  }, 60_000);

  it("refuses an embed session whose brand names another account's logo", async () => {
    const owner = await registerUser(app, 'logo-owner');
    const form = multipart(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="red"/></svg>'),
      'logo.svg',
      'image/svg+xml',
    );
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/uploads?purpose=logo',
      headers: { ...bearer(owner), ...form.headers },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const logoUploadId = (uploaded.json() as { id: string }).id;

    const partner = await registerUser(app, 'partner');
    const key = await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(partner), payload: { name: 'Site' } });
    expect(key.statusCode, key.body).toBe(200);
    const withKey = { [API_KEY_HEADER]: (key.json() as { key: string }).key };
    const brand = { ...DEFAULT_BRAND_KIT, enabled: true, logoUploadId };
    const session = await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: withKey, payload: { brand } });
    expect(session.statusCode, session.body).toBe(400);
    expect(session.json()).toMatchObject({
      field: 'brand.logoUploadId',
      message: 'That logo upload does not exist. Upload the logo again.',
    });
    // As PUT /api/brand refuses it.
    const put = await app.inject({ method: 'PUT', url: '/api/brand', headers: bearer(partner), payload: brand });
    expect(put.statusCode).toBe(400);
    // The owner's own logo is accepted.
    const ownKey = await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(owner), payload: { name: 'Own' } });
    const own = await app.inject({
      method: 'POST',
      url: '/api/embed/sessions',
      headers: { [API_KEY_HEADER]: (ownKey.json() as { key: string }).key },
      payload: { brand },
    });
    expect(own.statusCode, own.body).toBe(200);
  }, 60_000);
});
