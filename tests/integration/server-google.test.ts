import { MESSAGES } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { AUTH_MESSAGES, CLAIMED_ACCOUNT_MESSAGE } from '@reelsmith/server/testing';
import { GOOGLE_MESSAGES } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMailbox, type TestMailbox } from './test-mailbox.js';

/** Background voice-sample generation is the voices plugin's business, not these tests'. */
const quiet = { voices: { autoGenerateOfflineSamples: false } };

const CLIENT_ID = 'reelsmith-test.apps.googleusercontent.com';
const KEY_ID = 'test-key-1';

/** A stand-in for Google's certs endpoint, serving one locally generated RSA key. */
async function startJwksServer(): Promise<{ url: string; privateKey: CryptoKey; server: Server }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/oauth2/v3/certs`, privateKey, server };
}

describe.each(TEST_DIALECTS)('Google sign-in on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  let jwks: Awaited<ReturnType<typeof startJwksServer>>;
  let mailbox: TestMailbox;

  beforeAll(async () => {
    jwks = await startJwksServer();
    mailbox = await startTestMailbox();
    database = await createTestDatabase(dialect);
    app = await buildApp(
      database.config({
        GOOGLE_CLIENT_ID: CLIENT_ID,
        GOOGLE_JWKS_URL: jwks.url,
        ADMIN_EMAILS: 'chief@example.com,boss@example.com',
        RATE_LIMIT_AUTH_MAX: '1000',
        SMTP_URL: mailbox.url,
        MAIL_FROM: 'Reelsmith <no-reply@example.com>',
        PUBLIC_URL: 'http://studio.example',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
      quiet,
    );
  });
  afterAll(async () => {
    await app?.close();
    await mailbox?.close();
    await database?.cleanup();
    await new Promise((resolve) => jwks?.server.close(resolve));
  });

  interface TokenOptions {
    claims?: JWTPayload;
    audience?: string;
    issuer?: string;
    expiresAt?: number;
    key?: CryptoKey;
  }

  async function googleToken(email: string, options: TokenOptions = {}): Promise<string> {
    return new SignJWT({ email, email_verified: true, name: 'Meera Iyer', ...options.claims })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID })
      .setSubject((options.claims?.sub as string | undefined) ?? `google-${email.toLowerCase()}`)
      .setAudience(options.audience ?? CLIENT_ID)
      .setIssuer(options.issuer ?? 'https://accounts.google.com')
      .setIssuedAt()
      .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + 3600)
      .sign(options.key ?? jwks.privateKey);
  }

  const signIn = (credential: string) => app.inject({ method: 'POST', url: '/auth/google', payload: { credential } });
  const email = () => `meera-${randomUUID().slice(0, 8)}@example.com`;

  it('publishes the client id', async () => {
    expect((await app.inject({ method: 'GET', url: '/auth/config' })).json()).toEqual({ googleClientId: CLIENT_ID });
  });

  it('creates an account on first sign-in and signs into it afterwards', async () => {
    const address = email();
    const first = await signIn(await googleToken(address));
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({
      user: { email: address, name: 'Meera Iyer', role: 'user' },
      api_key: { key: expect.stringMatching(/^rsk_/) },
      session_id: expect.any(String),
      message: 'Account created with Google',
    });
    const profile = await app.inject({ method: 'GET', url: '/auth/profile', headers: { authorization: `Bearer ${body.token}` } });
    expect(profile.json().user.id).toBe(body.user.id);

    const again = (await signIn(await googleToken(address.toUpperCase()))).json();
    expect(again).toMatchObject({ user: { id: body.user.id }, api_key: body.api_key, message: 'Signed in with Google' });
    expect(again.session_id).not.toBe(body.session_id);
  });

  it('links an existing, confirmed e-mail account instead of creating another, keeping its password and keys', async () => {
    const address = email();
    const registered = (
      await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Meera', email: address, password: 'secret-pass' } })
    ).json();
    // The owner opened the mailed link: the address is proven, so the account is theirs.
    await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', registered.user.id).execute();
    const response = (await signIn(await googleToken(address))).json();
    expect(response.user.id).toBe(registered.user.id);
    expect(response.api_key).toEqual(registered.api_key);
    expect(response.message).toBe(AUTH_MESSAGES.signedInWithGoogle);
    const row = await app.db
      .selectFrom('users')
      .select(['google_sub', 'password_hash'])
      .where('id', '=', registered.user.id)
      .executeTakeFirstOrThrow();
    expect(row.google_sub).toBe(`google-${address}`);
    expect(row.password_hash).not.toBeNull();
    expect(
      (await app.inject({ method: 'GET', url: '/auth/profile', headers: { authorization: `Bearer ${registered.token}` } })).statusCode,
    ).toBe(200);
  });

  it('ends what a pre-registrant opened (password, sessions, keys, embed sessions, webhooks) before the Google-verified owner gets the account, and tells the owner', async () => {
    const address = 'boss@example.com';
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    // The attacker registers the listed address with a password and never confirms it.
    const attacker = (
      await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Not Boss', email: address, password: 'attacker-pass' } })
    ).json();
    expect(attacker.user.role).toBe('user');
    const developerKey = (
      await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(attacker.token), payload: { name: 'mine' } })
    ).json().key as string;
    const embed = await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: { 'x-api-key': developerKey } });
    expect(embed.statusCode).toBe(200);
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(attacker.token),
      payload: { url: 'http://127.0.0.1:9/spy', events: ['video.completed'] },
    });
    expect(hook.statusCode).toBe(200);
    const changeLink = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(attacker.token),
      payload: { name: 'Not Boss', email: 'attacker@example.net' },
    });
    expect(changeLink.statusCode).toBe(200);
    const pendingChange = await mailbox.linkTo('attacker@example.net', '/verify-email');

    // The real owner signs in with Google.
    const owner = await signIn(await googleToken(address));
    expect(owner.statusCode).toBe(200);
    const body = owner.json();
    expect(body.user).toMatchObject({ id: attacker.user.id, role: 'admin', emailVerified: true });
    expect(body.message).toBe(CLAIMED_ACCOUNT_MESSAGE);
    expect(body.api_key.key).not.toBe(attacker.api_key.key);

    // Nothing the attacker opened still works.
    expect(
      (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: address, password: 'attacker-pass' } })).statusCode,
    ).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(attacker.token) })).statusCode).toBe(401);
    for (const key of [attacker.api_key.key, developerKey]) {
      expect((await app.inject({ method: 'GET', url: '/payments/can-generate', headers: { 'x-api-key': key } })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'GET', url: '/api/videos', headers: bearer(embed.json().token) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(body.token) })).json().webhooks).toEqual([]);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/auth/verify-email',
          payload: { token: new URL(pendingChange).searchParams.get('token') },
        })
      ).statusCode,
    ).toBe(400);
    const keys = (await app.inject({ method: 'GET', url: '/auth/api-keys', headers: bearer(body.token) })).json().api_keys as {
      id: string;
    }[];
    expect(keys.map((key) => key.id)).toEqual([body.api_key.id]);

    // The owner signs in with Google from now on and was told by e-mail too.
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(body.token) })).json().user).toMatchObject({
      email: address,
      role: 'admin',
    });
    await expect
      .poll(() => mailbox.received.some((mail) => mail.to.includes(address) && mail.raw.includes('an unconfirmed sign-up was closed')))
      .toBe(true);
  });

  it('refuses an e-mail already linked to another Google account', async () => {
    const address = email();
    expect((await signIn(await googleToken(address))).statusCode).toBe(200);
    const response = await signIn(await googleToken(address, { claims: { sub: 'another-google-account' } }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(AUTH_MESSAGES.googleAccountMismatch);
  });

  it('gives admins their role', async () => {
    expect((await signIn(await googleToken('Chief@Example.com'))).json().user.role).toBe('admin');
  });

  it.each<[string, (address: string) => Promise<string>]>([
    ['a wrong audience', (address) => googleToken(address, { audience: 'someone-else.apps.googleusercontent.com' })],
    ['an expired token', (address) => googleToken(address, { expiresAt: Math.floor(Date.now() / 1000) - 600 })],
    ['a wrong issuer', (address) => googleToken(address, { issuer: 'https://evil.example.com' })],
    ['a bad signature', async (address) => googleToken(address, { key: (await generateKeyPair('RS256')).privateKey })],
    ['a token that is not a JWT', async () => 'definitely-not-a-jwt'],
  ])('refuses %s without creating an account', async (_label, makeToken) => {
    const address = email();
    const response = await signIn(await makeToken(address));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: GOOGLE_MESSAGES.invalidCredential });
    expect(await app.db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst()).toBeUndefined();
  });

  it('refuses an unverified Google e-mail', async () => {
    const response = await signIn(await googleToken(email(), { claims: { email_verified: false } }));
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(GOOGLE_MESSAGES.emailNotVerified);
  });

  it('requires a credential', async () => {
    const response = await app.inject({ method: 'POST', url: '/auth/google', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('credential');
  });
});

describe('Google sign-in when not configured', () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config(), quiet);
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('says so clearly', async () => {
    expect((await app.inject({ method: 'GET', url: '/auth/config' })).json()).toEqual({ googleClientId: null });
    const response = await app.inject({ method: 'POST', url: '/auth/google', payload: { credential: 'x.y.z' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(GOOGLE_MESSAGES.notConfigured);
    expect(response.json().message).not.toBe(MESSAGES.internalError);
  });
});
