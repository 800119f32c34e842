import { MESSAGES } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { AUTH_MESSAGES } from '@reelsmith/server/testing';
import { GOOGLE_MESSAGES } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

  beforeAll(async () => {
    jwks = await startJwksServer();
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: jwks.url, ADMIN_EMAILS: 'chief@example.com', RATE_LIMIT_AUTH_MAX: '1000' }), quiet);
  });
  afterAll(async () => {
    await app?.close();
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

  it('links an existing e-mail account instead of creating another', async () => {
    const address = email();
    const registered = (await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Meera', email: address, password: 'secret-pass' } })).json();
    const response = (await signIn(await googleToken(address))).json();
    expect(response.user.id).toBe(registered.user.id);
    expect(response.api_key).toEqual(registered.api_key);
    const row = await app.db.selectFrom('users').select(['google_sub', 'password_hash']).where('id', '=', registered.user.id).executeTakeFirstOrThrow();
    expect(row.google_sub).toBe(`google-${address}`);
    expect(row.password_hash).not.toBeNull();
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
    [
      'a bad signature',
      async (address) => googleToken(address, { key: (await generateKeyPair('RS256')).privateKey }),
    ],
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
