import { resolveFfmpegBinaries } from '@reelsmith/pipeline';
import { runGeneration } from '@reelsmith/pipeline';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createDatabase, type DatabaseHandle } from '@reelsmith/server/testing';
import { BullmqJobWorkers } from '@reelsmith/server/testing';
import { createJobRuntime } from '@reelsmith/server/testing';
import { createLogger } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';
import { fakeStoryboardProviders, quickAssemble, type Counts } from './storyboard-fakes.js';

const redisUrl = process.env.TEST_REDIS_URL;
const binaries = resolveFfmpegBinaries();

/** Scale mode: a re-render is picked by a worker process like any job, and its events reach the API. */
/** A bound on waiting, not a speed check: on a loaded 2-core machine a render on the worker can take well over 30 s. */
const RENDER_WAIT_MS = 90_000;

describe.skipIf(!redisUrl)('storyboard re-renders on BullMQ', () => {
  const prefix = `reelsmith-sb-test-${randomBytes(4).toString('hex')}`;
  const counts: Counts = { voiced: [], painted: [] };
  const runner = (run: Parameters<typeof runGeneration>[0]) => runGeneration(run, { binaries, assemble: quickAssemble });
  const providersFor = () => fakeStoryboardProviders(counts);
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix });
  let database: TestDatabase;
  let app: App;
  let handle: DatabaseHandle;
  let workers: BullmqJobWorkers;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config(env()), { voices: { autoGenerateOfflineSamples: false }, jobs: { runner, providersFor } });
    await app.ready();
    const config = database.config(env());
    handle = createDatabase(config.database);
    const runtime = createJobRuntime({ config, db: handle.db, log: createLogger('silent'), runner, providersFor });
    workers = new BullmqJobWorkers({
      db: handle.db,
      worker: runtime.worker,
      events: runtime.events,
      redis: { url: redisUrl!, prefix },
      concurrency: 1,
      log: createLogger('silent'),
    });
    await workers.start();
  });
  afterAll(async () => {
    await workers?.stop();
    await handle?.db.destroy();
    await app?.close();
    await database?.cleanup();
  });

  it(
    'renders v2 on a worker process, reusing the artefacts v1 left, with progress relayed to the API',
    async () => {
      const events: Array<{ name: string; status?: string }> = [];
      app.jobEvents.on('job_progress', (event) => events.push({ name: 'job_progress', status: event.status }));
      app.jobEvents.on('job_completed', () => events.push({ name: 'job_completed' }));
      const user = await registerUser(app, 'bull-storyboard');
      const response = await app.inject({
        method: 'POST',
        url: '/api/videos/generate',
        headers: bearer(user),
        payload: videoBody('Tides of the north'),
      });
      const { jobId } = response.json() as { jobId: string };
      await waitForStatus(app, user, jobId, 'completed', RENDER_WAIT_MS);
      // Right after completion, as a creator clicking Render at once would.
      const board = (await app.inject({ method: 'GET', url: `/api/videos/${jobId}/storyboard`, headers: bearer(user) })).json() as {
        title: string;
        voice: string;
        captionStyle: string;
        enableCaptions: boolean;
        enableZoom: boolean;
        scenes: Array<{ id: string; narration: string; imagePrompt: string }>;
      };
      const scenes = board.scenes.map(({ id, narration, imagePrompt }) => ({ id, narration, imagePrompt }));
      scenes[0] = { ...scenes[0]!, narration: 'The north wind turns the tide' };
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/videos/${jobId}/storyboard`,
        headers: bearer(user),
        payload: { ...board, scenes },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      counts.voiced.length = 0;
      counts.painted.length = 0;
      events.length = 0;
      const render = await app.inject({ method: 'POST', url: `/api/videos/${jobId}/render`, headers: bearer(user) });
      expect(render.statusCode, render.body).toBe(202);
      await waitFor(
        async () => {
          const video = (await app.inject({ method: 'GET', url: `/api/videos/${jobId}`, headers: bearer(user) })).json() as {
            job: { status: string };
            result: { version?: number } | null;
          };
          return video.job.status === 'completed' && video.result?.version === 2;
        },
        'v2 to finish on the worker',
        RENDER_WAIT_MS,
      );
      expect(counts.voiced).toEqual(['The north wind turns the tide']);
      expect(counts.painted).toEqual([]);
      await waitFor(async () => events.some((event) => event.name === 'job_completed'), 'the relayed completion');
      expect(events.some((event) => event.name === 'job_progress' && event.status === 'processing')).toBe(true);
    },
    3 * RENDER_WAIT_MS,
  );
});
