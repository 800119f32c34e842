import { PAYMENTS_NOT_CONFIGURED_MESSAGE } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet = { voices: { autoGenerateOfflineSamples: false } };
const PASSWORD = 'correct-horse-battery';

describe.each(TEST_DIALECTS)('hardening on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', LOG_LEVEL: 'info', ADMIN_EMAILS: 'queue-admin@example.com' }), {
      ...quiet,
      logStream: { write: (line: string) => void logLines.push(line) },
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function signUp(email = `u-${randomUUID().slice(0, 8)}@example.com`) {
    const response = await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Asha Rao', email, password: PASSWORD } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { token: string; user: { id: string } };
    return { ...body, headers: { authorization: `Bearer ${body.token}` } };
  }
  const generate = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers,
      payload: { style: 'educational', language: 'ja', duration: 30, voice: 'ja-female-1', ...payload },
    });

  it.each([
    ['a NUL', '東京の歴史\u0000'],
    ['a lone surrogate', '東京\uD800の歴史'],
    ['a bell', 'Tokyo\u0007'],
  ])('refuses a topic with %s with a 400 naming the field, creating no job', async (_, topic) => {
    const user = await signUp();
    const response = await generate(user.headers, { topic });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ field: 'topic', message: expect.stringMatching(/^Topic contains/) });
    const list = await app.inject({ method: 'GET', url: '/api/videos', headers: user.headers });
    expect(JSON.stringify(list.json())).not.toContain('東京');
  });

  it('stores topics and names NFC-normalised, and refuses control characters in names', async () => {
    const user = await signUp();
    const decomposed = 'Cafe\u0301 culture';
    const response = await generate(user.headers, { topic: decomposed, language: 'en', voice: 'en-male-1' });
    expect(response.statusCode, response.body).toBe(200);
    const job = await app.inject({ method: 'GET', url: `/api/videos/${response.json().jobId}`, headers: user.headers });
    expect(job.json().job?.params.topic, job.body).toBe('Caf\u00e9 culture');
    const badName = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Asha\u0000Rao', email: `n-${randomUUID()}@example.com`, password: PASSWORD },
    });
    expect(badName.json()).toMatchObject({ statusCode: 400, field: 'name' });
  });

  it('authenticates before validating the body: an anonymous caller gets 401, not the schema', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', payload: { topic: 42 } });
    expect(response.statusCode).toBe(401);
    const profile = await app.inject({ method: 'PUT', url: '/auth/profile', payload: { name: '' } });
    expect(profile.statusCode).toBe(401);
  });

  it('answers an unconfigured webhook with a quiet 503: no error logged per call', async () => {
    logLines.length = 0;
    for (let i = 0; i < 3; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/payments/webhook',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(response.statusCode).toBe(503);
    }
    expect(logLines.filter((line) => line.includes('"level":50') && line.includes('webhook'))).toEqual([]);
  });

  it('shows a creator only their own job counts on /api/queue/status; an admin sees all', async () => {
    const busy = await signUp();
    await generate(busy.headers, { topic: 'Someone else', language: 'en', voice: 'en-male-1' });
    const newcomer = await signUp();
    const own = (await app.inject({ method: 'GET', url: '/api/queue/status', headers: newcomer.headers })).json();
    expect(own.jobs.total).toBe(0);
    expect(own.pending).toBe(0);
    const admin = await signUp('queue-admin@example.com');
    await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', admin.user.id).execute();
    const adminToken = (
      await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'queue-admin@example.com', password: PASSWORD } })
    ).json().token;
    const all = (await app.inject({ method: 'GET', url: '/api/queue/status', headers: { authorization: `Bearer ${adminToken}` } })).json();
    expect(all.jobs.total).toBeGreaterThan(0);
  });

  it('refuses the free TEST MODE checkout in production unless PAYMENTS_TEST_CHECKOUT=true', async () => {
    for (const [extra, allowed] of [
      [{ NODE_ENV: 'production' }, false],
      [{ NODE_ENV: 'production', PAYMENTS_TEST_CHECKOUT: 'true' }, true],
    ] as const) {
      const lines: string[] = [];
      const production = await buildApp(database.config({ ...extra, RATE_LIMIT_AUTH_MAX: '1000', LOG_LEVEL: 'info' }), {
        ...quiet,
        logStream: { write: (line: string) => void lines.push(line) },
      });
      try {
        const email = `buyer-${randomUUID().slice(0, 8)}@example.com`;
        const { token } = (
          await production.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Asha Rao', email, password: PASSWORD } })
        ).json();
        const plans = (await production.inject({ method: 'GET', url: '/payments/plans?currency=INR' })).json();
        expect(plans.paymentsConfigured).toBe(allowed);
        const order = await production.inject({
          method: 'POST',
          url: '/payments/create-order',
          headers: { authorization: `Bearer ${token}` },
          payload: { planId: 'essentials_plan', currency: 'INR' },
        });
        if (allowed) {
          expect(order.statusCode, order.body).toBe(200);
          expect(lines.some((line) => line.includes('TEST MODE') && line.includes('"level":40'))).toBe(true);
        } else {
          expect(order.json()).toMatchObject({ statusCode: 503, message: PAYMENTS_NOT_CONFIGURED_MESSAGE });
        }
      } finally {
        await production.close();
      }
    }
  });
});
