import type { GenerationParams, PipelineStep } from '@reelsmith/contracts';
import { CancelledError, resolveFfmpegBinaries, runGeneration, type Providers } from '@reelsmith/pipeline';
import { runFfmpeg } from '@reelsmith/pipeline';
import { createOfflineStoryProvider } from '@reelsmith/pipeline';
import { buildApp, type App } from '@reelsmith/server/testing';
import type { GenerationRunner } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, jobStatus, registerUser, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';

const binaries = resolveFfmpegBinaries();

/**
 * The real runner (its per-step checkpoints are what make a restart cheap) with quick providers:
 * the offline story writer, a one-second tone per scene for the voice, tiny pictures, and an
 * assembly that only writes files. The image provider can be made to block until aborted.
 */
function quickPipeline(options: { blockImages: boolean }) {
  const stepsRun: PipelineStep[] = [];
  let markImagesReached!: () => void;
  const imagesReached = new Promise<void>((resolve) => (markImagesReached = resolve));
  const providers: Providers = {
    story: createOfflineStoryProvider(),
    voice: {
      name: 'quick-voice',
      wordsPerMinute: 160,
      health: async () => ({ name: 'quick-voice', status: 'healthy', details: '' }),
      synthesize: async (request, signal) => {
        await runFfmpeg(
          binaries.ffmpegPath,
          ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ar', '22050', '-y', request.outputPath],
          { signal },
        );
        const words = request.text.split(/\s+/).map((word, index) => ({ word, start: index * 0.05, end: index * 0.05 + 0.04 }));
        return { audioPath: request.outputPath, durationSeconds: 1, words };
      },
    },
    images: {
      name: 'quick-images',
      health: async () => ({ name: 'quick-images', status: 'healthy', details: '' }),
      generateImage: async (request, signal) => {
        if (options.blockImages) {
          markImagesReached();
          await new Promise<never>((_, reject) => {
            if (signal?.aborted) reject(new CancelledError());
            signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true });
          });
        }
        writeFileSync(request.outputPath, Buffer.from('not really a jpeg'));
        return { imagePath: request.outputPath };
      },
    },
  };
  const runner: GenerationRunner = (run) =>
    runGeneration(run, {
      binaries,
      onStepRun: (step) => stepsRun.push(step),
      assemble: async (request) => {
        writeFileSync(request.outputPath, Buffer.alloc(4096, 1));
        writeFileSync(request.posterPath, Buffer.alloc(512, 2));
        return {
          videoPath: request.outputPath,
          posterPath: request.posterPath,
          durationSeconds: request.durationSeconds,
          width: 1080,
          height: 1920,
          sizeBytes: 4096,
          renderStats: { seconds: 0.1, segmentsRendered: request.scenes.length, segmentsReused: 0 },
        };
      },
    });
  return { stepsRun, imagesReached, runner, providersFor: (_params: GenerationParams) => providers };
}

describe.each(TEST_DIALECTS)('a job across a server restart on %s', (dialect) => {
  let database: TestDatabase;
  let second: App | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await second?.close();
    await database?.cleanup();
  });

  const build = (pipeline: ReturnType<typeof quickPipeline>) =>
    buildApp(database.config(), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });

  it('resumes an interrupted job without redoing its finished steps', async () => {
    const before = quickPipeline({ blockImages: true });
    const first = await build(before);
    await first.ready();
    const user = await registerUser(first);
    const response = await first.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Restart-proof lighthouse'),
    });
    const { jobId } = response.json() as { jobId: string };
    await before.imagesReached;
    const interrupted = await waitFor(async () => {
      const job = await jobStatus(first, user, jobId);
      return job.steps.voice?.status === 'completed' ? job : undefined;
    }, 'the voice step to be recorded');
    expect(interrupted.status).toBe('processing');
    expect(before.stepsRun).toEqual(['setup', 'story', 'voice', 'images']);

    await first.close();
    const row = await (async () => {
      const probe = await build(quickPipeline({ blockImages: false }));
      // Not started (no ready()): the row is as the first server left it.
      const job = await probe.db.selectFrom('video_jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      await probe.close();
      return job;
    })();
    expect(row.status).toBe('queued');
    const workspace = join(database.dataDir, 'jobs', jobId);
    expect(readdirSync(workspace).sort()).toEqual(expect.arrayContaining(['setup', 'story', 'voice']));

    const after = quickPipeline({ blockImages: false });
    second = await build(after);
    await second.ready();
    const done = await waitForStatus(second, user, jobId, 'completed');
    expect(after.stepsRun).toEqual(['images', 'video']);
    expect(done.progress).toBe(100);
    expect(done.progress).toBeGreaterThanOrEqual(interrupted.progress);
    await waitFor(async () => !existsSync(workspace), 'the workspace to be removed');
    const video = await second.inject({ method: 'GET', url: done.result!.videoUrl });
    expect(video.statusCode).toBe(200);
    expect(video.rawPayload.length).toBe(4096);
  });
});
