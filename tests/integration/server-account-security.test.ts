import { ACCOUNT_MESSAGES, API_KEY_HEADER, MESSAGES } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { revokeUserSessions } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMailbox, type TestMailbox } from './test-mailbox.js';

const quiet = { voices: { autoGenerateOfflineSamples: false } };
const PASSWORD = 'correct-horse-battery';
const ADMIN_EMAIL = 'owner@example.com';

describe.each(TEST_DIALECTS)('e-mail verification, password reset and session revocation on %s', (dialect) => {
  let database: TestDatabase;
  let mailbox: TestMailbox;
  let app: App;
  let baseUrl: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    mailbox = await startTestMailbox();
    app = await buildApp(
      database.config({
        ADMIN_EMAILS: ADMIN_EMAIL,
        RATE_LIMIT_AUTH_MAX: '1000',
        SMTP_URL: mailbox.url,
        MAIL_FROM: 'Reelsmith <no-reply@example.com>',
        PUBLIC_URL: 'http://studio.example',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
      quiet,
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.close();
    await mailbox?.close();
    await database?.cleanup();
  });

  const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const register = async (email: string) => {
    const response = await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Asha Rao', email, password: PASSWORD } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { user: { id: string; role: string; emailVerified: boolean }; token: string; api_key: { key: string } };
  };
  const login = (email: string, password = PASSWORD) => app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const verify = (link: string) => app.inject({ method: 'POST', url: '/auth/verify-email', payload: { token: tokenOf(link) } });

  function connected(auth: Record<string, string>): Promise<Socket> {
    const socket = connectSocket(baseUrl, { path: '/socket.io/', transports: ['websocket'], auth, reconnection: false, forceNew: true });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }
  const disconnection = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  const stillConnected = async (socket: Socket) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return socket.connected;
  };

  it('gives ADMIN_EMAILS admin only after the address is verified from the mailed link', async () => {
    const owner = await register(ADMIN_EMAIL.toUpperCase());
    expect(owner.user).toMatchObject({ role: 'user', emailVerified: false });
    expect((await login(ADMIN_EMAIL)).json().user.role).toBe('user');

    const link = await mailbox.linkTo(ADMIN_EMAIL, '/verify-email');
    expect(link.startsWith('http://studio.example/verify-email?token=')).toBe(true);
    const verified = await verify(link);
    expect(verified.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.emailVerified });
    expect((await login(ADMIN_EMAIL)).json().user).toMatchObject({ role: 'admin', emailVerified: true });
    // Single use.
    expect((await verify(link)).json()).toMatchObject({ statusCode: 400, message: ACCOUNT_MESSAGES.verifyLinkInvalid });
  });

  it('changes the e-mail only when the new address confirms it, so a listed address cannot be claimed', async () => {
    const sneaky = await register(uniqueEmail('sneaky'));
    const listed = 'boss@example.com';
    const restarted = await buildApp(
      database.config({ ADMIN_EMAILS: listed, RATE_LIMIT_AUTH_MAX: '1000', SMTP_URL: mailbox.url, MAIL_FROM: 'no-reply@example.com' }),
      quiet,
    );
    try {
      const change = await restarted.inject({
        method: 'PUT',
        url: '/auth/profile',
        headers: bearer(sneaky.token),
        payload: { name: 'Asha Rao', email: listed },
      });
      expect(change.json().user).toMatchObject({ email: expect.stringContaining('sneaky-'), pendingEmail: listed, role: 'user' });
      const relogin = await restarted.inject({ method: 'POST', url: '/auth/login', payload: { email: listed, password: PASSWORD } });
      expect(relogin.statusCode).toBe(401);
      // Only whoever reads boss@example.com's mail can finish the change.
      const link = await mailbox.linkTo(listed, '/verify-email');
      expect((await restarted.inject({ method: 'POST', url: '/auth/verify-email', payload: { token: tokenOf(link) } })).statusCode).toBe(
        200,
      );
      const signedIn = await restarted.inject({ method: 'POST', url: '/auth/login', payload: { email: listed, password: PASSWORD } });
      expect(signedIn.json().user).toMatchObject({ email: listed, role: 'admin' });
    } finally {
      await restarted.close();
    }
  });

  it('resets a password with a single-use link, ending every session, API key and socket', async () => {
    const email = uniqueEmail('forgetful');
    const account = await register(email);
    const other = (await login(email)).json().token as string;
    const developerKey = (
      await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(account.token), payload: { name: 'CI' } })
    ).json().key as string;
    const socket = await connected({ token: account.token });
    const keySocket = await connected({ apiKey: account.api_key.key });
    const closed = Promise.all([disconnection(socket), disconnection(keySocket)]);

    const unknown = await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: uniqueEmail('nobody') } });
    const known = await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    expect(unknown.json()).toEqual(known.json());
    expect(known.json().message).toBe(ACCOUNT_MESSAGES.resetRequested);
    const link = await mailbox.linkTo(email, '/reset-password');
    expect(mailbox.received.some((mail) => mail.raw.includes(PASSWORD))).toBe(false);

    const reset = await app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { token: tokenOf(link), password: 'a-brand-new-one' },
    });
    expect(reset.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.passwordReset });
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    for (const token of [account.token, other])
      expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(token) })).statusCode).toBe(401);
    expect((await login(email)).statusCode).toBe(401);
    const signedIn = await login(email, 'a-brand-new-one');
    expect(signedIn.statusCode).toBe(200);
    for (const key of [account.api_key.key, developerKey]) {
      expect((await app.inject({ method: 'GET', url: '/payments/can-generate', headers: { [API_KEY_HEADER]: key } })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'GET', url: '/auth/api-keys', headers: bearer(signedIn.json().token) })).json().api_keys).toEqual(
      [],
    );

    const again = await app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { token: tokenOf(link), password: 'yet-another-one' },
    });
    expect(again.json()).toMatchObject({ statusCode: 400, message: ACCOUNT_MESSAGES.resetLinkInvalid, field: 'token' });
  });

  it('keeps the API keys through a reset only when the owner of a confirmed address asks (keepApiKeys)', async () => {
    const email = uniqueEmail('keys');
    const account = await register(email);
    expect((await verify(await mailbox.linkTo(email, '/verify-email'))).statusCode).toBe(200);
    const keySocket = await connected({ apiKey: account.api_key.key });
    await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    const link = await mailbox.linkTo(email, '/reset-password');
    const reset = await app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { token: tokenOf(link), password: 'a-brand-new-one', keepApiKeys: true },
    });
    expect(reset.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.passwordResetKeysKept });
    expect(await stillConnected(keySocket)).toBe(true);
    const byKey = await app.inject({ method: 'GET', url: '/payments/can-generate', headers: { [API_KEY_HEADER]: account.api_key.key } });
    expect(byKey.statusCode).toBe(200);
  });

  it('ends the keys and webhooks of an account whose address was never confirmed at its reset, whatever the form asks', async () => {
    const email = uniqueEmail('preregistered');
    const account = await register(email);
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(account.token),
      payload: { url: 'http://127.0.0.1:9/spy', events: ['video.completed'] },
    });
    expect(hook.statusCode).toBe(200);
    await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    const link = await mailbox.linkTo(email, '/reset-password');
    const reset = await app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { token: tokenOf(link), password: 'a-brand-new-one', keepApiKeys: true },
    });
    expect(reset.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.passwordReset });
    expect(
      (await app.inject({ method: 'GET', url: '/payments/can-generate', headers: { [API_KEY_HEADER]: account.api_key.key } })).statusCode,
    ).toBe(401);
    const token = (await login(email, 'a-brand-new-one')).json().token as string;
    expect((await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(token) })).json().webhooks).toEqual([]);
  });

  it('refuses an expired reset link', async () => {
    const email = uniqueEmail('late');
    await register(email);
    await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    const link = await mailbox.linkTo(email, '/reset-password');
    await app.db
      .updateTable('email_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('purpose', '=', 'reset_password')
      .execute();
    const reset = await app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { token: tokenOf(link), password: 'a-brand-new-one' },
    });
    expect(reset.json().message).toBe(ACCOUNT_MESSAGES.resetLinkInvalid);
  });

  it("disconnects the socket of a session at logout, and only that session's", async () => {
    const email = uniqueEmail('leaving');
    const account = await register(email);
    const second = (await login(email)).json().token as string;
    const leaving = await connected({ token: account.token });
    const staying = await connected({ token: second });
    const closed = disconnection(leaving);
    await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(account.token) });
    expect(await closed).toBe('io server disconnect');
    expect(await stillConnected(staying)).toBe(true);
  });

  it("disconnects the other sessions' sockets on a password change and revokes every API key, keeping the session that made it", async () => {
    const email = uniqueEmail('changer');
    const account = await register(email);
    const other = (await login(email)).json().token as string;
    const mine = await connected({ token: account.token });
    const theirs = await connected({ token: other });
    const byKey = await connected({ apiKey: account.api_key.key });
    const closed = Promise.all([disconnection(theirs), disconnection(byKey)]);
    const change = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(account.token),
      payload: { name: 'Asha Rao', email, currentPassword: PASSWORD, newPassword: 'changed-password' },
    });
    expect(change.statusCode).toBe(200);
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await stillConnected(mine)).toBe(true);
    expect(
      (await app.inject({ method: 'GET', url: '/payments/can-generate', headers: { [API_KEY_HEADER]: account.api_key.key } })).statusCode,
    ).toBe(401);
  });

  it('keeps the API keys through a password change only with keepApiKeys', async () => {
    const email = uniqueEmail('keeper');
    const account = await register(email);
    const change = await app.inject({
      method: 'PUT',
      url: '/auth/profile',
      headers: bearer(account.token),
      payload: { name: 'Asha Rao', email, currentPassword: PASSWORD, newPassword: 'changed-password', keepApiKeys: true },
    });
    expect(change.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/payments/can-generate', headers: { [API_KEY_HEADER]: account.api_key.key } })).statusCode,
    ).toBe(200);
  });

  describe('sockets end with their API key or embed session', () => {
    /** Job events for one of the user's jobs; a socket hears them in its user room without subscribing. */
    const emitProgress = (userId: string, count: number) => {
      for (let index = 0; index < count; index += 1) {
        app.jobEvents.emit(
          'job_progress',
          { jobId: `job-${userId}`, progress: index, step: 'video', stepProgress: index, status: 'processing' },
          userId,
        );
      }
    };
    const counting = (socket: Socket) => {
      const seen = { events: 0 };
      socket.on('job_progress', () => void (seen.events += 1));
      return seen;
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    const mintKey = async (token: string) =>
      (await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(token), payload: { name: 'Partner' } })).json() as {
        id: string;
        key: string;
      };
    const embedToken = async (key: string) =>
      (await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: { [API_KEY_HEADER]: key } })).json().token as string;

    it('disconnects a socket opened with an API key, and one opened with an embed session it minted, when the key is revoked', async () => {
      const account = await register(uniqueEmail('partner'));
      const key = await mintKey(account.token);
      const byKey = await connected({ apiKey: key.key });
      const byEmbed = await connected({ token: await embedToken(key.key) });
      const unrelated = await connected({ apiKey: account.api_key.key });
      const heard = [counting(byKey), counting(byEmbed)];
      emitProgress(account.user.id, 1);
      await settle();
      expect(heard.map((seen) => seen.events)).toEqual([1, 1]);

      const closed = Promise.all([disconnection(byKey), disconnection(byEmbed)]);
      expect((await app.inject({ method: 'DELETE', url: `/auth/api-keys/${key.id}`, headers: bearer(account.token) })).statusCode).toBe(
        200,
      );
      expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
      emitProgress(account.user.id, 32);
      await settle();
      expect(heard.map((seen) => seen.events)).toEqual([1, 1]);
      expect(await stillConnected(unrelated)).toBe(true);
    });

    it("disconnects an embed session's socket when the session expires, with no request needed", async () => {
      const account = await register(uniqueEmail('expiring'));
      const token = await embedToken(account.api_key.key);
      // The 15-minute session, brought to its last second.
      await app.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + 1_000).toISOString() })
        .where('scope', '=', 'embed')
        .where('user_id', '=', account.user.id)
        .execute();
      const socket = await connected({ token });
      const heard = counting(socket);
      const closed = disconnection(socket);
      expect(await closed).toBe('io server disconnect');
      emitProgress(account.user.id, 23);
      await settle();
      expect(heard.events).toBe(0);
    });
  });

  it('revokeUserSessions (suspension) ends every session and closes every socket, API-key ones included', async () => {
    const account = await register(uniqueEmail('suspended'));
    const bySession = await connected({ token: account.token });
    const byKey = await connected({ apiKey: account.api_key.key });
    const closed = Promise.all([disconnection(bySession), disconnection(byKey)]);
    await revokeUserSessions(app, account.user.id);
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(account.token) })).statusCode).toBe(401);
  });

  it('refuses look-alike domains at sign-up and compares e-mails after Unicode normalisation', async () => {
    const lookalike = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Asha Rao', email: 'asha@pаypal.com', password: PASSWORD },
    });
    expect(lookalike.json()).toMatchObject({ statusCode: 400, field: 'email' });
    const composed = `jos\u00e9-${randomUUID().slice(0, 6)}@example.com`;
    await register(composed);
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    const duplicate = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Asha Rao', email: decomposed, password: PASSWORD },
    });
    expect(duplicate.json().message).toBe(MESSAGES.emailTaken);
    expect((await login(decomposed)).statusCode).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('session revocation across API processes (QUEUE_BACKEND=bullmq)', () => {
  let database: TestDatabase;
  const apps: App[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const env = {
      QUEUE_BACKEND: 'bullmq',
      REDIS_URL: redisUrl!,
      QUEUE_PREFIX: `reelsmith-test-${randomUUID().slice(0, 8)}`,
      RATE_LIMIT_AUTH_MAX: '1000',
    };
    for (let i = 0; i < 2; i += 1) {
      const app = await buildApp(database.config(env), quiet);
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const app of apps) await app.close();
    await database?.cleanup();
  });

  it('closes a socket held by another API process when its session logs out', async () => {
    const [first, second] = apps as [App, App];
    const email = `scaled-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await first.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Asha Rao', email, password: PASSWORD },
    });
    const { token } = registered.json() as { token: string };
    const url = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
    const socket = connectSocket(url, {
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const startedAt = Date.now();
    await first.inject({ method: 'POST', url: '/auth/logout', headers: { authorization: `Bearer ${token}` } });
    expect(await closed).toBe('io server disconnect');
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });
});
