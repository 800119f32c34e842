import {
  EXTENSION_HANDOFF_MESSAGES,
  MESSAGES,
  extensionHandoffExchangeResponseSchema,
  extensionHandoffResponseSchema,
} from '@reelsmith/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../db/dialect-test-database.js';

const PASSWORD = 'correct-horse';

describe('extension hand-off routes', () => {
  let database: TestDatabase;
  let app: App;
  let webToken: string;
  let userId: string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), { voices: { autoGenerateOfflineSamples: false } });
    const email = `handoff-${Date.now()}@example.com`;
    const registered = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Hand Off', email, password: PASSWORD },
    });
    expect(registered.statusCode).toBe(200);
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
    webToken = login.json().token;
    userId = login.json().user.id;
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const issue = async (token = webToken) => app.inject({ method: 'POST', url: '/auth/extension-handoff', headers: bearer(token) });
  const exchange = async (code: unknown) => app.inject({ method: 'POST', url: '/auth/extension-handoff/exchange', payload: { code } });

  it('requires a signed-in web session to issue a code', async () => {
    const response = await app.inject({ method: 'POST', url: '/auth/extension-handoff' });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(MESSAGES.authRequired);
  });

  it('trades a code once for a new session that logs out on its own', async () => {
    const issued = await issue();
    expect(issued.statusCode).toBe(200);
    const { code, expiresAt } = extensionHandoffResponseSchema.parse(issued.json());
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    const traded = await exchange(code);
    expect(traded.statusCode).toBe(200);
    const { token, user } = extensionHandoffExchangeResponseSchema.parse(traded.json());
    expect(user.id).toBe(userId);
    expect(token).not.toBe(webToken);

    const again = await exchange(code);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(EXTENSION_HANDOFF_MESSAGES.invalidCode);

    // Logging the extension out leaves the web app signed in, and the reverse.
    expect((await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(token) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(webToken) })).statusCode).toBe(200);
  });

  it('rejects unknown and malformed codes', async () => {
    const unknown = await exchange('A'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    const malformed = await exchange('short');
    expect(malformed.statusCode).toBe(400);
  });

  it('still redeems after the issuing web session logs out: the code names the user, not that session', async () => {
    const email = (await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(webToken) })).json().user.email as string;
    const otherWebToken = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } })).json()
      .token as string;
    const { code } = (await issue(otherWebToken)).json();
    await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(otherWebToken) });
    const traded = await exchange(code);
    expect(traded.statusCode).toBe(200);
    expect(traded.json().user.id).toBe(userId);
  });
});
