import { API_KEY_HEADER, MESSAGES, VALIDATION_MESSAGES as V, type RouteContract } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { registerRoute } from '@reelsmith/server/testing';
import { recordVideoMade } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

/** Background voice-sample generation is the voices plugin's business, not these tests'. */
const quiet = { voices: { autoGenerateOfflineSamples: false } };

/** Routes that exist only in these tests, to exercise each authentication mode through registerRoute. */
const whoAmI = {
  method: 'GET',
  path: '/api/test/who-am-i',
  auth: 'bearerOrApiKey',
  response: z.object({ userId: z.string(), via: z.enum(['bearer', 'apiKey']) }),
} as const satisfies RouteContract;
const adminOnly = {
  method: 'GET',
  path: '/api/test/admin',
  auth: 'admin',
  response: z.object({ ok: z.literal(true) }),
} as const satisfies RouteContract;
const optional = {
  method: 'GET',
  path: '/api/test/optional',
  auth: 'optional',
  response: z.object({ userId: z.string().nullable() }),
} as const satisfies RouteContract;

async function testRoutes(app: FastifyInstance) {
  registerRoute(app, whoAmI, async (request) => ({
    userId: request.user.id,
    via: request.user.apiKeyId ? ('apiKey' as const) : ('bearer' as const),
  }));
  registerRoute(app, adminOnly, async () => ({ ok: true as const }));
  registerRoute(app, optional, async (request) => ({ userId: request.user?.id ?? null }));
}

const ADMIN_EMAIL = 'boss@example.com';
const PASSWORD = 'correct-horse-battery';

