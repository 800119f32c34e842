import { buildApp, type App } from '@reelsmith/server/testing';
import { allowFramingBy } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { WEB_SHELL_BOOT_SCRIPT } from '@reelsmith/contracts';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet = { voices: { autoGenerateOfflineSamples: false } };
const SCRIPT = `console.log(${JSON.stringify('reelsmith '.repeat(400))});`;
const PARTNER = 'https://partner.example';

/** A web build as Vite writes it: hashed assets with .br/.gz siblings and a hidden source map. */
function writeWebBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), 'reelsmith-web-delivery-'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>Reelsmith app</title><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>',
  );
  mkdirSync(join(dist, 'assets'));
  const script = join(dist, 'assets', 'index-abc123.js');
  writeFileSync(script, SCRIPT);
  writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
  writeFileSync(
    `${script}.map`,
    JSON.stringify({ version: 3, sources: ['secret-source.ts'], sourcesContent: ['const secret = 1;'], mappings: '' }),
  );
  writeFileSync(join(dist, 'stray.js.map'), '{}');
  return dist;
}

async function framedRoutes(app: FastifyInstance) {
  app.get('/test/embeddable', { config: { frameAncestors: [PARTNER] } }, async () => ({ ok: true }));
  app.get('/test/embeddable-at-run-time', async (_request, reply) => {
    allowFramingBy(reply, [PARTNER, 'https://other.example']);
    return { ok: true };
  });
}

