import { buildApp, type App } from '@reelsmith/server/testing';
import { EMBED_NOT_BUILT_MESSAGE } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { WEB_SHELL_BOOT_SCRIPT } from '@reelsmith/contracts';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PARTNER = 'https://learn.example.com';
const quiet = { voices: { autoGenerateOfflineSamples: false }, jobs: { autoStart: false } };

/** A stand-in web build: the three files the embed routes serve. */
function fakeWebBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'embed.html'), '<!doctype html><div id="root" data-embed></div>');
  writeFileSync(join(dir, 'assets', 'embed-loader-Ab12_x.js'), 'window.Reelsmith={mount(){}};');
  return dir;
}

describe('embed routes', () => {
  let database: TestDatabase;
  let app: App;
  let bare: App;
  let webDir: string;
  const emptyDir = mkdtempSync(join(tmpdir(), 'reelsmith-noweb-'));

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    webDir = fakeWebBuild();
    app = await buildApp(
      database.config({ WEB_DIST_DIR: webDir, EMBED_ALLOWED_ORIGINS: `${PARTNER}, http://localhost:3000`, EMBED_DEMO: 'true' }),
      quiet,
    );
    bare = await buildApp(database.config({ WEB_DIST_DIR: emptyDir }), quiet);
  });
  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await database?.cleanup();
    rmSync(webDir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
  });

  it('serves /embed framable by exactly this server and EMBED_ALLOWED_ORIGINS', async () => {
    const page = await app.inject({ method: 'GET', url: `/embed?mode=compact&parentOrigin=${encodeURIComponent(PARTNER)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-embed');
    expect(directive(page.headers['content-security-policy'], 'frame-ancestors')).toBe(
      `frame-ancestors 'self' ${PARTNER} http://localhost:3000`,
    );
    // The rest of the strict policy stays: framing is the only thing /embed widens.
    // (the one hashed inline script is index.html's boot script; the embed page carries none)
    expect(directive(page.headers['content-security-policy'], 'script-src')).toBe(
      `script-src 'self' 'sha256-${createHash('sha256').update(WEB_SHELL_BOOT_SCRIPT).digest('base64')}'`,
    );
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('refuses a parent origin that is not allowed', async () => {
    const page = await app.inject({ method: 'GET', url: `/embed?parentOrigin=${encodeURIComponent('https://evil.example')}` });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('https://evil.example is not allowed to embed');
    expect(page.body).not.toContain('data-embed');
  });

  it('sends frame-ancestors none everywhere else', async () => {
    for (const url of ['/', '/settings', '/embed.html', '/health', '/api/openapi.json', '/embed.js', '/no-such-thing']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(directive(response.headers['content-security-policy'], 'frame-ancestors'), url).toBe("frame-ancestors 'none'");
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('serves the loader at /embed.js and the demo only with EMBED_DEMO=true', async () => {
    const loader = await app.inject({ method: 'GET', url: '/embed.js' });
    expect(loader.headers['content-type']).toContain('application/javascript');
    expect(loader.body).toBe('window.Reelsmith={mount(){}};');
    const demo = await app.inject({ method: 'GET', url: '/embed/demo' });
    expect(demo.body).toContain('<script src="/embed.js"></script>');
    expect(directive(demo.headers['content-security-policy'], 'frame-src')).toBe("frame-src 'self'");
    expect(demo.body).toContain('Reelsmith.mount(document.getElementById(&#39;reelsmith-studio&#39;)');
    const noDemo = await bare.inject({ method: 'GET', url: '/embed/demo' });
    expect(noDemo.statusCode).toBe(404);
  });

  it('says plainly when the web build is missing', async () => {
    for (const url of ['/embed', '/embed.js']) {
      const response = await bare.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ message: EMBED_NOT_BUILT_MESSAGE });
    }
  });

  it('refuses EMBED_ALLOWED_ORIGINS entries that are not origins', () => {
    expect(() => database.config({ EMBED_ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' })).toThrow(
      'EMBED_ALLOWED_ORIGINS',
    );
  });
});

/** One directive of a CSP header, as written. */
function directive(policy: unknown, name: string): string | undefined {
  return String(policy ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));
}
