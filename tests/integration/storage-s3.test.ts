import { buildApp, type App } from '@reelsmith/server/testing';
import { VIDEO_QUEUE_NAME } from '@reelsmith/server/testing';
import { STORAGE_WRITE_FAILED_MESSAGE } from '@reelsmith/server/testing';
import { S3Storage } from '@reelsmith/server/testing';
import type { PutOptions } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { UploadFiles } from '@reelsmith/server/testing';
import { StorageMissingError } from '@reelsmith/server/testing';
import { resolveFfmpegBinaries } from '@reelsmith/pipeline';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Queue } from 'bullmq';
import type { VoiceProvider } from '@reelsmith/pipeline';
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorker, type TestWorker } from './bullmq-test-worker.js';
import { startS3TestServer, type S3TestServer } from './s3-test-server.js';
import {
  bearer,
  FAKE_VIDEO_BYTES,
  FakePipeline,
  registerUser,
  subscribe,
  videoBody,
  waitFor,
  waitForStatus,
  type TestUser,
} from './server-jobs-fakes.js';

/**
 * Finished videos in an S3-compatible bucket (a real s3rver in this process), in both queue modes:
 * embedded (the API process renders and uploads) and BullMQ (a worker with its own database pool and
 * storage client uploads; the API process, which never saw the file, serves it).
 */
const redisUrl = process.env.TEST_REDIS_URL;

/** An S3Storage whose uploads can be held at a gate, to cancel a job in the middle of one. */
class GatedS3Storage extends S3Storage {
  gate: { reached: () => void; released: Promise<void> } | null = null;

  override async put(key: string, file: string, options?: PutOptions): Promise<{ sizeBytes: number }> {
    const gate = this.gate;
    if (gate) {
      gate.reached();
      // A real upload stops when the job's signal aborts; so does the wait here.
      await new Promise<void>((resolve) => {
        void gate.released.then(resolve);
        options?.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return super.put(key, file, options);
  }
}

function storageFor(s3: S3TestServer, bucket = s3.bucket): GatedS3Storage {
  return new GatedS3Storage({
    bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    proxy: false,
  });
}

interface Mode {
  name: string;
  dialect: 'sqlite' | 'postgres';
  skip: boolean;
}

const MODES: Mode[] = [
  { name: 'embedded queue', dialect: 'sqlite', skip: false },
  { name: 'BullMQ: a worker uploads, the API serves', dialect: 'postgres', skip: !redisUrl },
];

describe.each(MODES)('videos in S3 ($name)', ({ name, dialect, skip }) => {
  const bullmq = name.startsWith('BullMQ');
  const prefix = `reelsmith-s3-test-${randomBytes(4).toString('hex')}`;
  const pipeline = new FakePipeline();
  let s3: S3TestServer;
  let database: TestDatabase;
  let app: App;
  let inspector: S3Storage;
  /** The storage the process that renders uploads with. */
  let renderStorage: GatedS3Storage;
  let worker: TestWorker | null = null;
  let user: TestUser;

  const env = (): Record<string, string> => ({
    ...s3.env,
    ...(bullmq ? { QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix } : {}),
  });

  async function submit(topic: string): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody(topic) });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { jobId: string }).jobId;
  }

  beforeAll(async () => {
    if (skip) return;
    s3 = await startS3TestServer();
    inspector = storageFor(s3);
    database = await createTestDatabase(dialect);
    if (bullmq) {
      app = await buildApp(database.config(env()), {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
      });
      await app.ready();
      renderStorage = storageFor(s3);
      worker = await startTestWorker(database.config(env()), {
        runner: pipeline.runner,
        providersFor: pipeline.providersFor,
        storage: renderStorage,
      });
    } else {
      renderStorage = storageFor(s3);
      app = await buildApp(database.config(env()), {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
        storage: { storage: renderStorage },
      });
      await app.ready();
    }
    user = await registerUser(app, 's3');
    await subscribe(app, user.id, 'pro_plan');
  }, 60_000);

