import { MESSAGES, type RouteContract } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { registerRoute } from '@reelsmith/server/testing';
import { LEGAL_PAGE_PATHS } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import type { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

/** Background voice-sample generation is the voices plugin's business, not these tests'. */
const quiet = { voices: { autoGenerateOfflineSamples: false } };

const INTERNAL_DETAIL = 'connect ECONNREFUSED 10.1.2.3:5432 at /srv/reelsmith/internal.ts';
const SECRET_PASSWORD = 'Sup3r-Secret-Passw0rd!';

const explode = {
  method: 'POST',
  path: '/api/test/explode',
  auth: 'none',
  body: z.object({ password: z.string() }),
  response: z.object({ ok: z.boolean() }),
} as const satisfies RouteContract;
const badResponse = {
  method: 'GET',
  path: '/api/test/bad-response',
  auth: 'none',
  response: z.object({ count: z.number() }),
} as const satisfies RouteContract;

async function testRoutes(app: FastifyInstance) {
  registerRoute(app, explode, async () => {
    throw new Error(INTERNAL_DETAIL);
  });
  // A handler that breaks its own contract is a server fault, not the client's.
  registerRoute(app, badResponse, async () => ({ count: 'many' }) as unknown as { count: number });
}

describe('the app shell', () => {
  let database: TestDatabase;
  let app: App;
  let webDist: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'reelsmith-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Reelsmith app</title><div id="root"></div>');
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("app")');
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ WEB_DIST_DIR: webDist, LOG_LEVEL: 'trace', RATE_LIMIT_AUTH_MAX: '1000' }), {
      ...quiet,
      logStream: { write: (line: string) => void logLines.push(line) },
      plugins: [testRoutes],
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    rmSync(webDist, { recursive: true, force: true });
  });

  describe('errors', () => {
    it('hides a 5xx cause from the client and logs it', async () => {
      const response = await app.inject({ method: 'POST', url: explode.path, payload: { password: SECRET_PASSWORD } });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: MESSAGES.internalError });
      expect(response.body).not.toContain('ECONNREFUSED');
      expect(logLines.some((line) => line.includes(INTERNAL_DETAIL))).toBe(true);
    });

    it('treats a response that breaks its contract as a 500', async () => {
      const response = await app.inject({ method: 'GET', url: badResponse.path });
      expect(response.statusCode).toBe(500);
      expect(response.json().message).toBe(MESSAGES.internalError);
    });

    it.each([
      ['GET', '/api/nothing-here'],
      ['POST', '/api/nothing-here'],
      ['GET', '/auth/nothing-here'],
      ['DELETE', '/payments/subscription'],
    ] as const)('answers %s %s with a JSON 404, even to a browser', async (method, url) => {
      const response = await app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `${MESSAGES.notFound}: ${method} ${url}` });
    });

    it('explains malformed JSON without a stack', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.body).not.toContain('at ');
    });
  });

  describe('web app', () => {
    it.each(['/', '/videos', '/settings', '/admin/health', '/login'])('serves the app for %s', async (url) => {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>Reelsmith app</title>');
    });

    it('serves built assets, and 404s for missing ones', async () => {
      const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      const missing = await app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: 'text/html' } });
      expect(missing.statusCode).toBe(404);
    });

    it('does not fall back for non-HTML requests', async () => {
      const response = await app.inject({ method: 'GET', url: '/videos', headers: { accept: 'application/json' } });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('legal pages', () => {
    it.each(LEGAL_PAGE_PATHS)('serves %s as a styled HTML page', async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<link rel="stylesheet" href="/legal.css">');
      expect(response.body).toContain('support@reelsmith.app');
    });

    it('serves the shared stylesheet', async () => {
      const response = await app.inject({ method: 'GET', url: '/legal.css' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/css');
    });

    it('names the payment provider and the refund terms', async () => {
      const body = (await app.inject({ method: 'GET', url: '/policies/pricing-policy.html' })).body;
      expect(body).toContain('Razorpay');
      expect(body).toMatch(/Refunds/);
      expect(body).toContain('₹');
    });
  });

  it('answers GET /health cheaply: database and process only, no provider', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.json()).toEqual({ status: 'healthy', database: 'sqlite', uptimeSeconds: expect.any(Number) });
  });

  it('checks providers behind admin only, at most once per provider per 30 s however often anyone asks', async () => {
    let upstreamCalls = 0;
    const standalone = await buildApp(database.config({ ADMIN_EMAILS: 'ops@example.com' }), {
      ...quiet,
      plugins: [
        async (instance) => {
          instance.addHealthSource(async () => {
            upstreamCalls += 1;
            return [{ type: 'voice', name: 'azure', status: 'error', details: 'key rejected', checkedAt: new Date().toISOString() }];
          });
        },
      ],
    });
    try {
      for (let i = 0; i < 20; i += 1) expect((await standalone.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect(upstreamCalls).toBe(0);
      expect((await standalone.inject({ method: 'GET', url: '/providers/health' })).statusCode).toBe(401);
      await standalone.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { name: 'Ops Person', email: 'ops@example.com', password: 'secret123' },
      });
      await standalone.db
        .updateTable('users')
        .set({ email_verified_at: new Date().toISOString() })
        .where('email', '=', 'ops@example.com')
        .execute();
      const { token } = (
        await standalone.inject({ method: 'POST', url: '/auth/login', payload: { email: 'ops@example.com', password: 'secret123' } })
      ).json();
      const reads = await Promise.all(
        Array.from({ length: 10 }, () =>
          standalone.inject({ method: 'GET', url: '/providers/health', headers: { authorization: `Bearer ${token}` } }),
        ),
      );
      for (const read of reads)
        expect(read.json().health).toContainEqual(
          expect.objectContaining({ type: 'voice', name: 'azure', status: 'error', details: 'key rejected' }),
        );
      expect(upstreamCalls).toBe(1);
    } finally {
      await standalone.close();
    }
  });

  it('never writes passwords, tokens or API keys to the log', async () => {
    const email = 'logcheck@example.com';
    const registered = (
      await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Log Check', email, password: SECRET_PASSWORD } })
    ).json();
    await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: SECRET_PASSWORD } });
    await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: `${SECRET_PASSWORD}-wrong` } });
    await app.inject({ method: 'GET', url: '/auth/profile', headers: { authorization: `Bearer ${registered.token}`, cookie: 'sid=abc' } });
    await app.inject({ method: 'GET', url: '/auth/api-keys', headers: { 'x-api-key': registered.api_key.key } });
    await app.inject({ method: 'POST', url: explode.path, payload: { password: SECRET_PASSWORD } });

    const log = logLines.join('');
    expect(logLines.length).toBeGreaterThan(10);
    expect(log).toContain('incoming request');
    expect(log).not.toContain(SECRET_PASSWORD);
    expect(log).not.toContain(registered.token);
    expect(log).not.toContain(registered.api_key.key);
  });
});
