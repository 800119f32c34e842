/**
 * A whole server (the embedded queue runs its jobs) for the webhook outbox's crash test. Its runner
 * finishes every job at once with a small fake video. With KILL_ON_COMPLETION=1 the process kills
 * itself (SIGKILL) the moment a job's completion is announced: after the completion's commit, before
 * any webhook is sent (its dispatcher only looks again after an hour, and it is woken after the
 * announcement). Prints "ready" once it takes jobs.
 */
import type { GenerationOutput, GenerationRun } from '@reelsmith/pipeline';
import { buildApp, loadConfig } from '@reelsmith/server/testing';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const killOnCompletion = process.env.KILL_ON_COMPLETION === '1';

const runner = async (run: GenerationRun): Promise<GenerationOutput> => {
  mkdirSync(run.workspaceDir, { recursive: true });
  const videoPath = join(run.workspaceDir, 'final.mp4');
  const posterPath = join(run.workspaceDir, 'poster.jpg');
  writeFileSync(videoPath, randomBytes(4096));
  writeFileSync(posterPath, randomBytes(512));
  return {
    title: `The Story of ${run.params.topic}`,
    videoPath,
    posterPath,
    durationSeconds: run.params.duration,
    width: 1080,
    height: 1920,
    sizeBytes: 4096,
    renderStats: { seconds: 0.1, segmentsRendered: 1, segmentsReused: 0 },
  };
};

const app = await buildApp(loadConfig(process.env), {
  voices: { autoGenerateOfflineSamples: false },
  jobs: {
    runner,
    providersFor: () => ({}) as never,
    webhooks: killOnCompletion ? { pollIntervalMs: 3_600_000 } : { pollIntervalMs: 100, retryDelaysMs: [200, 200] },
  },
});
if (killOnCompletion) app.jobEvents.on('job_completed', () => process.kill(process.pid, 'SIGKILL'));
await app.ready();
process.stdout.write('ready\n');
