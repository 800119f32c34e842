import {
  PIPELINE_STEPS,
  RESOLUTION_SIZES,
  videoJobSchema,
  type GenerationParams,
  type PipelineStep,
  type VideoJob,
} from '@reelsmith/contracts';
import { CancelledError, ProviderError } from '@reelsmith/pipeline';
import type { GenerationOutput, GenerationRun, Providers } from '@reelsmith/pipeline';
import { subscribeUserDirectly, type App } from '@reelsmith/server/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

interface Gate {
  step: PipelineStep;
  reached: Promise<void>;
  markReached: () => void;
  release: () => void;
  released: Promise<void>;
}

export interface FakeRunRecord {
  jobId: string;
  topic: string;
  signal: AbortSignal;
  workspaceDir: string;
  /** Steps this run actually did (not skipped through a checkpoint). */
  stepsRun: PipelineStep[];
  reported: number[];
}

/** Bytes that only need to look like a file to the static server; the real pipeline is tested separately. */
export const FAKE_VIDEO_BYTES = 64 * 1024;

/**
 * A stand-in for the pipeline's runGeneration, driven by the job's topic: it can block in a step until
 * released (or aborted), fail with a given error, and it keeps per-step checkpoints in the workspace
 * like the real runner, so a rerun after a restart skips finished steps. It also reports a progress
 * value lower than before, as a resumed run may, to prove the server never shows progress going back.
 */
export class FakePipeline {
  readonly runs: FakeRunRecord[] = [];
  private readonly gates = new Map<string, Gate>();
  private readonly failures = new Map<string, Error>();

  blockAt(topic: string, step: PipelineStep): Gate {
    let markReached!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (markReached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const gate = { step, reached, markReached, release, released };
    this.gates.set(topic, gate);
    return gate;
  }

  failWith(topic: string, error: Error): void {
    this.failures.set(topic, error);
  }

  /** The failure cause is gone (the provider is back): the next run of the topic succeeds. */
  recover(topic: string): void {
    this.failures.delete(topic);
  }

  runsOf(topic: string): FakeRunRecord[] {
    return this.runs.filter((run) => run.topic === topic);
  }

  readonly runner = async (run: GenerationRun): Promise<GenerationOutput> => {
    const record: FakeRunRecord = {
      jobId: run.jobId,
      topic: run.params.topic,
      signal: run.signal!,
      workspaceDir: run.workspaceDir,
      stepsRun: [],
      reported: [],
    };
    this.runs.push(record);
    const report = (step: PipelineStep, stepProgress: number, progress: number) => {
      record.reported.push(progress);
      run.onProgress?.({ step, stepProgress, progress });
    };
    const abortable = (promise: Promise<void>) =>
      new Promise<void>((resolve, reject) => {
        if (run.signal?.aborted) return reject(new CancelledError());
        run.signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true });
        promise.then(resolve, reject);
      });

    report('setup', 0, 0);
    for (const [index, step] of PIPELINE_STEPS.entries()) {
      const checkpoint = join(run.workspaceDir, `${step}.done`);
      if (existsSync(checkpoint)) {
        report(step, 100, (index + 1) * 20);
        continue;
      }
      record.stepsRun.push(step);
      report(step, 0, index * 20 + 1);
      const gate = this.gates.get(run.params.topic);
      if (gate?.step === step) {
        gate.markReached();
        await abortable(gate.released);
      }
      const failure = this.failures.get(run.params.topic);
      if (failure && step === 'voice') throw failure;
      if (step === 'images') report(step, 30, index * 20 - 5); // lower than before, as a resumed run may report
      report(step, 50, index * 20 + 10);
      writeFileSync(checkpoint, 'done');
      report(step, 100, (index + 1) * 20);
      await new Promise((resolve) => setImmediate(resolve));
      if (run.signal?.aborted) throw new CancelledError();
    }
    const size = RESOLUTION_SIZES[run.params.resolution];
    const videoPath = join(run.workspaceDir, 'final.mp4');
    const posterPath = join(run.workspaceDir, 'poster.jpg');
    mkdirSync(run.workspaceDir, { recursive: true });
    writeFileSync(videoPath, randomBytes(FAKE_VIDEO_BYTES));
    writeFileSync(posterPath, randomBytes(2048));
    return {
      title: `The Story of ${run.params.topic}`,
      videoPath,
      posterPath,
      durationSeconds: run.params.duration,
      width: size.width,
      height: size.height,
      sizeBytes: FAKE_VIDEO_BYTES,
      renderStats: { seconds: 0.1, segmentsRendered: 5, segmentsReused: 0 },
      ...(run.params.topic.includes('stock photos') ? { credits: [STOCK_CREDIT] } : {}),
    };
  };

  /** The fake runner ignores providers; the server still asks for them per job. */
  readonly providersFor = (_params: GenerationParams): Providers => ({}) as Providers;
}

/** What a run whose topic mentions "stock photos" says its pictures came from. */
export const STOCK_CREDIT = {
  source: 'pexels' as const,
  sourceId: 'pexels:101',
  author: 'Ana Reef',
  authorUrl: 'https://www.pexels.com/@ana-reef',
  pageUrl: 'https://www.pexels.com/photo/101/',
};

export const providerError = (message: string) => new ProviderError(message, 'fake-images', false, 400);

export const PASSWORD = 'correct-horse-battery';

export interface TestUser {
  id: string;
  token: string;
  apiKey: string;
  email: string;
}

export async function registerUser(app: App, label = 'user'): Promise<TestUser> {
  const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Test Creator', email, password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  const body = response.json() as { user: { id: string }; token: string; api_key: { key: string } };
  return { id: body.user.id, token: body.token, apiKey: body.api_key.key, email };
}

/** Gives the user a plan directly in the database (payments has its own tests). */
export async function subscribe(app: App, userId: string, planId: 'essentials_plan' | 'pro_plan'): Promise<void> {
  await subscribeUserDirectly(app.db, userId, planId);
}

export const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

export function videoBody(topic: string, extra: Record<string, unknown> = {}) {
  return { topic, style: 'educational', language: 'en', duration: 30, voice: 'en-male-1', ...extra };
}

export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function jobStatus(app: App, user: TestUser, jobId: string): Promise<VideoJob> {
  const response = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/status`, headers: bearer(user) });
  expect(response.statusCode).toBe(200);
  return videoJobSchema.parse(response.json());
}

export function waitForStatus(app: App, user: TestUser, jobId: string, status: string, timeoutMs?: number) {
  return waitFor(
    async () => {
      const job = await jobStatus(app, user, jobId);
      return job.status === status ? job : undefined;
    },
    `job ${jobId} to be ${status}`,
    timeoutMs,
  );
}
