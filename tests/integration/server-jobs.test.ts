import { ProviderError } from '@reelsmith/pipeline';
import { recordVideoMade } from '@reelsmith/server/testing';
import {
  API_KEY_HEADER,
  MESSAGES,
  SERVICE_UNAVAILABLE_MESSAGES,
  VALIDATION_MESSAGES,
  videoJobSchema,
  type JobProgressEvent,
} from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { STORAGE_TIER_DESCRIPTION } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  FAKE_VIDEO_BYTES,
  FakePipeline,
  jobStatus,
  providerError,
  STOCK_CREDIT,
  registerUser,
  subscribe,
  videoBody,
  waitFor,
  waitForStatus,
  type TestUser,
} from './server-jobs-fakes.js';

describe.each(TEST_DIALECTS)('video jobs on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;
  const pipeline = new FakePipeline();
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.close();
    await database?.cleanup();
  });

  const submit = (user: TestUser, body: Record<string, unknown>, headers: Record<string, string> = bearer(user)) =>
    app.inject({ method: 'POST', url: '/api/videos/generate', headers, payload: body });

  async function submitted(user: TestUser, topic: string, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await submit(user, videoBody(topic, extra));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { jobId: string; status: string; message: string };
    expect(body.status).toBe('queued');
    return body.jobId;
  }

  async function subscribedUser(label = 'creator'): Promise<TestUser> {
    const user = await registerUser(app, label);
    await subscribe(app, user.id, 'pro_plan');
    return user;
  }

  function connect(auth: Record<string, string>): Socket {
    const socket = connectSocket(baseUrl, { path: '/socket.io/', transports: ['websocket'], auth, reconnection: false, forceNew: true });
    sockets.push(socket);
    return socket;
  }

  function connected(auth: Record<string, string>): Promise<Socket> {
    const socket = connect(auth);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  function connectError(auth: Record<string, string>): Promise<string> {
    const socket = connect(auth);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('connected although it should not')));
      socket.once('connect_error', (error) => resolve(error.message));
    });
  }

  const subscribeTo = (socket: Socket, jobId: unknown) =>
    socket.timeout(5000).emitWithAck('subscribe', jobId) as Promise<{ ok: boolean; error?: string }>;

  it('runs on the dialect under test', () => {
    expect(app.dbDialect).toBe(dialect);
  });

  describe('submitting', () => {
    it.each([
      [{ style: 'educational', language: 'en', duration: 30, voice: 'v' }, 'topic', VALIDATION_MESSAGES.topicRequired],
      [videoBody('   '), 'topic', VALIDATION_MESSAGES.topicRequired],
      [videoBody('Tides', { duration: 45 }), 'duration', undefined],
      [videoBody('Tides', { voice: '' }), 'voice', VALIDATION_MESSAGES.voiceRequiredOnSubmit],
      [videoBody('Tides', { language: 'xx' }), 'language', undefined],
      [videoBody('Tides', { resolution: '4:3' }), 'resolution', undefined],
      [videoBody('x'.repeat(501)), 'topic', undefined],
      [{ topic: 'Tides', style: 'educational', duration: 30, voice: 'v' }, 'language', VALIDATION_MESSAGES.languageRequired],
      [videoBody('Tides', { language: '' }), 'language', VALIDATION_MESSAGES.languageRequired],
      [{ topic: 'Tides', style: 'educational', language: 'en', voice: 'v' }, 'duration', VALIDATION_MESSAGES.durationRequired],
      [{ topic: 'Tides', language: 'en', duration: 30, voice: 'v' }, 'style', VALIDATION_MESSAGES.styleRequired],
      [videoBody('Tides', { style: 'custom' }), 'customStyle', VALIDATION_MESSAGES.customStyleRequired],
      [videoBody('Tides', { style: 'custom', customStyle: '   ' }), 'customStyle', VALIDATION_MESSAGES.customStyleRequired],
    ])('refuses a bad body %#', async (body, field, message) => {
      const user = await registerUser(app);
      const response = await submit(user, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe(field);
      if (message) expect(response.json().message).toBe(message);
    });

    it('requires sign-in', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/videos/generate', payload: videoBody('Tides') });
      expect(response.statusCode).toBe(401);
      const badKey = await app.inject({
        method: 'POST',
        url: '/api/videos/generate',
        headers: { [API_KEY_HEADER]: 'nope' },
        payload: videoBody('Tides'),
      });
      expect(badKey.statusCode).toBe(401);
    });

    it('gives a new account one free video of at most 30 s, then asks for a plan', async () => {
      const user = await registerUser(app);
      const tooLong = await submit(user, videoBody('Volcanoes', { duration: 60 }));
      expect(tooLong.statusCode).toBe(403);
      expect(tooLong.json().message).toBe(VALIDATION_MESSAGES.freeVideoTooLong);

      const jobId = await submitted(user, 'Volcanoes');
      const second = await submit(user, videoBody('Glaciers'));
      expect(second.statusCode).toBe(403);
      expect(second.json().message).toBe(MESSAGES.subscriptionRequired);
      await waitForStatus(app, user, jobId, 'completed');
    });

    it('accepts an API key and stores the defaults and the current voice provider', async () => {
      const user = await registerUser(app);
      const response = await submit(user, videoBody('Deep sea vents'), { [API_KEY_HEADER]: user.apiKey });
      expect(response.statusCode).toBe(200);
      const { jobId } = response.json() as { jobId: string };
      const job = videoJobSchema.parse(await jobStatus(app, user, jobId));
      expect(job.params).toMatchObject({
        topic: 'Deep sea vents',
        visualStyle: 'cinematic',
        resolution: '9:16',
        enableZoom: true,
        zoomDirection: 'in',
        enableCaptions: false,
        captionStyle: 'tiktok',
        voiceProvider: 'offline',
      });
      await waitForStatus(app, user, jobId, 'completed');
    });

    it('narrates a style sent as "custom" in the customStyle text beside it', async () => {
      const user = await registerUser(app);
      const response = await submit(user, videoBody('Harbour lights', { style: 'custom', customStyle: '  noir detective ' }));
      expect(response.statusCode, response.body).toBe(200);
      const { jobId } = response.json() as { jobId: string };
      const job = videoJobSchema.parse(await jobStatus(app, user, jobId));
      expect(job.params.style).toBe('noir detective');
      expect(job.params).not.toHaveProperty('customStyle');
      await waitForStatus(app, user, jobId, 'completed');
    });

    it('never lets 10 simultaneous submits at the limit create more jobs than allowed', async () => {
      const user = await registerUser(app);
      await subscribe(app, user.id, 'essentials_plan'); // 10 videos a month
      const now = new Date().toISOString();
      const earlier = Array.from({ length: 7 }, () => ({
        id: randomUUID(),
        user_id: user.id,
        status: 'completed' as const,
        params: JSON.stringify(videoBody('earlier')),
        steps: '{}',
        created_at: now,
        updated_at: now,
      }));
      await app.db.insertInto('video_jobs').values(earlier).execute();
      for (const job of earlier) await recordVideoMade(app.db, { jobId: job.id, userId: user.id, createdAt: now });
      const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => submit(user, videoBody(`burst ${index}`))));
      const accepted = responses.filter((response) => response.statusCode === 200);
      const refused = responses.filter((response) => response.statusCode === 403);
      expect(accepted).toHaveLength(3);
      expect(refused).toHaveLength(7);
      for (const response of refused) expect(response.json().message).toBe(MESSAGES.videoLimitReached(10));
      const count = await app.db
        .selectFrom('video_jobs')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(10);
    });

    it('lets only one of 10 simultaneous free submits through', async () => {
      const user = await registerUser(app);
      const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => submit(user, videoBody(`free burst ${index}`))));
      expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
      expect(responses.filter((response) => response.statusCode === 403)).toHaveLength(9);
    });
  });

  describe('a job end to end', () => {
    it("keeps the stock photographers' credits with the finished video, and the music choice with its params", async () => {
      const user = await subscribedUser();
      const jobId = await submitted(user, 'Octopus stock photos', { music: 'calm' });
      const job = await waitForStatus(app, user, jobId, 'completed');
      expect(job.result?.credits).toEqual([STOCK_CREDIT]);
      expect(job.params.music).toBe('calm');
      const listed = (await app.inject({ method: 'GET', url: '/api/videos', headers: { [API_KEY_HEADER]: user.apiKey } }))
        .json()
        .jobs.find((row: { id: string }) => row.id === jobId);
      expect(listed.result.credits).toEqual([STOCK_CREDIT]);
    });

    it('runs, reports steps and publishes the video under an unguessable /output URL', async () => {
      const user = await subscribedUser();
      const jobId = await submitted(user, 'Octopus hearts', { resolution: '16:9' });
      const job = await waitForStatus(app, user, jobId, 'completed');
      expect(job.progress).toBe(100);
      expect(Object.values(job.steps).every((step) => step.status === 'completed')).toBe(true);
      const result = job.result!;
      expect(result.videoUrl).toMatch(/^\/output\/[0-9a-f]{32}\/the-story-of-octopus-hearts\.mp4$/);
      expect(result.posterUrl).toMatch(/^\/output\/[0-9a-f]{32}\/the-story-of-octopus-hearts\.jpg$/);
      expect(result).toMatchObject({
        filename: 'the-story-of-octopus-hearts.mp4',
        title: 'The Story of Octopus hearts',
        width: 1920,
        height: 1080,
        sizeBytes: FAKE_VIDEO_BYTES,
      });

      const details = await app.inject({ method: 'GET', url: `/api/videos/${jobId}`, headers: { [API_KEY_HEADER]: user.apiKey } });
      expect(details.statusCode).toBe(200);
      expect(details.json().result).toEqual(result);
      expect(details.json().job.id).toBe(jobId);

      const video = await app.inject({ method: 'GET', url: result.videoUrl });
      expect(video.statusCode).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      expect(video.rawPayload.length).toBe(FAKE_VIDEO_BYTES);
      expect(video.headers['content-disposition']).toBeUndefined();
      const range = await app.inject({ method: 'GET', url: result.videoUrl, headers: { range: 'bytes=100-199' } });
      expect(range.statusCode).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 100-199/${FAKE_VIDEO_BYTES}`);
      expect(range.rawPayload.length).toBe(100);
      const download = await app.inject({ method: 'GET', url: `${result.videoUrl}?download=1` });
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="the-story-of-octopus-hearts-${jobId}.mp4"; filename*=UTF-8''The%20Story%20of%20Octopus%20hearts.mp4`,
      );
      // An unparseable Range is ignored (the whole file, 200); one past the end is 416 naming the size.
      const badRange = await app.inject({ method: 'GET', url: result.videoUrl, headers: { range: 'bytes=abc' } });
      expect(badRange.statusCode).toBe(200);
      expect(badRange.rawPayload.length).toBe(FAKE_VIDEO_BYTES);
      const pastEnd = await app.inject({ method: 'GET', url: result.videoUrl, headers: { range: `bytes=${FAKE_VIDEO_BYTES}-` } });
      expect(pastEnd.statusCode).toBe(416);
      expect(pastEnd.headers['content-range']).toBe(`bytes */${FAKE_VIDEO_BYTES}`);
      const poster = await app.inject({ method: 'GET', url: result.posterUrl! });
      expect(poster.statusCode).toBe(200);
      expect(poster.headers['content-type']).toBe('image/jpeg');

      const token = result.videoUrl.split('/')[2]!;
      for (const url of [
        `/output/${token}/`,
        `/output/${token}`,
        '/output/',
        `/output/${'0'.repeat(32)}/the-story-of-octopus-hearts.mp4`,
      ]) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
      }
      // The workspace of a finished job goes (just after the row is final); only the published files remain.
      await waitFor(async () => !existsSync(join(database.dataDir, 'jobs', jobId)), 'the workspace to be removed');
      expect(existsSync(join(database.dataDir, 'output', token, 'the-story-of-octopus-hearts.mp4'))).toBe(true);
    });

    it('stores a provider failure as a message the user can act on', async () => {
      const user = await subscribedUser();
      pipeline.failWith('Forbidden topic', providerError('The image service refused this prompt. Try rewording the topic.'));
      const jobId = await submitted(user, 'Forbidden topic');
      const job = await waitForStatus(app, user, jobId, 'failed');
      expect(job.error).toBe('The image service refused this prompt. Try rewording the topic.');
      expect(job.steps.voice?.status).toBe('failed');
      expect(job.result).toBeNull();
      // The workspace stays for Retry, which resumes from its checkpoints.
      expect(existsSync(join(database.dataDir, 'jobs', jobId))).toBe(true);
    });

    it('tells the creator the narration is unavailable when the voice service cannot be reached', async () => {
      const user = await subscribedUser();
      pipeline.failWith(
        'Unreachable voice',
        new ProviderError('Could not reach the voice service; check the service address and the network', 'elevenlabs', true),
      );
      const jobId = await submitted(user, 'Unreachable voice');
      const job = await waitForStatus(app, user, jobId, 'failed');
      expect(job.error).toBe(SERVICE_UNAVAILABLE_MESSAGES.other);
      expect(job.error).not.toContain('service address');
    });

    it('retries a failed job from its checkpoints, same id, without spending another video', async () => {
      const user = await registerUser(app, 'retrier');
      await subscribe(app, user.id, 'essentials_plan');
      pipeline.failWith('Retry me', providerError('The voice service is unavailable right now (HTTP 503)'));
      const jobId = await submitted(user, 'Retry me');
      await waitForStatus(app, user, jobId, 'failed');
      expect(pipeline.runsOf('Retry me')[0]?.stepsRun).toEqual(['setup', 'story', 'voice']);
      const usageBefore = (await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(user) })).json().usage
        .videosThisMonth;

      pipeline.recover('Retry me');
      const retried = await app.inject({ method: 'POST', url: `/api/videos/${jobId}/retry`, headers: bearer(user) });
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ jobId, status: 'queued' });
      const job = await waitForStatus(app, user, jobId, 'completed');
      expect(job.error).toBeNull();
      // Setup and story were checkpointed by the failed run and are not run again.
      expect(pipeline.runsOf('Retry me')[1]?.stepsRun).toEqual(['voice', 'images', 'video']);
      const list = (await app.inject({ method: 'GET', url: '/api/videos', headers: bearer(user) })).json().jobs as Array<{ id: string }>;
      expect(list.filter((row) => row.id === jobId)).toHaveLength(1);
      const usageAfter = (await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(user) })).json().usage
        .videosThisMonth;
      expect(usageAfter).toBe(usageBefore + 1);

      const again = await app.inject({ method: 'POST', url: `/api/videos/${jobId}/retry`, headers: bearer(user) });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('Only a failed video can be retried.');
      const stranger = await registerUser(app, 'stranger');
      const foreign = await app.inject({ method: 'POST', url: `/api/videos/${jobId}/retry`, headers: bearer(stranger) });
      expect(foreign.statusCode).toBe(404);
    });

    it('never shows an internal error or a stack', async () => {
      const user = await subscribedUser();
      pipeline.failWith(
        'Broken disk',
        new Error('EIO: i/o error, open /srv/data/jobs/x/voice.wav\n    at Object.openSync (node:fs:573:3)'),
      );
      const jobId = await submitted(user, 'Broken disk');
      const job = await waitForStatus(app, user, jobId, 'failed');
      expect(job.error).toBe(MESSAGES.generationUnexpectedError);
    });
  });

  describe('reading jobs', () => {
    it("lists only the caller's jobs, newest first, up to the limit", async () => {
      const user = await subscribedUser();
      const other = await subscribedUser('other');
      const first = await submitted(user, 'List one');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await submitted(user, 'List two');
      const foreign = await submitted(other, 'Not yours');
      const list = await app.inject({ method: 'GET', url: '/api/videos?limit=100', headers: bearer(user) });
      expect(list.statusCode).toBe(200);
      const ids = (list.json().jobs as { id: string }[]).map((job) => job.id);
      expect(ids).toEqual([second, first]);
      expect(ids).not.toContain(foreign);
      const limited = await app.inject({ method: 'GET', url: '/api/videos?limit=1', headers: bearer(user) });
      expect((limited.json().jobs as { id: string }[]).map((job) => job.id)).toEqual([second]);
      for (const limit of ['0', '101', 'many']) {
        const bad = await app.inject({ method: 'GET', url: `/api/videos?limit=${limit}`, headers: bearer(user) });
        expect(bad.statusCode).toBe(400);
      }
      const unauthenticated = await app.inject({ method: 'GET', url: '/api/videos' });
      expect(unauthenticated.statusCode).toBe(401);
    });

    it("answers 404, never 403, for another user's job", async () => {
      const owner = await subscribedUser('owner');
      const intruder = await subscribedUser('intruder');
      const gate = pipeline.blockAt('Private job', 'story');
      const jobId = await submitted(owner, 'Private job');
      await gate.reached;
      for (const [method, url] of [
        ['GET', `/api/videos/${jobId}/status`],
        ['GET', `/api/videos/${jobId}`],
        ['DELETE', `/api/videos/${jobId}`],
        ['GET', `/api/videos/${randomUUID()}`],
      ] as const) {
        const response = await app.inject({ method, url, headers: bearer(intruder) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().message).toBe(MESSAGES.notFound);
      }
      expect((await jobStatus(app, owner, jobId)).status).toBe('processing');
      gate.release();
      await waitForStatus(app, owner, jobId, 'completed');
    });

    it("reports queue status and the caller's storage", async () => {
      const user = await subscribedUser();
      const jobId = await submitted(user, 'Storage check');
      await waitForStatus(app, user, jobId, 'completed');
      const queue = await app.inject({ method: 'GET', url: '/api/queue/status', headers: bearer(user) });
      expect(queue.statusCode).toBe(200);
      expect(queue.json()).toMatchObject({ running: true, concurrency: 1, backend: 'embedded' });
      expect(queue.json().jobs.completed).toBeGreaterThan(0);
      const storage = await app.inject({ method: 'GET', url: '/api/storage/stats', headers: bearer(user) });
      expect(storage.json()).toEqual({
        totalVideos: 1,
        totalBytes: FAKE_VIDEO_BYTES + 2048,
        uploadBytes: 0,
        tierConfig: { description: STORAGE_TIER_DESCRIPTION },
      });
      const fresh = await registerUser(app);
      const empty = await app.inject({ method: 'GET', url: '/api/storage/stats', headers: bearer(fresh) });
      expect(empty.json().totalVideos).toBe(0);
      expect((await app.inject({ method: 'GET', url: '/api/storage/stats' })).statusCode).toBe(401);
    });

    it('keeps GET /auth/usage counting jobs', async () => {
      const user = await subscribedUser();
      const jobId = await submitted(user, 'Usage');
      await waitForStatus(app, user, jobId, 'completed');
      const usage = await app.inject({ method: 'GET', url: '/auth/usage', headers: bearer(user) });
      expect(usage.statusCode).toBe(200);
      expect(usage.json()).toMatchObject({ videosThisMonth: 1, videosTotal: 1, activeJobs: 0 });
    });
  });

  describe('cancelling and deleting', () => {
    it('cancels a running job, aborts its run and frees the quota', async () => {
      const user = await registerUser(app); // free: one video
      const gate = pipeline.blockAt('Cancel me', 'images');
      const jobId = await submitted(user, 'Cancel me');
      await gate.reached;
      const run = pipeline.runsOf('Cancel me')[0]!;
      expect(existsSync(run.workspaceDir)).toBe(true);

      const response = await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, status: 'cancelled', message: MESSAGES.jobCancelled });
      expect(run.signal.aborted).toBe(true);
      const job = await jobStatus(app, user, jobId);
      expect(job.status).toBe('cancelled');
      expect(existsSync(run.workspaceDir)).toBe(false);
      // Cancelled jobs do not use up the free video.
      const again = await submitted(user, 'After cancel');
      await waitForStatus(app, user, again, 'completed');
      expect((await jobStatus(app, user, jobId)).status).toBe('cancelled');
    });

    it('cancels a queued job before it starts', async () => {
      const user = await subscribedUser();
      const gate = pipeline.blockAt('Hold the queue', 'setup');
      const holder = await submitted(user, 'Hold the queue');
      await gate.reached;
      const queued = await submitted(user, 'Never runs');
      const response = await app.inject({ method: 'DELETE', url: `/api/videos/${queued}`, headers: { [API_KEY_HEADER]: user.apiKey } });
      expect(response.json().status).toBe('cancelled');
      gate.release();
      await waitForStatus(app, user, holder, 'completed');
      expect(pipeline.runsOf('Never runs')).toHaveLength(0);
      expect((await jobStatus(app, user, queued)).status).toBe('cancelled');
    });

    it('deletes a finished job and its files', async () => {
      const user = await subscribedUser();
      const jobId = await submitted(user, 'Delete me');
      const job = await waitForStatus(app, user, jobId, 'completed');
      expect((await app.inject({ method: 'GET', url: job.result!.videoUrl })).statusCode).toBe(200);
      const response = await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) });
      expect(response.json()).toMatchObject({ success: true, status: 'deleted' });
      expect((await app.inject({ method: 'GET', url: job.result!.videoUrl })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: `/api/videos/${jobId}`, headers: bearer(user) })).statusCode).toBe(404);
      expect((await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(user) })).statusCode).toBe(404);
    });

    it('keeps a deleted video counted: the free video and the plan month are not given back', async () => {
      const free = await registerUser(app, 'free');
      const jobId = await submitted(free, 'Free then deleted');
      await waitForStatus(app, free, jobId, 'completed');
      const canGenerate = async (user: TestUser) =>
        (await app.inject({ method: 'GET', url: '/payments/can-generate', headers: bearer(user) })).json().canGenerate as boolean;
      expect(await canGenerate(free)).toBe(false);
      expect((await app.inject({ method: 'DELETE', url: `/api/videos/${jobId}`, headers: bearer(free) })).json().status).toBe('deleted');
      expect(await canGenerate(free)).toBe(false);
      expect((await submit(free, videoBody('Second free try'))).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/auth/usage', headers: bearer(free) })).json()).toMatchObject({
        videosThisMonth: 1,
        videosTotal: 1,
      });

      const subscriber = await subscribedUser();
      const made = await submitted(subscriber, 'Plan video then deleted');
      await waitForStatus(app, subscriber, made, 'completed');
      await app.inject({ method: 'DELETE', url: `/api/videos/${made}`, headers: bearer(subscriber) });
      const usage = (await app.inject({ method: 'GET', url: '/auth/usage', headers: bearer(subscriber) })).json();
      const subscription = (await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(subscriber) })).json();
      expect(usage.videosThisMonth).toBe(1);
      expect(subscription.usage.videosThisMonth).toBe(1);
    });
  });

  describe('queue fairness', () => {
    it('starts the next job round-robin across users', async () => {
      const busy = await subscribedUser('busy');
      const patient = await subscribedUser('patient');
      const gate = pipeline.blockAt('busy 1', 'setup');
      await submitted(busy, 'busy 1');
      await gate.reached;
      const busyJobs = [await submitted(busy, 'busy 2'), await submitted(busy, 'busy 3')];
      const patientJob = await submitted(patient, 'patient 1');
      gate.release();
      await waitForStatus(app, busy, busyJobs[1]!, 'completed');
      await waitForStatus(app, patient, patientJob, 'completed');
      const order = pipeline.runs.map((run) => run.topic).filter((topic) => /^(busy|patient) \d$/.test(topic));
      expect(order).toEqual(['busy 1', 'patient 1', 'busy 2', 'busy 3']);
    });
  });

  describe('live connection', () => {
    it('refuses a handshake without valid credentials', async () => {
      expect(await connectError({})).toBe(MESSAGES.authRequired);
      expect(await connectError({ token: 'not-a-token' })).toBe(MESSAGES.sessionExpired);
      expect(await connectError({ apiKey: 'rs_wrong' })).toBe('Invalid API key');
      const user = await registerUser(app);
      const logout = await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(user) });
      expect(logout.statusCode).toBe(200);
      expect(await connectError({ token: user.token })).toBe(MESSAGES.sessionExpired);
    });

    it("streams a job's progress, never decreasing, to its owner only", async () => {
      const owner = await subscribedUser('owner');
      const intruder = await subscribedUser('intruder');
      const gate = pipeline.blockAt('Live job', 'setup');
      const jobId = await submitted(owner, 'Live job');
      await gate.reached;

      const ownerSocket = await connected({ token: owner.token });
      const keySocket = await connected({ apiKey: owner.apiKey });
      const intruderSocket = await connected({ token: intruder.token });
      expect(await subscribeTo(ownerSocket, jobId)).toEqual({ ok: true });
      expect(await subscribeTo(intruderSocket, jobId)).toEqual({ ok: false, error: 'Not found' });
      expect(await subscribeTo(intruderSocket, randomUUID())).toEqual({ ok: false, error: 'Not found' });
      expect(await subscribeTo(intruderSocket, 42)).toEqual({ ok: false, error: 'Not found' });

      const ownerEvents: JobProgressEvent[] = [];
      const keyEvents: JobProgressEvent[] = [];
      const intruderEvents: unknown[] = [];
      ownerSocket.on('job_progress', (event: JobProgressEvent) => ownerEvents.push(event));
      keySocket.on('job_progress', (event: JobProgressEvent) => keyEvents.push(event));
      for (const name of ['job_progress', 'job_completed', 'job_failed'])
        intruderSocket.on(name, (event: unknown) => intruderEvents.push(event));
      const completed = new Promise<{ jobId: string; result: { videoUrl: string } }>((resolve) =>
        ownerSocket.once('job_completed', resolve),
      );
      const completedByUserRoom = new Promise<{ jobId: string }>((resolve) => keySocket.once('job_completed', resolve));

      gate.release();
      const done = await completed;
      expect(done.jobId).toBe(jobId);
      expect(done.result.videoUrl).toMatch(/^\/output\//);
      expect((await completedByUserRoom).jobId).toBe(jobId);

      // The fake reported a lower value mid-run; what clients saw still only grew.
      expect(pipeline.runsOf('Live job')[0]!.reported.some((value, index, all) => index > 0 && value < all[index - 1]!)).toBe(true);
      const seen = ownerEvents.filter((event) => event.jobId === jobId).map((event) => event.progress);
      expect(seen.length).toBeGreaterThan(5);
      for (let index = 1; index < seen.length; index += 1) expect(seen[index]).toBeGreaterThanOrEqual(seen[index - 1]!);
      expect(ownerEvents.at(-1)).toMatchObject({ jobId, progress: 100, status: 'completed' });
      expect(ownerEvents.map((event) => event.step)).toContain('images');
      // Subscribed (job room) and user room at once: each event arrives once.
      expect(new Set(ownerEvents.map((event) => `${event.step}:${event.stepProgress}:${event.progress}:${event.status}`)).size).toBe(
        ownerEvents.length,
      );
      expect(keyEvents.filter((event) => event.jobId === jobId).length).toBe(seen.length);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(intruderEvents).toEqual([]);
    });

    it('tells the owner when a job fails or is cancelled', async () => {
      const user = await subscribedUser();
      const socket = await connected({ token: user.token });
      const failed = new Promise<{ jobId: string; error: string }>((resolve) => socket.once('job_failed', resolve));
      pipeline.failWith('Live failure', providerError('The voice service is over its quota. Try again in an hour.'));
      const failingJob = await submitted(user, 'Live failure');
      expect(await failed).toEqual({ jobId: failingJob, version: 1, error: 'The voice service is over its quota. Try again in an hour.' });

      const gate = pipeline.blockAt('Live cancel', 'voice');
      const cancelledJob = await submitted(user, 'Live cancel');
      await gate.reached;
      const cancelled = new Promise<JobProgressEvent>((resolve) =>
        socket.on('job_progress', (event: JobProgressEvent) => event.status === 'cancelled' && resolve(event)),
      );
      // Events announce stored transitions: the cancel tells the step the row had reached.
      await waitFor(
        async () =>
          (await app.inject({ method: 'GET', url: `/api/videos/${cancelledJob}/status`, headers: bearer(user) })).json().currentStep ===
          'voice',
        'the voice step to be stored',
      );
      await app.inject({ method: 'DELETE', url: `/api/videos/${cancelledJob}`, headers: bearer(user) });
      expect(await cancelled).toMatchObject({ jobId: cancelledJob, status: 'cancelled', step: 'voice' });
    });

    it('counts connections and subscriptions for admins only', async () => {
      const admin = await registerUser(app, 'admin');
      await app.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
      const user = await subscribedUser();
      const gate = pipeline.blockAt('Stats job', 'setup');
      const jobId = await submitted(user, 'Stats job');
      await gate.reached;
      const socket = await connected({ token: user.token });
      expect(await subscribeTo(socket, jobId)).toEqual({ ok: true });
      const stats = await app.inject({ method: 'GET', url: '/api/websocket/stats', headers: bearer(admin) });
      expect(stats.statusCode).toBe(200);
      expect(stats.json().connectedClients).toBeGreaterThanOrEqual(1);
      expect(stats.json().subscriptions).toBeGreaterThanOrEqual(1);
      const forbidden = await app.inject({ method: 'GET', url: '/api/websocket/stats', headers: bearer(user) });
      expect(forbidden.statusCode).toBe(403);
      gate.release();
      await waitForStatus(app, user, jobId, 'completed');
    });

    it('disconnects a socket at once when its session logs out, so no further job event reaches it', async () => {
      const user = await subscribedUser();
      const jobId = await submitted(user, 'Revoked');
      const socket = await connected({ token: user.token });
      expect(await subscribeTo(socket, jobId)).toEqual({ ok: true });
      const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
      await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(user) });
      expect(await disconnected).toBe('io server disconnect');
      await expect(connected({ token: user.token })).rejects.toThrow(MESSAGES.sessionExpired);
    });
  });
});

describe('queue concurrency', () => {
  let database: TestDatabase;
  let app: App;
  const pipeline = new FakePipeline();

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ QUEUE_CONCURRENCY: '2' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('runs QUEUE_CONCURRENCY jobs at once and no more', async () => {
    const user = await registerUser(app);
    await subscribe(app, user.id, 'pro_plan');
    const gates = ['one', 'two', 'three'].map((topic) => pipeline.blockAt(topic, 'story'));
    const ids: string[] = [];
    for (const topic of ['one', 'two', 'three']) {
      const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody(topic) });
      ids.push((response.json() as { jobId: string }).jobId);
    }
    await Promise.all([gates[0]!.reached, gates[1]!.reached]);
    const status = await app.inject({ method: 'GET', url: '/api/queue/status', headers: bearer(user) });
    expect(status.json()).toMatchObject({ concurrency: 2, processing: 2, pending: 1 });
    expect(pipeline.runsOf('three')).toHaveLength(0);
    gates[0]!.release();
    await gates[2]!.reached;
    gates[1]!.release();
    gates[2]!.release();
    for (const id of ids) await waitForStatus(app, user, id, 'completed');
  });
});
