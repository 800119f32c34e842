import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { DEFAULT_TENANT_CONCURRENCY, MAX_WEBHOOKS_PER_USER, WEBHOOK_LIMIT_MESSAGE, WEBHOOK_TIMEOUT_MS } from '@reelsmith/server/testing';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, waitFor, type TestUser } from './server-jobs-fakes.js';

/** A local receiver: answers 200 at once, or (dead) takes the request and never answers. */
class Receiver {
  readonly received: Array<{ body: string; at: number }> = [];
  open = 0;
  mostOpen = 0;
  url = '';
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly dead: boolean) {}

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        if (!this.dead) {
          response.end('ok');
          return;
        }
        this.open += 1;
        this.mostOpen = Math.max(this.mostOpen, this.open);
        request.socket.on('close', () => (this.open -= 1));
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe.each(TEST_DIALECTS)('webhook limits on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const alive = new Receiver(false);
  const dead = new Receiver(true);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(
      database.config({ RATE_LIMIT_AUTH_MAX: '1000', WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://studio.example' }),
      {
        voices: { autoGenerateOfflineSamples: false },
        // The default limits and timeout: the test proves the shipped ones.
        jobs: { autoStart: false, webhooks: { retryDelaysMs: [60_000], pollIntervalMs: 200 } },
      },
    );
    await app.ready();
    await Promise.all([alive.start(), dead.start()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([alive.stop(), dead.stop()]);
    await app?.close();
    await database?.cleanup();
  });

  const createHook = (user: TestUser, url: string) =>
    app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(user), payload: { url, events: ['video.completed'] } });

  it(`allows ${MAX_WEBHOOKS_PER_USER} webhooks per user and refuses the next with a 409 that says what to do`, async () => {
    const user = await registerUser(app, 'cap');
    const created: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i += 1) {
      const response = await createHook(user, `${alive.url}?n=${i}`);
      expect(response.statusCode, response.body).toBe(200);
      created.push(response.json().id);
    }
    const refused = await createHook(user, alive.url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: WEBHOOK_LIMIT_MESSAGE, field: 'url' });
    // Another user is not affected, and deleting one makes room again.
    expect((await createHook(await registerUser(app, 'cap-other'), alive.url)).statusCode).toBe(200);
    await app.inject({ method: 'DELETE', url: `/api/webhooks/${created[0]}`, headers: bearer(user) });
    expect((await createHook(user, alive.url)).statusCode).toBe(200);
  });

  it('never lets concurrent creates pass the cap', async () => {
    const user = await registerUser(app, 'burst');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => createHook(user, `${alive.url}?burst=${i}`)));
    expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 409)).toBe(true);
    const listed = (await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(user) })).json().webhooks as unknown[];
    expect(listed.length).toBeLessThanOrEqual(MAX_WEBHOOKS_PER_USER);
    expect(listed.length).toBe(answers.filter((answer) => answer.statusCode === 200).length);
  });

  it("delivers another tenant's event at once while one tenant's 8 receivers never answer", async () => {
    const stuck = await registerUser(app, 'stuck');
    for (let i = 0; i < 8; i += 1) expect((await createHook(stuck, `${dead.url}?n=${i}`)).statusCode).toBe(200);
    const healthy = await registerUser(app, 'healthy');
    expect((await createHook(healthy, alive.url)).statusCode).toBe(200);

    const started = Date.now();
    await app.webhookDispatcher.enqueue(stuck.id, 'video.completed', {
      jobId: 'stuck-job',
      version: 1,
      status: 'completed',
      videoUrl: 'https://studio.example/output/a.mp4',
    });
    await waitFor(async () => dead.open > 0, 'the stuck tenant to start its deliveries', 5_000);
    const enqueued = Date.now();
    await app.webhookDispatcher.enqueue(healthy.id, 'video.completed', {
      jobId: 'healthy-job',
      version: 1,
      status: 'completed',
      videoUrl: 'https://studio.example/output/b.mp4',
    });
    await waitFor(
      async () => alive.received.some((request) => request.body.includes('healthy-job')),
      'the healthy tenant delivery',
      10_000,
    );
    const delay = alive.received.find((request) => request.body.includes('healthy-job'))!.at - enqueued;
    expect(delay).toBeLessThan(1_000);

    // The stuck tenant holds at most its own slots, and its dead receivers are given up on after the short timeout.
    expect(dead.mostOpen).toBeLessThanOrEqual(DEFAULT_TENANT_CONCURRENCY);
    expect(WEBHOOK_TIMEOUT_MS).toBeLessThanOrEqual(5_000);
    const timedOut = await waitFor(
      async () => {
        const rows = await app.db
          .selectFrom('webhook_attempts')
          .select(['error', 'duration_ms'])
          .where('error', 'like', 'no response within%')
          .execute();
        return rows.length > 0 ? rows : null;
      },
      'a dead receiver to time out',
      WEBHOOK_TIMEOUT_MS + 5_000,
    );
    expect(Number(timedOut[0]!.duration_ms)).toBeLessThan(WEBHOOK_TIMEOUT_MS + 1_000);
    expect(Date.now() - started).toBeLessThan(WEBHOOK_TIMEOUT_MS * 3);
  }, 30_000);
});

describe.each(TEST_DIALECTS)('webhook deliveries per minute on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const alive = new Receiver(false);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { autoStart: false, webhooks: { retryDelaysMs: [60_000], pollIntervalMs: 100, attemptsPerMinute: 3 } },
    });
    await app.ready();
    await alive.start();
  }, 120_000);
  afterAll(async () => {
    await alive.stop();
    await app?.close();
    await database?.cleanup();
  });

  it('sends at most the per-minute allowance of a tenant and keeps the rest pending for later', async () => {
    const user = await registerUser(app, 'busy');
    const hook = (
      await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(user),
        payload: { url: alive.url, events: ['video.completed'] },
      })
    ).json() as { id: string };
    const other = await registerUser(app, 'quiet');
    await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(other),
      payload: { url: alive.url, events: ['video.completed'] },
    });
    for (let i = 0; i < 5; i += 1) {
      await app.webhookDispatcher.enqueue(user.id, 'video.completed', { jobId: `busy-${i}`, version: 1, status: 'completed' });
    }
    await waitFor(async () => alive.received.length >= 3, 'the allowance to go out', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(alive.received).toHaveLength(3);
    const deliveries = (await app.inject({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries`, headers: bearer(user) })).json()
      .deliveries as Array<{ status: string; attempts: unknown[] }>;
    expect(deliveries.filter((delivery) => delivery.status === 'delivered')).toHaveLength(3);
    expect(deliveries.filter((delivery) => delivery.status === 'pending' && delivery.attempts.length === 0)).toHaveLength(2);
    // Another tenant's allowance is its own.
    await app.webhookDispatcher.enqueue(other.id, 'video.completed', { jobId: 'quiet-1', version: 1, status: 'completed' });
    await waitFor(async () => alive.received.some((request) => request.body.includes('quiet-1')), 'the other tenant delivery', 5_000);
  });
});
