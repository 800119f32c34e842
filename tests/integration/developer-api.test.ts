import { API, API_KEY_HEADER, WEBHOOK_SIGNATURE_HEADER, type RouteContract } from '@reelsmith/contracts';
import { verifyWebhook } from '@reelsmith/sdk';
import { buildApp, type App } from '@reelsmith/server/testing';
import { toOpenApiPath } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { DEFAULT_RETRY_DELAYS_MS, webhookSecretCipher } from '@reelsmith/server/testing';
import { PRIVATE_ADDRESS_MESSAGE } from '@reelsmith/server/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  FakePipeline,
  providerError,
  registerUser,
  subscribe,
  videoBody,
  waitFor,
  waitForStatus,
  type TestUser,
} from './server-jobs-fakes.js';

/** A local webhook receiver that answers with the queued status codes, then 200. */
class Receiver {
  readonly requests: Array<{ headers: IncomingMessage['headers']; body: string; at: number }> = [];
  readonly statuses: number[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        response.statusCode = this.statuses.shift() ?? 200;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const quiet = { voices: { autoGenerateOfflineSamples: false } };

describe('the OpenAPI document', () => {
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

  it('is valid OpenAPI 3.1 and covers every route of the contracts with its auth, body, responses and errors', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    for (const [name, contract] of Object.entries(API) as Array<[string, RouteContract]>) {
      const operation = document.paths[toOpenApiPath(contract.path)]?.[contract.method.toLowerCase()];
      expect(operation, `${contract.method} ${contract.path}`).toBeDefined();
      expect(operation.operationId).toBe(name);
      // JSON, except where the contract names another media type (GET /metrics: the Prometheus text format).
      expect(operation.responses['200'].content[contract.contentType ?? 'application/json'].schema).toBeTypeOf('object');
      if (contract.errorResponses?.[400]) expect(operation.responses['400'].content['application/json'].schema.type).toBe('object');
      else expect(operation.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      expect(Boolean(operation.requestBody), `${name} body`).toBe(Boolean(contract.body));
      const schemes = (operation.security as Array<Record<string, string[]>>).flatMap((requirement) => Object.keys(requirement));
      if (contract.auth === 'none') expect(schemes).toEqual([]);
      if (contract.auth === 'bearer' || contract.auth === 'admin') expect(schemes).toEqual(['bearerAuth']);
      if (contract.auth === 'bearerOrApiKey') expect(schemes).toEqual(['bearerAuth', 'apiKeyAuth']);
      if (contract.auth === 'apiKey') expect(schemes).toEqual(['apiKeyAuth']);
      if (contract.auth !== 'none' && contract.auth !== 'optional') expect(operation.responses['401']).toBeDefined();
      if (contract.params) expect(operation.parameters.some((p: { in: string }) => p.in === 'path')).toBe(true);
    }
    const operations = Object.values(document.paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBe(Object.keys(API).length);
    expect(document.components.schemas.Error.required).toEqual(expect.arrayContaining(['statusCode', 'error', 'message']));
  });

  it('has a reference page served from this server, with no CDN', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.every((source) => source.startsWith('/'))).toBe(true);
    for (const source of sources.filter((s) => s.startsWith('/api/docs/'))) {
      const asset = await app.inject({ method: 'GET', url: source });
      expect(asset.statusCode, source).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/api/docs/assets/package.json' })).statusCode).toBe(404);
  });
});

describe.each(TEST_DIALECTS)('developer API on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const pipeline = new FakePipeline();
  const receiver = new Receiver();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(
      database.config({ RATE_LIMIT_AUTH_MAX: '1000', WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://studio.example' }),
      {
        ...quiet,
        jobs: {
          runner: pipeline.runner,
          providersFor: pipeline.providersFor,
          webhooks: { retryDelaysMs: [300, 300, 300], pollIntervalMs: 100 },
        },
      },
    );
    await app.ready();
    await receiver.start();
  });
  afterAll(async () => {
    await app?.close();
    await receiver.stop();
    await database?.cleanup();
  });

  const withKey = (key: string) => ({ [API_KEY_HEADER]: key });

  async function createKey(user: TestUser, name = 'Server') {
    const response = await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(user), payload: { name } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: string; name: string; key: string; prefix: string; createdAt: string };
  }

  describe('API keys', () => {
    it('shows a new secret once, stores only its hash, and lists names, prefixes and last use', async () => {
      const user = await registerUser(app, 'keys');
      const created = await createKey(user, '  Production  ');
      expect(created).toMatchObject({ name: 'Production', key: expect.stringMatching(/^rsk_/), prefix: created.key.slice(0, 12) });
      const row = await app.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.key_encrypted).toBe('');
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(created.key);

      expect((await app.inject({ method: 'GET', url: '/api/videos', headers: withKey(created.key) })).statusCode).toBe(200);
      const list = (await app.inject({ method: 'GET', url: '/auth/api-keys', headers: bearer(user) })).json().api_keys as Array<
        Record<string, unknown>
      >;
      // The studio key first, then the new one; no secret in the list, the studio key's included.
      expect(list[0]).toMatchObject({ name: 'Default key', studio: true });
      expect(list[0]).not.toHaveProperty('key');
      expect(JSON.stringify(list)).not.toContain(user.apiKey);
      expect(list[1]).toEqual({
        id: created.id,
        name: 'Production',
        prefix: created.prefix,
        created_at: created.createdAt,
        last_used_at: expect.any(String),
      });
      expect(JSON.stringify(list)).not.toContain(created.key);
    });

    it('refuses a key without a name, with the field named', async () => {
      const user = await registerUser(app, 'keys');
      const response = await app.inject({ method: 'POST', url: '/auth/api-keys', headers: bearer(user), payload: { name: ' ' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'Name is required', field: 'name' });
      const viaKey = await app.inject({ method: 'POST', url: '/auth/api-keys', headers: withKey(user.apiKey), payload: { name: 'x' } });
      expect(viaKey.statusCode).toBe(401);
    });

    it('revokes at once: the key gets 401 on every route and mints no embed session', async () => {
      const user = await registerUser(app, 'revoke');
      const created = await createKey(user);
      expect((await app.inject({ method: 'GET', url: '/api/videos', headers: withKey(created.key) })).statusCode).toBe(200);
      const revoke = await app.inject({ method: 'DELETE', url: `/auth/api-keys/${created.id}`, headers: bearer(user) });
      expect(revoke.json()).toEqual({ success: true });

      const keyRoutes = (Object.values(API) as RouteContract[]).filter(
        (route) => route.auth === 'bearerOrApiKey' || route.auth === 'apiKey',
      );
      expect(keyRoutes.length).toBeGreaterThan(10);
      // Valid bodies, so the answer is about the key and not the input.
      const bodies: Record<string, object> = {
        '/api/videos/generate': videoBody('revoked'),
        '/api/webhooks': { url: receiver.url, events: ['video.completed'] },
      };
      for (const route of keyRoutes) {
        const url = route.path.replace(':id', randomUUID());
        // Authentication runs before body validation, so a route without a sample body gets an empty one.
        const payload = route.body ? (bodies[route.path] ?? {}) : undefined;
        const response = await app.inject({ method: route.method, url, headers: withKey(created.key), ...(payload ? { payload } : {}) });
        expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
      }
      const socketLess = await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: withKey(created.key) });
      expect(socketLess.statusCode).toBe(401);
      expect(
        (await app.inject({ method: 'GET', url: '/auth/api-keys', headers: bearer(user) }))
          .json()
          .api_keys.map((k: { id: string }) => k.id),
      ).not.toContain(created.id);
      // Revoking again, or another user's key, is a 404.
      expect((await app.inject({ method: 'DELETE', url: `/auth/api-keys/${created.id}`, headers: bearer(user) })).statusCode).toBe(404);
      const other = await registerUser(app, 'other');
      const theirs = await createKey(other);
      expect((await app.inject({ method: 'DELETE', url: `/auth/api-keys/${theirs.id}`, headers: bearer(user) })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/api/videos', headers: withKey(theirs.key) })).statusCode).toBe(200);
    });

    it('ends the embed sessions a key minted when it is revoked, and revokeAllApiKeys revokes every key', async () => {
      const user = await registerUser(app, 'revoke-all');
      const created = await createKey(user);
      const { token } = (await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: withKey(created.key) })).json();
      expect((await app.inject({ method: 'GET', url: '/api/videos', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
      await app.inject({ method: 'DELETE', url: `/auth/api-keys/${created.id}`, headers: bearer(user) });
      expect((await app.inject({ method: 'GET', url: '/api/videos', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);

      await app.authService.revokeAllApiKeys(user.id);
      expect((await app.inject({ method: 'GET', url: '/api/videos', headers: withKey(user.apiKey) })).statusCode).toBe(401);
    });
  });

  describe('embed sessions', () => {
    it('are minted with an API key only, last 15 minutes, and reach videos but not payments, settings or keys', async () => {
      const user = await registerUser(app, 'embed');
      await subscribe(app, user.id, 'pro_plan');
      expect((await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: bearer(user) })).statusCode).toBe(401);
      const minted = await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: withKey(user.apiKey) });
      expect(minted.statusCode).toBe(200);
      const { token, expiresAt } = minted.json() as { token: string; expiresAt: string };
      const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15);
      const embed = { authorization: `Bearer ${token}` };

      expect((await app.inject({ method: 'GET', url: '/auth/profile', headers: embed })).statusCode).toBe(200);
      const generated = await app.inject({
        method: 'POST',
        url: '/api/videos/generate',
        headers: embed,
        payload: videoBody('embedded topic'),
      });
      expect(generated.statusCode, generated.body).toBe(200);
      const jobId = generated.json().jobId as string;
      expect(
        (await app.inject({ method: 'GET', url: '/api/videos', headers: embed })).json().jobs.map((j: { id: string }) => j.id),
      ).toContain(jobId);
      expect((await app.inject({ method: 'GET', url: `/api/videos/${jobId}`, headers: embed })).statusCode).toBe(200);

      const refused: Array<[string, string, unknown?]> = [
        ['GET', '/payments/subscription'],
        ['POST', '/payments/create-order', { planId: 'pro_plan', currency: 'USD' }],
        ['POST', '/payments/cancel-subscription', { reason: 'x' }],
        ['GET', '/auth/api-keys'],
        ['POST', '/auth/api-keys', { name: 'sneaky' }],
        ['DELETE', `/auth/api-keys/${randomUUID()}`],
        ['PUT', '/auth/profile', { name: 'Someone Else', email: user.email }],
        ['GET', '/auth/usage'],
        ['POST', '/api/embed/sessions'],
        ['GET', '/api/webhooks'],
        ['POST', '/api/webhooks', { url: receiver.url, events: ['video.completed'] }],
        ['POST', '/auth/extension-handoff'],
        ['DELETE', `/api/videos/${jobId}`],
      ];
      for (const [method, url, payload] of refused) {
        const response = await app.inject({
          method: method as 'GET',
          url,
          headers: embed,
          ...(payload ? { payload: payload as object } : {}),
        });
        expect([401, 403], `${method} ${url}: ${response.body}`).toContain(response.statusCode);
      }
      expect((await app.inject({ method: 'GET', url: '/payments/subscription', headers: embed })).json().message).toBe(
        'An embed session can only generate, list and read videos',
      );
      await waitForStatus(app, user, jobId, 'completed');
    });
  });

  describe('webhooks', () => {
    it('delivers a signed video.completed event, retrying after a 500 and logging each attempt', async () => {
      const user = await registerUser(app, 'hooks');
      await subscribe(app, user.id, 'pro_plan');
      const created = await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: withKey(user.apiKey),
        payload: { url: receiver.url, events: ['video.completed'] },
      });
      expect(created.statusCode, created.body).toBe(200);
      const { id, secret } = created.json() as { id: string; secret: string };
      expect(secret).toMatch(/^whsec_/);
      const listed = (await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(user) })).json();
      expect(listed.webhooks).toEqual([{ id, url: receiver.url, events: ['video.completed'], createdAt: expect.any(String) }]);
      expect(JSON.stringify(listed)).not.toContain(secret);

      receiver.statuses.push(500);
      const before = receiver.requests.length;
      const jobId = (
        await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('webhook topic') })
      ).json().jobId as string;
      await waitForStatus(app, user, jobId, 'completed');
      await waitFor(async () => receiver.requests.length >= before + 2, 'the retried delivery', 10_000);

      const [first, second] = receiver.requests.slice(before);
      expect(first!.body).toBe(second!.body);
      for (const request of [first!, second!]) {
        const header = request.headers[WEBHOOK_SIGNATURE_HEADER] as string;
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        const event = verifyWebhook(request.body, header, secret);
        // Absolute from PUBLIC_URL, like the embed's events, and naming the render it is about.
        expect(event).toMatchObject({
          id: `evt_video_completed_${jobId}_v1`,
          type: 'video.completed',
          data: {
            jobId,
            version: 1,
            status: 'completed',
            videoUrl: expect.stringMatching(/^https:\/\/studio\.example\/output\/.+\.mp4$/),
            posterUrl: expect.stringMatching(/^https:\/\/studio\.example\/output\//),
          },
        });
        expect(() => verifyWebhook(request.body, header, 'whsec_wrong')).toThrow('does not match');
        expect(() => verifyWebhook(request.body.replace('completed', 'failed'), header, secret)).toThrow();
      }
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(250);

      const deliveries = await waitFor(async () => {
        const body = (await app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, headers: bearer(user) })).json();
        return body.deliveries[0]?.status === 'delivered' ? body.deliveries : null;
      }, 'the delivery log');
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
      expect(deliveries[0]).toMatchObject({ type: 'video.completed', eventId: JSON.parse(first!.body).id, nextAttemptAt: null });

      // Another user cannot see or delete it.
      const other = await registerUser(app, 'other');
      expect((await app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, headers: bearer(other) })).statusCode).toBe(404);
      expect((await app.inject({ method: 'DELETE', url: `/api/webhooks/${id}`, headers: bearer(other) })).statusCode).toBe(404);
      expect((await app.inject({ method: 'DELETE', url: `/api/webhooks/${id}`, headers: bearer(user) })).json()).toEqual({ success: true });
      expect((await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(user) })).json().webhooks).toEqual([]);
    });

    it('sends video.failed only to webhooks that asked for it, and gives up after the last retry', async () => {
      const user = await registerUser(app, 'fails');
      await subscribe(app, user.id, 'pro_plan');
      const hook = (
        await app.inject({
          method: 'POST',
          url: '/api/webhooks',
          headers: bearer(user),
          payload: { url: receiver.url, events: ['video.failed'] },
        })
      ).json() as { id: string };
      receiver.statuses.push(500, 500, 500, 500);
      pipeline.failWith('doomed topic', providerError('images refused'));
      const before = receiver.requests.length;
      const jobId = (
        await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('doomed topic') })
      ).json().jobId as string;
      await waitForStatus(app, user, jobId, 'failed');
      const deliveries = await waitFor(
        async () => {
          const body = (await app.inject({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries`, headers: bearer(user) })).json();
          return body.deliveries[0]?.status === 'failed' ? body.deliveries : null;
        },
        'the delivery to give up',
        10_000,
      );
      // 1 try + 3 retries with this test's schedule.
      expect(deliveries[0].attempts).toHaveLength(4);
      expect(receiver.requests.length - before).toBe(4);
      expect(JSON.parse(receiver.requests.at(-1)!.body)).toMatchObject({ type: 'video.failed', data: { jobId, status: 'failed' } });
    });

    it('retries at least 6 times over about a day by default', () => {
      expect(DEFAULT_RETRY_DELAYS_MS.length + 1).toBeGreaterThanOrEqual(6);
      const hours = DEFAULT_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0) / 3_600_000;
      expect(hours).toBeGreaterThan(20);
      expect(hours).toBeLessThan(30);
      expect([...DEFAULT_RETRY_DELAYS_MS].sort((a, b) => a - b)).toEqual(DEFAULT_RETRY_DELAYS_MS);
    });

    it('refuses bad input with the field named', async () => {
      const user = await registerUser(app, 'hooks-bad');
      const noEvents = await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(user),
        payload: { url: receiver.url, events: [] },
      });
      expect(noEvents.json()).toMatchObject({ statusCode: 400, field: 'events' });
      const ftp = await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(user),
        payload: { url: 'ftp://example.com/x', events: ['video.failed'] },
      });
      expect(ftp.json()).toMatchObject({ statusCode: 400, field: 'url' });
    });
  });
});

describe('webhooks without WEBHOOK_ALLOW_PRIVATE', () => {
  let database: TestDatabase;
  let app: App;
  const receiver = new Receiver();
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      ...quiet,
      jobs: { autoStart: false, webhooks: { retryDelaysMs: [60_000], pollIntervalMs: 60_000 } },
    });
    await app.ready();
    await receiver.start();
  });
  afterAll(async () => {
    await app?.close();
    await receiver.stop();
    await database?.cleanup();
  });

  it.each([
    'http://127.0.0.1:9/x',
    'http://localhost/x',
    'http://10.1.2.3/x',
    'http://192.168.0.1/x',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/x',
    'http://[fd00::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://[::7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::a9fe:a9fe]/latest',
  ])('refuses %s', async (url) => {
    const user = await registerUser(app, 'private');
    const response = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(user),
      payload: { url, events: ['video.completed'] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: PRIVATE_ADDRESS_MESSAGE, field: 'url' });
  });

  it('does not deliver to a private address stored earlier, and logs why', async () => {
    const user = await registerUser(app, 'private');
    const webhookId = randomUUID();
    await app.db
      .insertInto('webhooks')
      .values({
        id: webhookId,
        user_id: user.id,
        url: receiver.url,
        events: JSON.stringify(['video.completed']),
        secret_encrypted: webhookSecretCipher(database.config().encryption.key).encrypt('whsec_test'),
        created_at: new Date().toISOString(),
        deleted_at: null,
      })
      .execute();
    await app.webhookDispatcher.enqueue(user.id, 'video.completed', {
      jobId: 'job-1',
      version: 1,
      status: 'completed',
      videoUrl: 'http://localhost/output/x.mp4',
    });
    await app.webhookDispatcher.runDue();
    expect(receiver.requests).toHaveLength(0);
    const deliveries = (await app.inject({ method: 'GET', url: `/api/webhooks/${webhookId}/deliveries`, headers: bearer(user) })).json()
      .deliveries;
    expect(deliveries[0].attempts[0]).toMatchObject({ statusCode: null, error: PRIVATE_ADDRESS_MESSAGE });
    expect(deliveries[0].status).toBe('pending');
  });
});