function directive(policy: string | undefined, name: string): string[] | undefined {
  const found = (policy ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found?.slice(1);
}

describe('web delivery and security headers', () => {
  let database: TestDatabase;
  let webDist: string;
  let app: App;

  beforeAll(async () => {
    webDist = writeWebBuild();
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ WEB_DIST_DIR: webDist }), { ...quiet, plugins: [framedRoutes] });
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    rmSync(webDist, { recursive: true, force: true });
  });

  describe('compression', () => {
    it('sends the brotli file to a client that accepts br, cached for a year', async () => {
      const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    });

    it('sends the gzip file to a client without br', async () => {
      const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
      expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
    });

    it('sends the file as it is to a client that accepts no encoding, still varying on it', async () => {
      const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
      expect(response.body).toBe(SCRIPT);
    });

    it('answers the app page with no-cache', async () => {
      for (const url of ['/', '/videos']) {
        const response = await app.inject({ url, headers: { accept: 'text/html' } });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['cache-control'], url).toBe('no-cache');
        // no-cache revalidates: the page keeps its validator.
        expect(response.headers.etag, url).toBeDefined();
        expect(response.body, url).toContain('<div id="root">');
      }
    });
  });

  describe('source maps', () => {
    it('never serves a .map file, even one that is in the build', async () => {
      for (const url of [
        '/assets/index-abc123.js.map',
        '/stray.js.map',
        '/assets/index-abc123.js.MAP',
        '/assets/index-abc123.js.map?v=1',
      ]) {
        const response = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip', accept: '*/*' } });
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).not.toContain('secret');
      }
    });

    it('does not answer a .map path with the app page either', async () => {
      const response = await app.inject({ url: '/assets/index-abc123.js.map', headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/json/);
    });
  });

  describe('headers', () => {
    it("sends a CSP whose only inline script is index.html's boot script (by hash), and framing refused on the app page", async () => {
      const response = await app.inject({ url: '/', headers: { accept: 'text/html' } });
      const policy = response.headers['content-security-policy'] as string;
      const bootScriptHash = `'sha256-${createHash('sha256').update(WEB_SHELL_BOOT_SCRIPT).digest('base64')}'`;
      expect(directive(policy, 'script-src')).toEqual(["'self'", bootScriptHash]);
      expect(directive(policy, 'default-src')).toEqual(["'self'"]);
      expect(directive(policy, 'object-src')).toEqual(["'none'"]);
      expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    });

    it('sends nosniff and frame-ancestors on every answer but a build file: page, API, 404 and error', async () => {
      const answers = await Promise.all([
        app.inject({ url: '/', headers: { accept: 'text/html' } }),
        app.inject({ url: '/videos', headers: { accept: 'text/html' } }),
        app.inject({ url: '/health' }),
        app.inject({ url: '/api/no-such-route' }),
        app.inject({ url: '/assets/index-abc123.js.map' }),
        app.inject({ url: '/assets/no-such-file.js', headers: { accept: 'text/html' } }),
        app.inject({ method: 'POST', url: '/auth/login', payload: 'not json', headers: { 'content-type': 'application/json' } }),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 404, 404, 404, 400]);
      for (const response of answers) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(directive(response.headers['content-security-policy'] as string, 'frame-ancestors')).toEqual(["'none'"]);
        expect(response.headers['x-frame-options']).toBe('DENY');
      }
    });

    it('sends a fingerprinted build file with nosniff and its resource policy, without the headers that only govern a page', async () => {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': encoding } });
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
        expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        // Immutable for a year: nothing to revalidate, so no validators either.
        for (const name of [
          'content-security-policy',
          'x-frame-options',
          'cross-origin-opener-policy',
          'x-xss-protection',
          'origin-agent-cluster',
          'etag',
          'last-modified',
        ]) {
          expect(response.headers[name], name).toBeUndefined();
        }
      }
    });

    it('sends no HSTS over plain HTTP, nor for a forwarded https the server does not trust', async () => {
      expect((await app.inject({ url: '/health' })).headers['strict-transport-security']).toBeUndefined();
      const forged = await app.inject({ url: '/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(forged.headers['strict-transport-security']).toBeUndefined();
    });

    it('lets a route name the origins that may frame it, by route config or at run time', async () => {
      const configured = await app.inject({ url: '/test/embeddable' });
      expect(directive(configured.headers['content-security-policy'] as string, 'frame-ancestors')).toEqual([PARTNER]);
      expect(configured.headers['x-frame-options']).toBeUndefined();
      expect(configured.headers['x-content-type-options']).toBe('nosniff');
      const atRunTime = await app.inject({ url: '/test/embeddable-at-run-time' });
      expect(directive(atRunTime.headers['content-security-policy'] as string, 'frame-ancestors')).toEqual([
        PARTNER,
        'https://other.example',
      ]);
      expect(atRunTime.headers['x-frame-options']).toBeUndefined();
    });
  });
});

describe('security headers by configuration', () => {
  let database: TestDatabase;
  const apps: App[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.cleanup();
  });
  const build = async (env: Record<string, string>) => {
    const app = await buildApp(database.config(env), quiet);
    apps.push(app);
    return app;
  };

  it('sends HSTS when a trusted proxy says the request came over https', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    const https = await app.inject({ url: '/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const http = await app.inject({ url: '/health', headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });

  it("allows Google's and Razorpay's hosts only when they are configured", async () => {
    const bare = (await (await build({})).inject({ url: '/health' })).headers['content-security-policy'] as string;
    expect(bare).not.toMatch(/google|razorpay/);
    expect(directive(bare, 'frame-src')).toEqual(["'none'"]);

    const configured = await build({
      GOOGLE_CLIENT_ID: 'client-1.apps.googleusercontent.com',
      RAZORPAY_KEY_ID: 'rzp_test_abc',
      RAZORPAY_KEY_SECRET: 'secret-xyz',
    });
    const policy = (await configured.inject({ url: '/health' })).headers['content-security-policy'] as string;
    expect(directive(policy, 'script-src')).toEqual([
      "'self'",
      expect.stringMatching(/^'sha256-/),
      'https://accounts.google.com/gsi/client',
      'https://checkout.razorpay.com',
    ]);
    expect(directive(policy, 'frame-src')).toEqual(
      expect.arrayContaining(['https://accounts.google.com/gsi/', 'https://api.razorpay.com']),
    );
    expect(policy).not.toContain('secret-xyz');
  });
});
