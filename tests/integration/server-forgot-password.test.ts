import { ACCOUNT_MESSAGES } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, TEST_DIALECTS, type App, type TestDatabase } from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet = { voices: { autoGenerateOfflineSamples: false } };
const PASSWORD = 'correct-horse-battery';
/** Far below the mail client's 10 s greeting timeout: an answer this fast never waited for the mail server. */
const ANSWER_BOUND_MS = 2_000;

/** An SMTP server that accepts connections and never says a word (no greeting), like a hung mail relay. */
async function startStallingMailServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: the mail server is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(TEST_DIALECTS)('forgot-password does not tell which addresses exist, on %s', (dialect) => {
  let database: TestDatabase;
  let stalling: Awaited<ReturnType<typeof startStallingMailServer>>;
  let app: App;
  let down: App;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    stalling = await startStallingMailServer();
    const common = { RATE_LIMIT_AUTH_MAX: '1000', MAIL_FROM: 'Reelsmith <no-reply@example.com>', PUBLIC_URL: 'http://studio.example' };
    app = await buildApp(database.config({ ...common, SMTP_URL: stalling.url }), quiet);
    down = await buildApp(database.config({ ...common, SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` }), quiet);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await down?.close();
    await stalling?.close();
    await database?.cleanup();
  });

  const register = async (target: App) => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    const response = await target.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Asha Rao', email, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return email;
  };

  /** The answer and how long it took; a request still waiting after the bound is reported as such, not awaited. */
  async function timedForgot(target: App, email: string): Promise<{ ms: number; status: number | 'still waiting'; body: unknown }> {
    const started = performance.now();
    const answer = target.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    const outcome = await Promise.race([answer, new Promise<null>((resolve) => setTimeout(() => resolve(null), ANSWER_BOUND_MS + 1_000))]);
    const ms = performance.now() - started;
    if (!outcome) return { ms, status: 'still waiting', body: null };
    return { ms, status: outcome.statusCode, body: outcome.json() };
  }

  it('answers an existing and an unknown address alike, without waiting for a mail server that stalls', async () => {
    const known = await register(app);
    // The sign-up's verification mail holds one of the two sending slots on the stalled server.
    await expect.poll(() => stalling.connections(), { timeout: 5_000 }).toBe(1);
    const expected = { success: true, message: ACCOUNT_MESSAGES.resetRequested };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      const existing = await timedForgot(app, known);
      const missing = await timedForgot(app, `nobody-${randomUUID().slice(0, 8)}@example.com`);
      for (const answer of [existing, missing])
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: expected });
      knownTimes.push(existing.ms);
      unknownTimes.push(missing.ms);
    }
    // The reset mail was really attempted (a second connection), and the server never answered it.
    await expect.poll(() => stalling.connections(), { timeout: 5_000 }).toBe(2);
    // A request that waited for that server would take at least its greeting timeout (10 s).
    expect(Math.max(...knownTimes)).toBeLessThan(ANSWER_BOUND_MS);
    expect(Math.max(...unknownTimes)).toBeLessThan(ANSWER_BOUND_MS);
  }, 60_000);

  it('answers 200 for an existing address while the mail server is down', async () => {
    const known = await register(down);
    const answer = await timedForgot(down, known);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: { success: true, message: ACCOUNT_MESSAGES.resetRequested },
    });
  });
});
