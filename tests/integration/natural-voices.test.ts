import type { VideoJob, VoicesResponse } from '@reelsmith/contracts';
import { manifestFor, startFakeModelHost, tinyKokoroFiles, type FakeModelHost } from '@reelsmith/pipeline/testing';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';

/**
 * The natural voices on a server: the model fetched in the background at start from VOICE_MODEL_URL
 * (a local fake host serving the tests' tiny Kokoro model), its state in GET /voices, and a job
 * narrated through it; with the host unreachable, espeak narrates and the job's result says why.
 */
const root = mkdtempSync(join(tmpdir(), 'reelsmith-natural-voices-'));
let host: FakeModelHost;
let manifestPath: string;

beforeAll(async () => {
  const files = tinyKokoroFiles();
  host = await startFakeModelHost({ files });
  manifestPath = join(root, 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify(manifestFor(files)));
});
afterAll(async () => {
  await host.close();
  rmSync(root, { recursive: true, force: true });
});

async function startServer(modelUrl: string): Promise<{ app: App; database: TestDatabase }> {
  const database = await createTestDatabase('sqlite');
  const env = { PATH: process.env.PATH, RESEARCH_PROVIDER: 'off', VOICE_MODEL_URL: modelUrl, VOICE_MODEL_MANIFEST: manifestPath };
  const app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
    voices: { env, autoGenerateOfflineSamples: false },
    jobs: { env },
  });
  await app.ready();
  return { app, database };
}

const naturalVoices = async (app: App) =>
  ((await app.inject({ method: 'GET', url: '/voices?language=en&provider=neural' })).json() as VoicesResponse).naturalVoices;

async function narrate(app: App): Promise<VideoJob> {
  const user = await registerUser(app);
  const response = await app.inject({
    method: 'POST',
    url: '/api/videos/generate',
    headers: bearer(user),
    payload: videoBody('Why octopuses have three hearts', { voice: 'kokoro-af-heart', voiceProvider: 'neural', enableCaptions: true }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (await waitForStatus(app, user, (response.json() as { jobId: string }).jobId, 'completed', 240_000)) as VideoJob;
}

describe('natural voices on the server', () => {
  it('downloads the model in the background at start and narrates a job through it', { timeout: 300_000 }, async () => {
    const { app, database } = await startServer(host.url);
    try {
      const ready = await waitFor(
        async () => ((await naturalVoices(app))?.state === 'ready' ? naturalVoices(app) : null),
        'the model',
        30_000,
      );
      expect(ready).toEqual({ state: 'ready', progress: 100, message: null, languageHasNaturalVoices: true });
      const voices = (await app.inject({ method: 'GET', url: '/voices?language=en&provider=neural' })).json() as VoicesResponse;
      expect(voices.voices.female[0]).toMatchObject({ id: 'kokoro-af-heart', quality: 'natural' });
      expect(voices.voices.female.some((voice) => voice.quality === 'basic')).toBe(true);
      const german = (await app.inject({ method: 'GET', url: '/voices?language=de&provider=neural' })).json() as VoicesResponse;
      expect(german.naturalVoices?.languageHasNaturalVoices).toBe(false);
      expect([...german.voices.female, ...german.voices.male].every((voice) => voice.quality === 'basic')).toBe(true);

      const job = await narrate(app);
      expect(job.result?.notes).toBeUndefined();
      expect(job.result?.durationSeconds).toBeGreaterThan(29.5);
      expect(job.result?.durationSeconds).toBeLessThan(30.5);
    } finally {
      await app.close();
      await database.cleanup();
    }
  });

  it('narrates with espeak and says why when the model host cannot be reached', { timeout: 300_000 }, async () => {
    const port = await closedPort();
    const { app, database } = await startServer(`http://127.0.0.1:${port}/onnx-community/Kokoro-82M-v1.0-ONNX`);
    try {
      const failed = await waitFor(
        async () => ((await naturalVoices(app))?.state === 'failed' ? naturalVoices(app) : null),
        'the failure',
        30_000,
      );
      expect(failed?.message).toBe(`Natural voices are not available: cannot reach 127.0.0.1:${port} (ECONNREFUSED)`);
      const job = await narrate(app);
      expect(job.result?.notes).toEqual([
        `Natural voices are not available: cannot reach 127.0.0.1:${port} (ECONNREFUSED): narrated with the basic voice instead of Heart.`,
      ]);
      expect(job.result?.durationSeconds).toBeGreaterThan(29.5);
      expect(job.result?.durationSeconds).toBeLessThan(30.5);
    } finally {
      await app.close();
      await database.cleanup();
    }
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
