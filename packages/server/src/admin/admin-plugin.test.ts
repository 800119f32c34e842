import * as z from 'zod/mini';
import {
  providersHealthResponseSchema,
  providersResponseSchema,
  switchProviderResponseSchema,
  voiceSampleStatsSchema,
  websocketStatsSchema,
  healthResponseSchema,
} from '@reelsmith/contracts';
import type { GenerationRun } from '@reelsmith/pipeline';
import { GenerationError } from '@reelsmith/pipeline';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@reelsmith/pipeline/testing';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../db/dialect-test-database.js';

const ADMIN_EMAIL = 'admin@example.com';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function signIn(app: App, email: string): Promise<string> {
  const register = await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Tester', email, password: 'secret123' } });
  expect(register.statusCode, register.body).toBeLessThan(300);
  // As if the mailed link was opened: ADMIN_EMAILS applies to verified addresses only.
  await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', email.toLowerCase()).execute();
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'secret123' } });
  expect(login.statusCode).toBe(200);
  return login.json().token as string;
}

/** Records the providers each job starts with, then stops the job: the routes are under test, not the pipeline. */
function recordingRunner() {
  const runs: Array<{ topic: string; story: string; images: string; voice: string }> = [];
  const runner = async (run: GenerationRun) => {
    runs.push({
      topic: run.params.topic,
      story: run.providers.story.name,
      images: run.providers.images.name,
      voice: run.providers.voice.name,
    });
    throw new GenerationError('story', 'stopped by the test', false);
  };
  return { runs, runner };
}