  afterAll(async () => {
    if (skip) return;
    await worker?.stop();
    await app?.close();
    if (bullmq) {
      const queue = new Queue(VIDEO_QUEUE_NAME, { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
    await database?.cleanup();
    await s3?.stop();
  });

  it.skipIf(skip)(
    'uploads the finished video and poster, serves them through a presigned redirect with Range, and deletes them',
    async () => {
      const jobId = await submit('Tides');
      const job = await waitForStatus(app, user, jobId, 'completed', 30_000);
      const videoUrl = job.result!.videoUrl;
      const token = videoUrl.split('/')[2]!;
      expect(await inspector.list(`output/${token}/`)).toEqual([
        `output/${token}/the-story-of-tides.jpg`,
        `output/${token}/the-story-of-tides.mp4`,
      ]);
      // Nothing was written under DATA_DIR/output: the bucket is the only copy.
      expect(app.storage.kind).toBe('s3');

      const redirect = await app.inject({ method: 'GET', url: videoUrl });
      expect(redirect.statusCode).toBe(302);
      const location = redirect.headers.location as string;
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/output/${token}/the-story-of-tides.mp4?`)).toBe(true);
      expect(location).toContain('X-Amz-Expires=300');

      // What a <video> element does: follow the redirect with a Range header.
      const partial = await fetch(location, { headers: { range: 'bytes=100-199' } });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes 100-199/${FAKE_VIDEO_BYTES}`);
      expect((await partial.arrayBuffer()).byteLength).toBe(100);
      const whole = await fetch(location);
      expect(whole.status).toBe(200);
      expect((await whole.arrayBuffer()).byteLength).toBe(FAKE_VIDEO_BYTES);

      const download = await app.inject({ method: 'GET', url: `${videoUrl}?download=1` });
      expect(download.statusCode).toBe(302);
      const saved = await fetch(download.headers.location as string);
      expect(saved.headers.get('content-disposition')).toBe(
        `attachment; filename="the-story-of-tides-${jobId}.mp4"; filename*=UTF-8''The%20Story%20of%20Tides.mp4`,
      );

      const missing = await app.inject({ method: 'GET', url: `/output/${'0'.repeat(32)}/nothing.mp4` });
      expect(missing.statusCode).toBe(404);

      const deleted = await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) });
      expect(deleted.statusCode).toBe(200);
      expect(await inspector.list(`output/${token}/`)).toEqual([]);
      expect((await app.inject({ method: 'GET', url: videoUrl })).statusCode).toBe(404);
    },
    60_000,
  );

  it.skipIf(skip)(
    'streams with Range when S3_PROXY=true: a bad Range is ignored, an unsatisfiable one is 416 with bytes */size',
    async () => {
      const jobId = await submit('Proxy');
      const job = await waitForStatus(app, user, jobId, 'completed', 30_000);
      const proxied = await buildApp(database.config({ ...env(), S3_PROXY: 'true' }), {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
      });
      try {
        const url = job.result!.videoUrl;
        const part = await proxied.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } });
        expect(part.statusCode).toBe(206);
        expect(part.headers['content-range']).toBe(`bytes 0-9/${FAKE_VIDEO_BYTES}`);
        expect(part.rawPayload.length).toBe(10);
        const ignored = await proxied.inject({ method: 'GET', url, headers: { range: 'bytes=abc' } });
        expect(ignored.statusCode).toBe(200);
        expect(ignored.rawPayload.length).toBe(FAKE_VIDEO_BYTES);
        const unsatisfiable = await proxied.inject({ method: 'GET', url, headers: { range: `bytes=${FAKE_VIDEO_BYTES}-` } });
        expect(unsatisfiable.statusCode).toBe(416);
        expect(unsatisfiable.headers['content-range']).toBe(`bytes */${FAKE_VIDEO_BYTES}`);
        const notModified = await proxied.inject({ method: 'GET', url, headers: { 'if-none-match': String(part.headers.etag) } });
        expect(notModified.statusCode).toBe(304);
      } finally {
        await proxied.close();
      }
    },
    60_000,
  );

  it.skipIf(skip)(
    'a job cancelled in the middle of its upload leaves no objects in the bucket',
    async () => {
      const before = await inspector.list('output/');
      let reached!: () => void;
      const uploadStarted = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      renderStorage.gate = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
      const jobId = await submit('Cancelled');
      await Promise.race([
        uploadStarted,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the upload never started')), 20_000)),
      ]);
      const cancelled = await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) });
      expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
      renderStorage.gate = null;
      release();
      await waitFor(
        async () =>
          (await app.db.selectFrom('video_jobs').select('status').where('id', '=', jobId).executeTakeFirst())?.status === 'cancelled',
        'the cancel',
      );
      // Give the worker time to finish whatever it was doing with the upload.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await inspector.list('output/')).toEqual(before);
    },
    60_000,
  );

  it.skipIf(skip || bullmq)(
    'keeps voice samples in the bucket: generated, counted from a listing, served at the same URLs',
    async () => {
      const fakeVoice = {
        name: 'offline',
        async synthesize(request: { outputPath: string; voiceId: string }) {
          writeFileSync(request.outputPath, Buffer.from(`ID3 sample of ${request.voiceId}`));
          return { audioPath: request.outputPath, durationSeconds: 1, wordTimings: [] } as never;
        },
      } as unknown as VoiceProvider;
      const voiceApp = await buildApp(database.config(env()), {
        voices: { autoGenerateOfflineSamples: false, synthesizers: { offline: fakeVoice } },
        jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
        storage: { storage: storageFor(s3) },
      });
      try {
        const before = (await voiceApp.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json() as {
          available: number;
          total: number;
        };
        expect(before.available).toBe(0);
        expect(voiceApp.voiceSamples.generateMissing('offline').started).toBe(true);
        await voiceApp.voiceSamples.idle();
        const keys = await inspector.list('audio/voice-samples/');
        expect(keys.length).toBe(before.total);
        const after = (await voiceApp.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json() as { available: number };
        expect(after.available).toBe(before.total);
        // Nothing was written to the local samples folder.
        expect(readdirSync(join(database.dataDir, 'audio', 'voice-samples')).filter((name) => name.endsWith('.mp3'))).toEqual([]);
        const url = `/${keys[0]!}`;
        const served = await voiceApp.inject({ method: 'GET', url });
        expect(served.statusCode).toBe(302);
        const body = await (await fetch(served.headers.location as string)).text();
        expect(body).toContain('ID3 sample of');
        expect(
          (await voiceApp.inject({ method: 'GET', url: '/audio/voice-samples/../../secrets.json' })).statusCode,
        ).toBeGreaterThanOrEqual(400);
        // Another API process sees them from its own listing.
        const other = await buildApp(database.config(env()), {
          voices: { autoGenerateOfflineSamples: false },
          jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
        });
        expect(((await other.inject({ method: 'GET', url: '/api/voice-samples/stats' })).json() as { available: number }).available).toBe(
          before.total,
        );
        await other.close();
      } finally {
        await voiceApp.close();
      }
    },
    60_000,
  );

  it.skipIf(skip)(
    "keeps the creator's uploads in the bucket, and a render fetches its own copy",
    async () => {
      const picture = join(mkdtempSync(join(tmpdir(), 'reelsmith-s3-upload-')), 'teal.png');
      execFileSync(resolveFfmpegBinaries().ffmpegPath, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'color=c=teal:s=320x568',
        '-frames:v',
        '1',
        picture,
      ]);
      const boundary = '----reelsmiths3upload';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="teal.png"\r\nContent-Type: image/png\r\n\r\n`),
        readFileSync(picture),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { ...bearer(user), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(response.statusCode, response.body).toBe(200);
      const { id } = response.json() as { id: string };
      const row = await app.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const key = `uploads/${user.id}/${row.file_name}`;
      expect(await inspector.list(`uploads/${user.id}/`)).toEqual([key]);
      // The API process kept no copy: a worker on another machine reads the bucket.
      expect(existsSync(join(database.dataDir, 'uploads'))).toBe(false);

      const workerCopies = mkdtempSync(join(tmpdir(), 'reelsmith-s3-worker-'));
      const uploads = new UploadFiles(renderStorage);
      const copy = await uploads.copyFor(user.id, row.file_name, workerCopies);
      // Pictures are stored as the JPEG the upload check made of them.
      expect(readFileSync(copy).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(readFileSync(copy).length).toBe(Number(row.size_bytes));
      await expect(uploads.copyFor(user.id, 'no-such-upload.png', workerCopies)).rejects.toBeInstanceOf(StorageMissingError);
      expect(readdirSync(workerCopies)).toEqual([row.file_name]);
    },
    60_000,
  );

  it.skipIf(skip)(
    'an upload that keeps failing is retried, then fails the video step with a clear message',
    async () => {
      const previous = Object.getOwnPropertyDescriptor(renderStorage, 'bucket');
      Object.defineProperty(renderStorage, 'bucket', { value: 'no-such-bucket', configurable: true, writable: true });
      try {
        const jobId = await submit('Unreachable');
        const job = await waitForStatus(app, user, jobId, 'failed', 30_000);
        expect(job.error).toBe(STORAGE_WRITE_FAILED_MESSAGE);
        expect(job.steps.video.status).toBe('failed');
      } finally {
        if (previous) Object.defineProperty(renderStorage, 'bucket', previous);
      }
    },
    60_000,
  );
});
