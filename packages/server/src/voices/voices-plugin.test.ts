import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceProviderConfigSchema, voiceSampleStatsSchema, voicesResponseSchema, voiceSamplePath } from '@reelsmith/contracts';
import type { SynthesisRequest, VoiceProvider } from '@reelsmith/pipeline';
import { expectedSampleCount, getVoices, sampleSlots } from '@reelsmith/pipeline';
import { buildApp, type App } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../db/dialect-test-database.js';

const ADMIN_EMAIL = 'admin@example.com';
const FAKE_MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4093, 7)]);

/** Writes a small file per request; can be told to fail, and to wait, so a run can be observed mid-way. */
function fakeSynthesizer(name: string) {
  const requests: SynthesisRequest[] = [];
  let gate: Promise<void> = Promise.resolve();
  let openGate = () => undefined as void;
  const provider: VoiceProvider & { requests: SynthesisRequest[]; hold(): void; release(): void } = {
    name,
    wordsPerMinute: 150,
    requests,
    hold() {
      gate = new Promise((resolve) => (openGate = resolve));
    },
    release() {
      openGate();
    },
    async health() {
      return { name, status: 'healthy', details: 'fake' };
    },
    async synthesize(request) {
      requests.push(request);
      await gate;
      await writeFile(request.outputPath, FAKE_MP3);
      return { audioPath: request.outputPath, durationSeconds: 1, words: [{ word: 'x', start: 0, end: 1 }] };
    },
  };
  return provider;
}

async function signIn(app: App, email: string): Promise<string> {
  const register = await app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Tester', email, password: 'secret123' } });
  expect(register.statusCode).toBeLessThan(300);
  // As if the mailed link was opened: ADMIN_EMAILS applies to verified addresses only.
  await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', email.toLowerCase()).execute();
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'secret123' } });
  expect(login.statusCode).toBe(200);
  return login.json().token as string;
}