async function eventually<T>(check: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(TEST_DIALECTS)('admin provider routes on %s', (dialect) => {
  let database: TestDatabase;
  let openAi: FakeOpenAiServer;
  let app: App;
  let baseUrl: string;
  let adminToken: string;
  let userToken: string;
  const recorder = recordingRunner();
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    openAi = await startFakeOpenAiServer({ apiKey: 'sk-test' });
    app = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL, RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { env: {}, autoGenerateOfflineSamples: false },
      // The real provider registry from this environment; only the generation itself is replaced.
      jobs: {
        runner: recorder.runner,
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openAi.baseUrl, ELEVENLABS_API_KEY: 'el-test', RESEARCH_PROVIDER: 'off' },
      },
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    adminToken = await signIn(app, ADMIN_EMAIL);
    userToken = await signIn(app, 'user@example.com');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.close();
    await openAi?.close();
    await database?.cleanup();
  });

  const switchTo = (body: unknown, token = adminToken) =>
    app.inject({ method: 'POST', url: '/providers/switch', headers: auth(token), payload: body as Record<string, unknown> });
  /** Starts a 30-second English job on this topic as the holder of the token. */
  const generate = (topic: string, token: string) =>
    app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: auth(token),
      payload: { topic, style: 'educational', language: 'en', duration: 30, voice: 'en-male-1' },
    });

  describe('access', () => {
    const routes = [
      { method: 'GET' as const, url: '/providers' },
      { method: 'GET' as const, url: '/providers/health' },
      { method: 'POST' as const, url: '/providers/switch', payload: { type: 'story', provider: 'openai' } },
      { method: 'GET' as const, url: '/api/websocket/stats' },
    ];

    it.each(routes)('$method $url is 401 without a session', async (route) => {
      const response = await app.inject(route);
      expect(response.statusCode).toBe(401);
    });

    it.each(routes)('$method $url is 403 for a signed-in user', async (route) => {
      const response = await app.inject({ ...route, headers: auth(userToken) });
      expect(response.statusCode).toBe(403);
    });

    it('leaves the switch undone when a user tries it', async () => {
      const providers = providersResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/providers', headers: auth(adminToken) })).json(),
      );
      expect(providers.providers.story?.current).toBe('offline');
    });

    it('keeps GET /health public and cheap: no provider is checked there', async () => {
      const response = await app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(200);
      expect(z.strictObject(healthResponseSchema.shape).parse(response.json())).toMatchObject({ status: 'healthy', database: dialect });
    });
  });

  describe('GET /providers and /providers/health', () => {
    it('lists the current and configured providers of each type', async () => {
      const response = await app.inject({ method: 'GET', url: '/providers', headers: auth(adminToken) });
      expect(response.statusCode).toBe(200);
      expect(providersResponseSchema.parse(response.json()).providers).toEqual({
        story: { current: 'offline', available: ['offline', 'openai'] },
        voice: { current: 'offline', available: ['offline', 'neural', 'elevenlabs'] },
        images: { current: 'offline', available: ['offline', 'openai'] },
        // Research is off in this environment: nothing reaches Wikimedia.
        research: { current: 'off', available: ['off'] },
      });
    });

    it("reports each current provider's own health", async () => {
      const response = await app.inject({ method: 'GET', url: '/providers/health', headers: auth(adminToken) });
      expect(response.statusCode).toBe(200);
      const { health } = providersHealthResponseSchema.parse(response.json());
      expect(health.map(({ type, name, status }) => ({ type, name, status }))).toEqual([
        { type: 'story', name: 'offline', status: 'healthy' },
        { type: 'voice', name: 'offline', status: 'healthy' },
        { type: 'images', name: 'offline', status: 'healthy' },
        { type: 'research', name: 'off', status: 'healthy' },
      ]);
      expect(health.find((entry) => entry.type === 'voice')?.details).toMatch(/espeak-ng/);
    });
  });

  describe('GET /providers/health?type=&provider= (a switch target checked first)', () => {
    const check = (query: string) => app.inject({ method: 'GET', url: `/providers/health?${query}`, headers: auth(adminToken) });

    it('checks the named provider, not the current one', async () => {
      const response = await check('type=story&provider=openai');
      expect(response.statusCode, response.body).toBe(200);
      const { health } = providersHealthResponseSchema.parse(response.json());
      expect(health).toHaveLength(1);
      expect(health[0]).toMatchObject({ type: 'story', name: 'openai', status: 'healthy' });
    });

    it('reports a provider that cannot work as an error with the reason', async () => {
      const { health } = providersHealthResponseSchema.parse((await check('type=voice&provider=azure')).json());
      expect(health[0]).toMatchObject({ type: 'voice', name: 'azure', status: 'error' });
      expect(health[0]?.details).not.toBe('');
    });

    it('refuses a type without a provider', async () => {
      const response = await check('type=voice');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/type and provider go together/);
    });
  });

  describe('POST /providers/switch', () => {
    it.each([
      [{}, /missing or malformed|expected/i],
      [{ type: 'music', provider: 'offline' }, /expected|invalid/i],
      [{ type: 'story' }, /expected|invalid|missing/i],
      [{ type: 'story', provider: '' }, /too small|at least|>=|missing/i],
      [{ type: 'story', provider: 'gpt' }, /Unknown story provider "gpt"\. Known story providers: offline, openai/],
      [{ type: 'voice', provider: 'openai' }, /Unknown voice provider "openai"/],
      [
        { type: 'voice', provider: 'azure' },
        /The azure voice provider is not configured on this server: set AZURE_SPEECH_KEY and AZURE_SPEECH_REGION/,
      ],
    ])('refuses %j with a 400 that says why', async (body, message) => {
      const response = await switchTo(body);
      expect(response.statusCode, response.body).toBe(400);
      expect((response.json() as { message: string }).message).toMatch(message);
    });

    it('switches the story provider: GET /providers, health and the next job follow it', async () => {
      const first = await generate('Before the switch', userToken);
      expect(first.statusCode, first.body).toBe(200);
      const before = await eventually(() => recorder.runs.find((run) => run.topic === 'Before the switch'), 'the first job');
      expect(before.story).toBe('offline');

      const response = await switchTo({ type: 'story', provider: 'openai' });
      expect(response.statusCode, response.body).toBe(200);
      expect(switchProviderResponseSchema.parse(response.json())).toEqual({
        message: 'Story provider switched to openai. New jobs use it from now on.',
        current: 'openai',
      });

      const providers = providersResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/providers', headers: auth(adminToken) })).json(),
      );
      expect(providers.providers.story?.current).toBe('openai');
      expect(providers.providers.images?.current).toBe('offline');
      // Persisted in the database beside the voice provider, so a restart and every worker see it.
      const stored = await app.db.selectFrom('app_settings').select('value').where('key', '=', 'storyProvider').executeTakeFirst();
      expect(stored && JSON.parse(stored.value)).toBe('openai');

      const health = providersHealthResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/providers/health', headers: auth(adminToken) })).json(),
      ).health;
      expect(health[0]).toMatchObject({ type: 'story', name: 'openai', status: 'healthy' });

      const adminJob = await generate('After the switch', adminToken);
      expect(adminJob.statusCode, adminJob.body).toBe(200);
      const after = await eventually(() => recorder.runs.find((run) => run.topic === 'After the switch'), 'the second job');
      expect(after).toMatchObject({ story: 'openai', images: 'offline' });

      const back = await switchTo({ type: 'story', provider: 'offline' });
      expect(back.statusCode).toBe(200);
    });

    it('switches the voice provider shared with the voice settings', async () => {
      const response = await switchTo({ type: 'voice', provider: 'elevenlabs' });
      expect(response.statusCode, response.body).toBe(200);
      expect(switchProviderResponseSchema.parse(response.json()).current).toBe('elevenlabs');
      const stats = voiceSampleStatsSchema.parse((await app.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json());
      expect(stats.currentProvider).toBe('elevenlabs');
      const providers = providersResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/providers', headers: auth(adminToken) })).json(),
      );
      expect(providers.providers.voice?.current).toBe('elevenlabs');
      expect((await switchTo({ type: 'voice', provider: 'offline' })).statusCode).toBe(200);
    });

    it('switches the image provider', async () => {
      const response = await switchTo({ type: 'images', provider: 'openai' });
      expect(response.statusCode, response.body).toBe(200);
      const providers = providersResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/providers', headers: auth(adminToken) })).json(),
      );
      expect(providers.providers.images).toEqual({ current: 'openai', available: ['offline', 'openai'] });
      expect((await switchTo({ type: 'images', provider: 'offline' })).statusCode).toBe(200);
    });
  });

  describe('GET /api/websocket/stats', () => {
    it('counts the sockets connected to the real socket.io server', async () => {
      const read = async () =>
        websocketStatsSchema.parse((await app.inject({ method: 'GET', url: '/api/websocket/stats', headers: auth(adminToken) })).json());
      const before = await read();
      const socket = connectSocket(baseUrl, {
        path: '/socket.io/',
        transports: ['websocket'],
        auth: { token: userToken },
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      expect((await read()).connectedClients).toBe(before.connectedClients + 1);
      socket.disconnect();
      const deadline = Date.now() + 5000;
      while ((await read()).connectedClients !== before.connectedClients && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25));
      expect((await read()).connectedClients).toBe(before.connectedClients);
    });
  });
});

describe('provider switch without credentials', () => {
  let database: TestDatabase;
  let app: App;
  let adminToken: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL }), {
      voices: { env: {}, autoGenerateOfflineSamples: false },
      jobs: { env: { RESEARCH_PROVIDER: 'off' }, autoStart: false },
    });
    await app.ready();
    adminToken = await signIn(app, ADMIN_EMAIL);
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it.each([
    ['story', /The openai story provider is not configured on this server: set OPENAI_API_KEY/],
    ['images', /The openai image provider is not configured on this server: set IMAGE_API_KEY or OPENAI_API_KEY/],
  ])('refuses openai for %s without an API key', async (type, message) => {
    const response = await app.inject({
      method: 'POST',
      url: '/providers/switch',
      headers: auth(adminToken),
      payload: { type, provider: 'openai' },
    });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { message: string }).message).toMatch(message);
    const providers = providersResponseSchema.parse(
      (await app.inject({ method: 'GET', url: '/providers', headers: auth(adminToken) })).json(),
    );
    expect(providers.providers[type as 'story' | 'images']).toEqual({ current: 'offline', available: ['offline'] });
  });
});