describe.each(TEST_DIALECTS)('auth routes on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL.toUpperCase(), RATE_LIMIT_AUTH_MAX: '1000' }), {
      ...quiet,
      plugins: [testRoutes],
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.com`;

  async function register(body: Record<string, unknown>) {
    return app.inject({ method: 'POST', url: '/auth/register', payload: body });
  }

  async function registered(email = uniqueEmail(), name = 'Asha Rao') {
    const response = await register({ name, email, password: PASSWORD });
    expect(response.statusCode).toBe(200);
    return response.json() as { user: { id: string; email: string; role: string }; token: string; api_key: { key: string; id: string } };
  }

  const login = (email: string, password: string, remoteAddress?: string) =>
    app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, ...(remoteAddress ? { remoteAddress } : {}) });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function rowCounts() {
    const count = async (table: 'users' | 'sessions' | 'api_keys') =>
      Number(
        (
          await app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { users: await count('users'), sessions: await count('sessions'), api_keys: await count('api_keys') };
  }

  it('runs on the dialect under test', () => {
    expect(app.dbDialect).toBe(dialect);
  });

  it('registers an account with a session token and an API key', async () => {
    const email = uniqueEmail();
    const response = await register({ name: '  Asha Rao ', email: email.toUpperCase(), password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ name: 'Asha Rao', email, role: 'user' });
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.api_key).toMatchObject({ name: 'Default key', key: expect.stringMatching(/^rsk_/) });

    const profile = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(body.token) });
    expect(profile.json()).toEqual({ user: body.user });
    const keys = await app.inject({ method: 'GET', url: '/auth/api-keys', headers: bearer(body.token) });
    // The studio key is listed first, marked, and never with its secret: that was shown once, at sign-up.
    expect(keys.json().api_keys).toEqual([
      {
        id: body.api_key.id,
        name: body.api_key.name,
        studio: true,
        prefix: body.api_key.key.slice(0, 12),
        created_at: body.api_key.created_at,
        last_used_at: null,
      },
    ]);

    const stored = await app.db.selectFrom('users').selectAll().where('id', '=', body.user.id).executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    const storedKey = await app.db.selectFrom('api_keys').selectAll().where('user_id', '=', body.user.id).executeTakeFirstOrThrow();
    expect(storedKey.key_encrypted).not.toContain(body.api_key.key);
    expect(storedKey.key_hash).not.toBe(body.api_key.key);
  });

  it.each([
    [{ email: 'a@b.co', password: PASSWORD }, 'name', V.nameRequired],
    [{ name: '', email: 'a@b.co', password: PASSWORD }, 'name', V.nameRequired],
    [{ name: 'A', email: 'a@b.co', password: PASSWORD }, 'name', V.nameTooShort],
    [{ name: 'Asha', password: PASSWORD }, 'email', V.emailRequired],
    [{ name: 'Asha', email: '', password: PASSWORD }, 'email', V.emailRequired],
    [{ name: 'Asha', email: 'not-an-email', password: PASSWORD }, 'email', V.emailInvalid],
    [{ name: 'Asha', email: 'a@b.co' }, 'password', V.passwordRequired],
    [{ name: 'Asha', email: 'a@b.co', password: '' }, 'password', V.passwordRequired],
    [{ name: 'Asha', email: 'a@b.co', password: '12345' }, 'password', V.passwordTooShort],
  ])('rejects registration %j with the spec message', async (body, field, message) => {
    const before = await rowCounts();
    const response = await register(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message, field });
    expect(await rowCounts()).toEqual(before);
  });

  it.each([
    [{ password: PASSWORD }, 'email', V.emailRequired],
    [{ email: 'nope', password: PASSWORD }, 'email', V.emailInvalid],
    [{ email: 'a@b.co' }, 'password', V.passwordRequired],
    [{ email: 'a@b.co', password: '' }, 'password', V.passwordRequired],
  ])('rejects login %j with the spec message', async (body, field, message) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, field });
  });

  it('refuses a taken e-mail whatever its case, writing nothing', async () => {
    const { user } = await registered();
    const before = await rowCounts();
    const response = await register({ name: 'Someone Else', email: user.email.toUpperCase(), password: 'another-password' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ statusCode: 409, error: 'Conflict', message: MESSAGES.emailTaken, field: 'email' });
    expect(await rowCounts()).toEqual(before);
  });

  it('signs in with any case of the e-mail', async () => {
    const { user } = await registered();
    const response = await login(user.email.toUpperCase(), PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { id: user.id }, token: expect.any(String) });
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const { user } = await registered();
    const wrongPassword = await login(user.email, 'not-the-password');
    const unknownEmail = await login(uniqueEmail('ghost'), PASSWORD);
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: MESSAGES.invalidCredentials });
    expect(unknownEmail.json()).toEqual(wrongPassword.json());
  });

  it('asks for sign-in without a token and for a new sign-in with a bad one', async () => {
    const none = await app.inject({ method: 'GET', url: '/auth/profile' });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe(MESSAGES.authRequired);
    const forged = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer('not.a.jwt') });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(MESSAGES.sessionExpired);
  });

  it('revokes the session on logout', async () => {
    const { token } = await registered();
    const logout = await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(token) });
    expect(logout.json()).toEqual({ success: true });
    const after = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(MESSAGES.sessionExpired);
  });

  it('rejects an expired session', async () => {
    const { token, user } = await registered();
    await app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const response = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(MESSAGES.sessionExpired);
  });

  it('updates the name, holds a new e-mail until it is confirmed, and refuses an e-mail someone else has', async () => {
    const { token, user } = await registered();
    const other = await registered();
    const newEmail = uniqueEmail('renamed');
    const ok = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(token),
      payload: { name: 'Asha R', email: newEmail.toUpperCase() },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ id: user.id, name: 'Asha R', email: user.email, pendingEmail: newEmail });
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(token) })).json().user.email).toBe(user.email);

    const taken = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(token),
      payload: { name: 'Asha R', email: other.user.email },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(MESSAGES.emailTaken);

    const invalid = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(token),
      payload: { name: '', email: newEmail },
    });
    expect(invalid.json()).toMatchObject({ statusCode: 400, message: V.nameRequired, field: 'name' });
  });

  it('changes the password only with the current one, and signs out every other session', async () => {
    const { token: first, user } = await registered();
    const second = (await login(user.email, PASSWORD)).json().token as string;

    const missing = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(first),
      payload: { name: 'Asha', email: user.email, newPassword: 'brand-new-pass' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('currentPassword');
    const wrong = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(first),
      payload: { name: 'Asha', email: user.email, currentPassword: 'nope-nope', newPassword: 'brand-new-pass' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(second) })).statusCode).toBe(200);

    const changed = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(first),
      payload: { name: 'Asha', email: user.email, currentPassword: PASSWORD, newPassword: 'brand-new-pass' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(first) })).statusCode).toBe(200);
    const other = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(second) });
    expect(other.statusCode).toBe(401);
    expect(other.json().message).toBe(MESSAGES.sessionExpired);
    expect((await login(user.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it('accepts the API key on bearerOrApiKey routes only', async () => {
    const { token, user, api_key } = await registered();
    const viaKey = await app.inject({ method: 'GET', url: whoAmI.path, headers: { [API_KEY_HEADER]: api_key.key } });
    expect(viaKey.json()).toEqual({ userId: user.id, via: 'apiKey' });
    const viaBearer = await app.inject({ method: 'GET', url: whoAmI.path, headers: bearer(token) });
    expect(viaBearer.json()).toEqual({ userId: user.id, via: 'bearer' });

    const badKey = await app.inject({ method: 'GET', url: whoAmI.path, headers: { [API_KEY_HEADER]: `${api_key.key}x` } });
    expect(badKey.statusCode).toBe(401);
    const nothing = await app.inject({ method: 'GET', url: whoAmI.path });
    expect(nothing.json()).toMatchObject({ statusCode: 401, message: MESSAGES.authRequired });
    const bearerOnly = await app.inject({ method: 'GET', url: '/auth/profile', headers: { [API_KEY_HEADER]: api_key.key } });
    expect(bearerOnly.statusCode).toBe(401);

    const touched = await app.db.selectFrom('api_keys').select('last_used_at').where('id', '=', api_key.id).executeTakeFirstOrThrow();
    expect(touched.last_used_at).not.toBeNull();
  });

  it('resolves the user on optional routes and tolerates a bad token there', async () => {
    const { token, user } = await registered();
    expect((await app.inject({ method: 'GET', url: optional.path, headers: bearer(token) })).json()).toEqual({ userId: user.id });
    expect((await app.inject({ method: 'GET', url: optional.path })).json()).toEqual({ userId: null });
    expect((await app.inject({ method: 'GET', url: optional.path, headers: bearer('junk') })).json()).toEqual({ userId: null });
  });

  it('makes verified ADMIN_EMAILS addresses admins, and only them', async () => {
    // Registering a listed address proves nothing: no admin until its link is opened.
    const admin = await registered(ADMIN_EMAIL.toUpperCase());
    expect(admin.user.role).toBe('user');
    expect((await app.inject({ method: 'GET', url: adminOnly.path, headers: bearer(admin.token) })).statusCode).toBe(403);
    await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', admin.user.id).execute();
    expect((await login(ADMIN_EMAIL, PASSWORD)).json().user.role).toBe('admin');
    const signedIn = (await login(ADMIN_EMAIL, PASSWORD)).json().token as string;
    expect((await app.inject({ method: 'GET', url: adminOnly.path, headers: bearer(signedIn) })).statusCode).toBe(200);

    const member = await registered();
    expect(member.user.role).toBe('user');
    const denied = await app.inject({ method: 'GET', url: adminOnly.path, headers: bearer(member.token) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.forbidden);
  });

  it('promotes a newly listed, verified e-mail at its next sign-in', async () => {
    const { user } = await registered();
    await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    const listed = await buildApp(database.config({ ADMIN_EMAILS: `${ADMIN_EMAIL},${user.email}`, RATE_LIMIT_AUTH_MAX: '1000' }), quiet);
    try {
      const response = await listed.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: PASSWORD } });
      expect(response.json().user.role).toBe('admin');
    } finally {
      await listed.close();
    }
  });

  it('counts videos made (failed ones excepted), the same count the subscription view shows', async () => {
    const { token, user } = await registered();
    const empty = await app.inject({ method: 'GET', url: '/auth/usage', headers: bearer(token) });
    expect(empty.json()).toMatchObject({ videosThisMonth: 0, videosTotal: 0, activeJobs: 0 });

    const now = new Date();
    const lastYear = new Date(Date.UTC(now.getUTCFullYear() - 1, 0, 15)).toISOString();
    const job = (status: 'completed' | 'processing' | 'failed', createdAt: string) => ({
      id: randomUUID(),
      user_id: user.id,
      status,
      params: '{}',
      steps: '{}',
      created_at: createdAt,
      updated_at: createdAt,
    });
    for (const row of [
      job('completed', now.toISOString()),
      job('processing', now.toISOString()),
      job('failed', now.toISOString()),
      job('completed', lastYear),
    ]) {
      await app.db.insertInto('video_jobs').values(row).execute();
      await recordVideoMade(app.db, { jobId: row.id, userId: user.id, createdAt: row.created_at });
    }
    const usage = await app.inject({ method: 'GET', url: '/auth/usage', headers: bearer(token) });
    const subscription = await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(token) });
    expect(subscription.json().usage.videosThisMonth).toBe(2);
    expect(usage.json()).toEqual({
      videosThisMonth: 2,
      videosTotal: 3,
      activeJobs: 1,
      periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    });
  });

  it('stores analytics events, with the user when signed in', async () => {
    const { token, user } = await registered();
    const response = await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      headers: bearer(token),
      payload: {
        events: [
          { type: 'page_view', path: '/videos', title: 'My Videos' },
          { type: 'click', name: 'sign_up_free', path: '/' },
          { type: 'login', method: 'email' },
        ],
      },
    });
    expect(response.json()).toEqual({ accepted: 3 });
    const rows = await app.db.selectFrom('analytics_events').selectAll().where('user_id', '=', user.id).orderBy('type').execute();
    expect(rows.map((row) => [row.type, row.name, row.path, row.method])).toEqual([
      ['click', 'sign_up_free', '/', null],
      ['login', null, null, 'email'],
      ['page_view', 'My Videos', '/videos', null],
    ]);
    expect(rows[0]?.ip_hash).toMatch(/^[0-9a-f]{32}$/);

    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: [{ type: 'page_view', path: '/' }] },
    });
    expect(anonymous.json()).toEqual({ accepted: 1 });
    const invalid = await app.inject({ method: 'POST', url: '/api/analytics/events', payload: { events: [{ type: 'hover' }] } });
    expect(invalid.statusCode).toBe(400);
  });
});

describe.each(TEST_DIALECTS)('sign-in rate limit on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '3' }), quiet);
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const attempt = (email: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'whatever' }, remoteAddress });

  it('does not let wrong passwords from other addresses lock the owner out', async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Owner', email, password: PASSWORD },
      remoteAddress: '10.0.1.1',
    });
    const codes = [];
    for (let i = 0; i < 12; i += 1) codes.push((await attempt(email, `10.0.0.${i + 1}`)).statusCode);
    expect(codes.every((code) => code === 401)).toBe(true);
    const owner = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: PASSWORD },
      remoteAddress: '192.168.7.7',
    });
    expect(owner.statusCode).toBe(200);
  });

  it('slows one address guessing one e-mail with growing delays', async () => {
    const codes = [];
    for (let i = 0; i < 4; i += 1) codes.push((await attempt('target@example.com', '10.0.2.1')).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    const limited = await attempt('target@example.com', '10.0.2.1');
    expect(limited.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: MESSAGES.rateLimited });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits attempts per address across e-mails, registration included', async () => {
    const codes = [];
    for (const n of [1, 2, 3]) codes.push((await attempt(`probe${n}@example.com`, '10.9.9.9')).statusCode);
    const register = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Probe', email: 'probe4@example.com', password: 'password1' },
      remoteAddress: '10.9.9.9',
    });
    expect([...codes, register.statusCode]).toEqual([401, 401, 401, 429]);
    expect((await attempt('fresh@example.com', '10.9.9.10')).statusCode).toBe(401);
  });
});