describe('voices plugin (SQLite DATA_DIR)', () => {
  let database: TestDatabase;
  let app: App;
  let adminToken: string;
  let userToken: string;
  const offline = fakeSynthesizer('offline');
  const elevenlabs = fakeSynthesizer('elevenlabs');
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  /** POST /api/voice-providers/switch with this body, as the holder of the token (none: signed out). */
  const switchProvider = (payload: object, token?: string) =>
    app.inject({ method: 'POST', url: '/api/voice-providers/switch', ...(token ? { headers: auth(token) } : {}), payload });

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL }), {
      voices: { env: {}, synthesizers: { offline, elevenlabs }, autoGenerateOfflineSamples: false },
    });
    await app.ready();
    adminToken = await signIn(app, ADMIN_EMAIL);
    userToken = await signIn(app, 'user@example.com');
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  describe('GET /voices', () => {
    it('lists the current (offline) provider voices by gender', async () => {
      const response = await app.inject({ method: 'GET', url: '/voices?language=en' });
      expect(response.statusCode).toBe(200);
      const body = voicesResponseSchema.parse(response.json());
      expect(body.provider).toBe('offline');
      expect(body.voices.male.length).toBeGreaterThan(0);
      expect(body.voices.female.length).toBeGreaterThan(0);
      expect(body.voices.male.every((voice) => voice.gender === 'male')).toBe(true);
      expect([...body.voices.male, ...body.voices.female].map((voice) => voice.id).sort()).toEqual(
        getVoices('offline', 'en')
          .map((voice) => voice.id)
          .sort(),
      );
    });

    it('lists another provider when asked', async () => {
      const body = voicesResponseSchema.parse((await app.inject({ method: 'GET', url: '/voices?language=hi&provider=azure' })).json());
      expect(body.provider).toBe('azure');
      expect(body.voices.male.map((voice) => voice.id)).toContain('hi-IN-MadhurNeural');
    });

    it.each([
      ['/voices', 'language'],
      ['/voices?language=xx', 'language'],
      ['/voices?language=EN', 'language'],
      ['/voices?language=en&provider=polly', 'provider'],
    ])('rejects %s with a 400 naming the field', async (url, field) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, field });
      expect(response.json().message).toMatch(/\S/);
    });
  });

  describe('samples, stats and generation', () => {
    it('reports every offline sample missing on a fresh install', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/voice-samples/stats' });
      expect(response.statusCode).toBe(200);
      const stats = voiceSampleStatsSchema.parse(response.json());
      expect(stats).toMatchObject({
        total: expectedSampleCount('offline'),
        available: 0,
        missing: expectedSampleCount('offline'),
        currentProvider: 'offline',
      });
      expect(Object.keys(stats.byLanguage).sort()).toEqual(['de', 'en', 'es', 'fr', 'hi', 'it', 'ja', 'ko', 'pt', 'zh']);
    });

    it('serves a missing sample as a JSON 404, never a file', async () => {
      const [slot] = sampleSlots('offline');
      const response = await app.inject({ method: 'GET', url: voiceSamplePath('offline', slot!.voiceId, slot!.language) });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/json/);
    });

    it('only lets admins see the provider config and start generation', async () => {
      for (const [method, url] of [
        ['GET', '/api/voice-providers/config'],
        ['POST', '/api/voice-samples/generate'],
      ] as const) {
        expect((await app.inject({ method, url })).statusCode).toBe(401);
        expect((await app.inject({ method, url, headers: auth(userToken) })).statusCode).toBe(403);
      }
      expect((await switchProvider({ provider: 'offline' }, userToken)).statusCode).toBe(403);
      expect((await switchProvider({ provider: 'offline' })).statusCode).toBe(401);
    });

    it('generates the missing samples in the background with progress, then serves them', async () => {
      offline.hold();
      const start = await app.inject({ method: 'POST', url: '/api/voice-samples/generate', headers: auth(adminToken) });
      expect(start.statusCode).toBe(200);
      expect(start.json()).toMatchObject({ started: true });

      const during = voiceProviderConfigSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/voice-providers/config', headers: auth(adminToken) })).json(),
      );
      expect(during.current).toBe('offline');
      expect(during.available).toEqual(['elevenlabs', 'neural', 'offline']);
      expect(during.samples_status).toMatchObject({ generating: true, progress: 0, available: 0 });

      const again = await app.inject({ method: 'POST', url: '/api/voice-samples/generate', headers: auth(adminToken) });
      expect(again.json()).toMatchObject({ started: false });

      offline.release();
      await app.voiceSamples.idle();
      expect(offline.requests).toHaveLength(expectedSampleCount('offline'));
      expect(offline.requests.find((request) => request.language === 'fr')?.text).toMatch(/histoire/);

      const after = voiceProviderConfigSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/voice-providers/config', headers: auth(adminToken) })).json(),
      );
      expect(after.samples_status).toMatchObject({ generating: false, progress: 100, missing: 0 });
      const stats = voiceSampleStatsSchema.parse((await app.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json());
      expect(stats.available).toBe(expectedSampleCount('offline'));
      expect(stats.byLanguage.en).toBe(getVoices('offline', 'en').length);
      // Nothing half-written is left in the served folder.
      expect(readdirSync(database.config().paths.voiceSamplesDir).filter((name) => !name.endsWith('.mp3') && name !== 'native')).toEqual(
        [],
      );

      const nothingMissing = await app.inject({ method: 'POST', url: '/api/voice-samples/generate', headers: auth(adminToken) });
      expect(nothingMissing.json()).toMatchObject({ started: false, message: 'Every voice sample is already present' });
    });

    it('serves a sample with caching headers, ETag revalidation and Range', async () => {
      const [slot] = sampleSlots('offline');
      const url = voiceSamplePath('offline', slot!.voiceId, slot!.language);
      const full = await app.inject({ method: 'GET', url });
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe('audio/mpeg');
      expect(full.headers['cache-control']).toMatch(/public, max-age=86400/);
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(full.rawPayload.equals(FAKE_MP3)).toBe(true);
      const etag = full.headers.etag as string;
      expect(etag).toBeTruthy();

      const revalidated = await app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(revalidated.statusCode).toBe(304);

      const partial = await app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
      expect(partial.statusCode).toBe(206);
      expect(partial.headers['content-range']).toBe(`bytes 100-199/${FAKE_MP3.length}`);
      expect(partial.rawPayload.length).toBe(100);
    });

    it('never serves a file outside the sample naming scheme', async () => {
      const samplesDir = database.config().paths.voiceSamplesDir;
      writeFileSync(join(samplesDir, 'voice-x-en.mp3.partial'), 'half');
      expect((await app.inject({ method: 'GET', url: '/audio/voice-samples/voice-x-en.mp3.partial' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/audio/voice-samples/../settings.json' })).statusCode).toBe(404);
    });
  });

  describe('POST /api/voice-providers/switch', () => {
    it('rejects an unknown or unconfigured provider', async () => {
      const unknown = await switchProvider({ provider: 'polly' }, adminToken);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().field).toBe('provider');
      const missingBody = await switchProvider({}, adminToken);
      expect(missingBody.statusCode).toBe(400);
      const azure = await switchProvider({ provider: 'azure' }, adminToken);
      expect(azure.statusCode).toBe(400);
      expect(azure.json().message).toMatch(/AZURE_SPEECH_KEY/);
    });

    it('switches, persists in the database and changes the default of /voices and the stats', async () => {
      const response = await switchProvider({ provider: 'elevenlabs' }, adminToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Voice provider switched to elevenlabs', current: 'elevenlabs' });
      const stored = await app.db.selectFrom('app_settings').select('value').where('key', '=', 'voiceProvider').executeTakeFirst();
      expect(stored && JSON.parse(stored.value)).toBe('elevenlabs');

      expect((await app.inject({ method: 'GET', url: '/voices?language=ja' })).json().provider).toBe('elevenlabs');
      const stats = voiceSampleStatsSchema.parse((await app.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json());
      expect(stats).toMatchObject({ currentProvider: 'elevenlabs', total: expectedSampleCount('elevenlabs'), available: 0 });

      // A sample dropped in by hand counts at once: the stats come from the files present.
      const [slot] = sampleSlots('elevenlabs');
      const file = join(database.config().paths.voiceSamplesDir, `voice-${slot!.voiceId}-${slot!.language}.mp3`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, FAKE_MP3);
      expect((await app.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json().available).toBe(1);
    });

    it('keeps the choice across a restart', async () => {
      const restarted = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL }), {
        voices: { env: {}, autoGenerateOfflineSamples: false },
      });
      try {
        expect((await restarted.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json().currentProvider).toBe('elevenlabs');
      } finally {
        await restarted.close();
      }
    });
  });
});

describe('voices plugin on its default, the natural voices, before their model is there', () => {
  let database: TestDatabase;
  let app: App;
  const offline = fakeSynthesizer('offline');

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config(), {
      // What `npm start` has: VOICE_PROVIDER unset (neural); no model, and none fetched in a test.
      voices: { env: { VOICE_PROVIDER: 'neural', VOICE_MODEL_URL: 'off' }, synthesizers: { offline } },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it("lists the natural voices and makes the basic voices' previews (espeak-ng's) at start", async () => {
    const voices = voicesResponseSchema.parse((await app.inject({ method: 'GET', url: '/voices?language=en' })).json());
    expect(voices.provider).toBe('neural');
    // Start-up does not wait for samples: the offline run starts in the background.
    await expect.poll(() => offline.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
  });
});
