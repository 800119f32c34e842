import { MESSAGES, type JobProgressEvent } from '@reelsmith/contracts';
import { liveFfmpegPids } from '@reelsmith/pipeline';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, jobStatus, registerUser, subscribe, videoBody, waitFor, waitForStatus } from './server-jobs-fakes.js';

/**
 * The real pipeline with the offline providers (no network, no keys), exactly as a fresh install runs
 * it: story, espeak narration, generated pictures, ffmpeg assembly.
 */
describe('a real video job with the offline providers', () => {
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;
  let socket: Socket | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { env: { PATH: process.env.PATH, RESEARCH_PROVIDER: 'off' } },
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    socket?.disconnect();
    await app?.close();
    await database?.cleanup();
  });

  it('makes a 30 s 9:16 MP4 served with range requests', async () => {
    const user = await registerUser(app);
    socket = connectSocket(baseUrl, { path: '/socket.io/', transports: ['websocket'], auth: { token: user.token }, reconnection: false });
    const events: JobProgressEvent[] = [];
    socket.on('job_progress', (event: JobProgressEvent) => events.push(event));
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });

    const startedAt = Date.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why octopuses have three hearts', { voice: 'en-us-m3', enableCaptions: true }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    const job = await waitForStatus(app, user, jobId, 'completed', 170_000);
    const seconds = (Date.now() - startedAt) / 1000;
    console.info(`real 30 s job took ${seconds.toFixed(1)} s`);

    const result = job.result!;
    expect(result).toMatchObject({ width: 1080, height: 1920 });
    expect(result.durationSeconds).toBeGreaterThan(29);
    expect(result.durationSeconds).toBeLessThan(31);
    const head = await app.inject({ method: 'GET', url: result.videoUrl, headers: { range: 'bytes=0-1023' } });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-1023/${result.sizeBytes}`);
    expect(head.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const full = await app.inject({ method: 'GET', url: result.videoUrl });
    const file = join(tmpdir(), `${jobId}.mp4`);
    writeFileSync(file, full.rawPayload);
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,width,height', '-of', 'json', file], {
        encoding: 'utf8',
      }),
    ) as {
      streams: { codec_type: string; width?: number; height?: number }[];
    };
    expect(probe.streams.map((stream) => stream.codec_type).sort()).toEqual(['audio', 'video']);
    expect(probe.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ width: 1080, height: 1920 });
    rmSync(file, { force: true });
    expect((await app.inject({ method: 'GET', url: result.posterUrl! })).headers['content-type']).toBe('image/jpeg');

    const progress = events.filter((event) => event.jobId === jobId).map((event) => event.progress);
    for (let index = 1; index < progress.length; index += 1) expect(progress[index]).toBeGreaterThanOrEqual(progress[index - 1]!);
    expect(new Set(events.map((event) => event.step))).toEqual(new Set(['setup', 'story', 'voice', 'images', 'video']));
    // The row is final before the workspace goes, so a crash in between loses nothing.
    await waitFor(async () => !existsSync(join(database.dataDir, 'jobs', jobId)), 'the workspace to be removed');
  }, 180_000);

  it('kills ffmpeg when a job is cancelled while it renders', async () => {
    const user = await registerUser(app);
    await subscribe(app, user.id, 'pro_plan');
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Lighthouses', { voice: 'en-us-m3' }),
    });
    const { jobId } = response.json() as { jobId: string };
    await waitFor(
      async () => {
        const job = await jobStatus(app, user, jobId);
        return job.steps.video?.status === 'running' && liveFfmpegPids().length > 0;
      },
      'the render to start',
      120_000,
    );

    const cancel = await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) });
    expect(cancel.json()).toEqual({ success: true, status: 'cancelled', message: MESSAGES.jobCancelled });
    // SIGKILLed by the abort; the render and the poster's ffmpeg are reaped within moments.
    await waitFor(async () => liveFfmpegPids().length === 0, 'every ffmpeg to exit', 2_000);
    expect((await jobStatus(app, user, jobId)).status).toBe('cancelled');
    expect(existsSync(join(database.dataDir, 'jobs', jobId))).toBe(false);
  }, 150_000);
});
