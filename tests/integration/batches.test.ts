import {
  batchDetailSchema,
  batchErrorResponseSchema,
  batchWebhookEventSchema,
  cancelBatchResponseSchema,
  listBatchesResponseSchema,
  type BatchDetail,
  type GenerationParams,
} from '@reelsmith/contracts';
import type { GenerationOutput, GenerationRun } from '@reelsmith/pipeline';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorker, type TestWorker } from './bullmq-test-worker.js';
import { listenToBatchEvents } from './batch-event-socket.js';
import { bearer, FakePipeline, registerUser, subscribe, waitFor, type TestUser } from './server-jobs-fakes.js';

/**
 * Batches through HTTP: JSON and CSV batches run to completion with one job per row, invalid rows and
 * a batch beyond the plan are refused with nothing queued, a second creator's video is not starved by
 * a 30-row batch (embedded queue and BullMQ), and cancel stops the rest. The runs are the fake
 * pipeline's (the real one is `npm run bench:batch`'s), each held for JOB_MS so the queue's order is
 * what decides who runs when; sources (scripts, a link to a local page) go through the server's real
 * resolution.
 */
const JOB_MS = 120;
const redisUrl = process.env.TEST_REDIS_URL;

/** The fake pipeline, each run held JOB_MS, with the moment every job started. */
class TimedPipeline extends FakePipeline {
  readonly started = new Map<string, number>();
  readonly params = new Map<string, GenerationParams>();
  readonly timedRunner = async (run: GenerationRun): Promise<GenerationOutput> => {
    this.started.set(run.jobId, Date.now());
    this.params.set(run.jobId, run.params);
    await new Promise((resolve) => setTimeout(resolve, JOB_MS));
    return this.runner(run);
  };
}

const DEFAULTS = { style: 'educational', language: 'en', duration: 30, voice: 'en-male-1', resolution: '1:1', music: 'none' };

const SCRIPTS = {
  en: 'Honey never spoils. Archaeologists found pots of it in ancient tombs. It was still good to eat.',
  hi: 'शहद कभी खराब नहीं होता। पुरातत्वविदों को प्राचीन कब्रों में शहद मिला। वह अब भी खाने लायक था।',
  ja: '蜂蜜は腐りません。古代の墓から蜂蜜の壺が見つかりました。今でも食べられる状態でした。',
  es: 'La miel nunca se estropea. Los arqueólogos encontraron tarros en tumbas antiguas. Todavía se podía comer.',
  fr: 'Le miel ne se gâte jamais. Des archéologues en ont trouvé dans des tombes anciennes. Il était encore comestible.',
};

const ARTICLE_PARAGRAPH =
  'Octopuses have three hearts and blue blood. Two of the hearts pump blood through the gills, while the third sends it to the rest of the body. Their blood uses a copper-based protein called hemocyanin, which carries oxygen well in cold water with little oxygen.';

/** A local page the CSV's url row links to (SOURCE_ALLOW_PRIVATE=true lets the server fetch it). */
async function startPageServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><head><title>Octopus hearts</title></head><body><article><h1>Why octopuses have three hearts</h1>${Array.from(
          { length: 6 },
          () => `<p>${ARTICLE_PARAGRAPH}</p>`,
        ).join('')}</article></body></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/octopus` };
}

/** A local webhook receiver: every body it was sent. */
async function startReceiver(): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}

async function postBatch(app: App, user: TestUser, payload: object) {
  return app.inject({ method: 'POST', url: '/api/batches', headers: bearer(user), payload });
}

async function getBatch(app: App, user: TestUser, id: string): Promise<BatchDetail> {
  const response = await app.inject({ method: 'GET', url: `/api/batches/${id}`, headers: bearer(user) });
  expect(response.statusCode, response.body).toBe(200);
  return batchDetailSchema.parse(response.json());
}

function waitForBatch(app: App, user: TestUser, id: string, status: BatchDetail['status'], timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const batch = await getBatch(app, user, id);
      return batch.status === status ? batch : undefined;
    },
    `batch ${id} to be ${status}`,
    timeoutMs,
  );
}

async function jobCountOf(app: App, userId: string): Promise<number> {
  const row = await app.db
    .selectFrom('video_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * While `big` runs a 30-row batch, `small` submits one video: it must start within one job's time,
 * that is before more than `slots` further rows of the batch (one per free slot) have started.
 */
async function expectSingleVideoNotStarved(app: App, pipeline: TimedPipeline, big: TestUser, small: TestUser, slots: number) {
  const rows = Array.from({ length: 30 }, (_, index) => ({ topic: `Fair row ${index + 1} ${randomBytes(3).toString('hex')}` }));
  const created = await postBatch(app, big, { name: 'Thirty', defaults: DEFAULTS, rows });
  expect(created.statusCode, created.body).toBe(202);
  const batch = batchDetailSchema.parse(created.json());
  const batchJobs = new Set(batch.rows.map((row) => row.jobId));
  // The batch is under way (some rows have run) before the other creator asks.
  await waitFor(async () => [...batchJobs].filter((id) => pipeline.started.has(id)).length >= 3, 'three batch rows to start');

  const submittedAt = Date.now();
  const single = await app.inject({
    method: 'POST',
    url: '/api/videos/generate',
    headers: bearer(small),
    payload: { ...DEFAULTS, topic: 'A single video among a batch' },
  });
  expect(single.statusCode, single.body).toBe(200);
  const { jobId } = single.json() as { jobId: string };
  await waitFor(async () => pipeline.started.has(jobId), 'the single video to start', 20_000);
  const startedAt = pipeline.started.get(jobId)!;
  const rowsStartedMeanwhile = [...batchJobs].filter((id) => {
    const at = pipeline.started.get(id);
    return at !== undefined && at >= submittedAt && at < startedAt;
  }).length;
  // At most the rows that took the slots freed while the request was being handled.
  expect(rowsStartedMeanwhile).toBeLessThanOrEqual(slots);
  expect(startedAt - submittedAt).toBeLessThan(JOB_MS * (slots + 1) + 2_000);
  // And the batch still finishes, every row once.
  const done = await waitForBatch(app, big, batch.id, 'completed', 60_000);
  expect(done.counts).toMatchObject({ total: 30, completed: 30 });
}

describe.each(TEST_DIALECTS)('batches on the embedded queue, %s', (dialect) => {
  const pipeline = new TimedPipeline();
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    pages = await startPageServer();
    receiver = await startReceiver();
    database = await createTestDatabase(dialect);
    app = await buildApp(
      database.config({ RATE_LIMIT_AUTH_MAX: '1000', SOURCE_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', QUEUE_CONCURRENCY: '1' }),
      {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner: pipeline.timedRunner, providersFor: pipeline.providersFor, webhooks: { pollIntervalMs: 100 } },
      },
    );
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.close();
    await database?.cleanup();
    pages?.server.close();
    receiver?.server.close();
  });

  const listen = (user: TestUser) => listenToBatchEvents(baseUrl, user, sockets);

  it('runs a 20-row JSON batch to completion, one job per row, with live progress and the batch.completed webhook', async () => {
    const user = await registerUser(app, 'batch-json');
    await subscribe(app, user.id, 'pro_plan');
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(user),
      payload: { url: receiver.url, events: ['batch.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const live = await listen(user);

    const languages = ['en', 'hi', 'ja', 'es', 'fr'] as const;
    const rows = Array.from({ length: 20 }, (_, index) => {
      const language = languages[index % languages.length]!;
      // Every third row tells the creator's script (in the row's language), the rest write around a topic.
      return index % 3 === 0
        ? { language, source: { kind: 'script', text: SCRIPTS[language] } }
        : { topic: `Batch topic ${index + 1}`, language, ...(index % 4 === 1 ? { duration: 60, resolution: '16:9' } : {}) };
    });
    const response = await postBatch(app, user, { name: 'Daily posts', defaults: DEFAULTS, rows });
    expect(response.statusCode, response.body).toBe(202);
    const created = batchDetailSchema.parse(response.json());
    expect(created.name).toBe('Daily posts');
    expect(created.rows.map((row) => row.index)).toEqual(rows.map((_, index) => index));
    expect(new Set(created.rows.map((row) => row.jobId)).size).toBe(20);

    const done = await waitForBatch(app, user, created.id, 'completed');
    expect(done.counts).toEqual({ total: 20, queued: 0, processing: 0, completed: 20, failed: 0, cancelled: 0 });
    expect(done.percent).toBe(100);
    expect(done.completedAt).not.toBeNull();
    // Each row ran once, with its own options over the defaults.
    for (const [index, row] of done.rows.entries()) {
      const params = pipeline.params.get(row.jobId)!;
      const asked = rows[index]!;
      expect(params.language).toBe(asked.language);
      expect(params.duration).toBe('duration' in asked ? asked.duration : 30);
      expect(params.voice).toBe('en-male-1');
      if ('source' in asked) expect(params.source).toMatchObject({ kind: 'script' });
      else expect(params.topic).toBe(asked.topic);
      expect(pipeline.runs.filter((run) => run.jobId === row.jobId)).toHaveLength(1);
    }
    // The jobs are ordinary videos: My Videos lists them.
    const videos = await app.inject({ method: 'GET', url: '/api/videos?limit=50', headers: bearer(user) });
    expect((videos.json() as { jobs: unknown[] }).jobs).toHaveLength(20);

    await waitFor(async () => live.completed.length === 1, 'batch_completed on the socket');
    expect(live.completed[0]).toMatchObject({ batchId: created.id, status: 'completed', counts: { completed: 20 } });
    expect(new Set(live.progress.filter((event) => event.batchId === created.id).map((event) => event.row.jobId)).size).toBe(20);
    expect(live.progress.at(-1)).toMatchObject({ status: 'completed', percent: 100 });

    const delivered = await waitFor(async () => receiver.bodies.find((body) => body.includes(created.id)), 'the batch.completed webhook');
    const event = batchWebhookEventSchema.parse(JSON.parse(delivered));
    expect(event.type).toBe('batch.completed');
    expect(event.data.rows).toHaveLength(20);
    expect(event.data.rows.every((row) => row.status === 'completed' && row.videoUrl)).toBe(true);

    const list = listBatchesResponseSchema.parse((await app.inject({ method: 'GET', url: '/api/batches', headers: bearer(user) })).json());
    expect(list.batches).toHaveLength(1);
    expect(list.batches[0]).toMatchObject({ id: created.id, status: 'completed', counts: { total: 20, completed: 20 }, percent: 100 });
  });

  it('runs a 10-row CSV (BOM, quoted scripts, a link, mixed languages) to completion, one job per row', async () => {
    const user = await registerUser(app, 'batch-csv');
    await subscribe(app, user.id, 'pro_plan');
    const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const lines = [
      'topic,script,url,language,duration,resolution,style,visualStyle,captionStyle,music,voice',
      'Why cats purr,,,en,30,9:16,educational,cinematic,tiktok,calm,en-male-1',
      `,${quote(`${SCRIPTS.hi}\n${SCRIPTS.hi}`)},,hi,,,,,,,`,
      `,${quote(SCRIPTS.ja)},,ja,,1:1,,,,,`,
      `,,${pages.url},en,,,,,,,`,
      'Los volcanes,,,es,60,16:9,dramatic,,,,',
      `${quote('Un "quote", and a comma')},,,fr,,,,,,,`,
      '',
      `,${quote(SCRIPTS.es)},,es,,,,,,none,`,
      'The deep sea,,,en,30,,mysterious,,,,',
      'Tea in India,,,hi,,,,,,,',
      `,${quote(SCRIPTS.en)},,en,90,,,,,,`,
    ];
    const csv = `\uFEFF${lines.join('\r\n')}\r\n`;
    const form = new FormData();
    form.append('name', 'From a sheet');
    form.append('defaults', JSON.stringify(DEFAULTS));
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'batch.csv');
    const response = await fetch(`${baseUrl}/api/batches`, { method: 'POST', headers: bearer(user), body: form });
    const body: unknown = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(202);
    const created = batchDetailSchema.parse(body);
    expect(created.rows).toHaveLength(10);

    const done = await waitForBatch(app, user, created.id, 'completed');
    expect(done.counts).toMatchObject({ total: 10, completed: 10 });
    const params = done.rows.map((row) => pipeline.params.get(row.jobId)!);
    expect(params.map((row) => row.language)).toEqual(['en', 'hi', 'ja', 'en', 'es', 'fr', 'es', 'en', 'hi', 'en']);
    expect(params.map((row) => row.source?.kind ?? 'topic')).toEqual([
      'topic',
      'script',
      'script',
      'article',
      'topic',
      'topic',
      'script',
      'topic',
      'topic',
      'script',
    ]);
    expect(params[0]).toMatchObject({ topic: 'Why cats purr', resolution: '9:16', music: 'calm' });
    expect(params[4]).toMatchObject({ duration: 60, resolution: '16:9', style: 'dramatic' });
    expect(params[5]!.topic).toBe('Un "quote", and a comma');
    expect(params[9]!.duration).toBe(90);
    // The link was fetched and read by the server before the job was made: the job tells the page's article.
    expect(params[3]!.source).toMatchObject({ kind: 'article' });
    expect(JSON.stringify(params[3]!.source)).toContain('hemocyanin');
    expect(params[3]!.topic).toMatch(/octopus/i);
  });

  it('refuses a batch with two bad rows, naming both, and queues nothing', async () => {
    const user = await registerUser(app, 'batch-bad');
    await subscribe(app, user.id, 'pro_plan');
    const rows = Array.from({ length: 8 }, (_, index) => ({ topic: `Good row ${index}` })) as Array<Record<string, unknown>>;
    rows[2] = { topic: 'Too long', duration: 45 };
    rows[6] = { language: 'xx' };
    const response = await postBatch(app, user, { defaults: DEFAULTS, rows });
    expect(response.statusCode).toBe(400);
    const error = batchErrorResponseSchema.parse(response.json());
    expect(error.invalidRows?.map((row) => row.index)).toEqual([2, 6]);
    expect(error.invalidRows?.[0]?.errors.map((e) => e.field)).toEqual(['duration']);
    expect(error.invalidRows?.[1]?.errors.map((e) => e.field).sort()).toEqual(['language', 'topic']);
    expect(error.message).toMatch(/2 rows are invalid, nothing was queued\. Row 3: duration: .*Row 7: /);
    expect(await jobCountOf(app, user.id)).toBe(0);
    const list = listBatchesResponseSchema.parse((await app.inject({ method: 'GET', url: '/api/batches', headers: bearer(user) })).json());
    expect(list.batches).toEqual([]);

    // A CSV's bad rows are named with their line in the file too.
    const form = new FormData();
    form.append('defaults', JSON.stringify(DEFAULTS));
    form.append('file', new Blob(['topic,duration\nFine,30\nBad,45\n'], { type: 'text/csv' }), 'bad.csv');
    const csv = await fetch(`${baseUrl}/api/batches`, { method: 'POST', headers: bearer(user), body: form });
    expect(csv.status).toBe(400);
    const csvError = batchErrorResponseSchema.parse(await csv.json());
    expect(csvError.invalidRows).toEqual([{ index: 1, line: 3, errors: [expect.objectContaining({ field: 'duration' })] }]);
    expect(await jobCountOf(app, user.id)).toBe(0);
  });

  it('refuses a batch beyond what the plan has left, with how many it needs and how many are left', async () => {
    const user = await registerUser(app, 'batch-plan');
    await subscribe(app, user.id, 'essentials_plan');
    const first = await postBatch(app, user, { defaults: DEFAULTS, rows: [{ topic: 'One' }, { topic: 'Two' }, { topic: 'Three' }] });
    expect(first.statusCode, first.body).toBe(202);
    const response = await postBatch(app, user, {
      defaults: DEFAULTS,
      rows: Array.from({ length: 12 }, (_, index) => ({ topic: `Row ${index}` })),
    });
    expect(response.statusCode).toBe(400);
    const error = batchErrorResponseSchema.parse(response.json());
    expect(error).toMatchObject({ needed: 12, remaining: 7 });
    expect(error.message).toContain('needs 12 videos but your plan has 7 left this month');
    expect(await jobCountOf(app, user.id)).toBe(3);
  });

  it("starts a second creator's single video within one job's time while a 30-row batch runs", async () => {
    const big = await registerUser(app, 'batch-big');
    const small = await registerUser(app, 'batch-small');
    await subscribe(app, big.id, 'pro_plan');
    await subscribe(app, small.id, 'pro_plan');
    await expectSingleVideoNotStarved(app, pipeline, big, small, 1);
  });

  it('cancel stops the running row and the queued ones; finished rows stay', async () => {
    const user = await registerUser(app, 'batch-cancel');
    await subscribe(app, user.id, 'pro_plan');
    const live = await listen(user);
    const tag = randomBytes(3).toString('hex');
    const rows = Array.from({ length: 6 }, (_, index) => ({ topic: `Cancel row ${index} ${tag}` }));
    const gate = pipeline.blockAt(rows[1]!.topic, 'images');
    const response = await postBatch(app, user, { defaults: DEFAULTS, rows });
    expect(response.statusCode, response.body).toBe(202);
    const created = batchDetailSchema.parse(response.json());
    await gate.reached;

    const cancel = await app.inject({ method: 'POST', url: `/api/batches/${created.id}/cancel`, headers: bearer(user) });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const { cancelled, batch } = cancelBatchResponseSchema.parse(cancel.json());
    expect(cancelled).toBe(5);
    expect(batch.status).toBe('cancelled');
    expect(batch.rows.map((row) => row.status)).toEqual(['completed', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);
    expect(pipeline.runsOf(rows[1]!.topic)[0]!.signal.aborted).toBe(true);
    // Nothing else of the batch starts afterwards.
    await new Promise((resolve) => setTimeout(resolve, JOB_MS * 4));
    for (const row of rows.slice(2)) expect(pipeline.runsOf(row.topic)).toEqual([]);
    expect((await getBatch(app, user, created.id)).counts).toMatchObject({ completed: 1, cancelled: 5, queued: 0, processing: 0 });
    await waitFor(async () => live.completed.find((event) => event.batchId === created.id), 'batch_completed after the cancel');
    expect(live.completed.find((event) => event.batchId === created.id)?.status).toBe('cancelled');

    const again = await app.inject({ method: 'POST', url: `/api/batches/${created.id}/cancel`, headers: bearer(user) });
    expect(again.statusCode).toBe(400);
    // Another creator's batch is a 404, like a missing one.
    const other = await registerUser(app, 'batch-other');
    expect((await app.inject({ method: 'GET', url: `/api/batches/${created.id}`, headers: bearer(other) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/api/batches/${created.id}/cancel`, headers: bearer(other) })).statusCode).toBe(404);
  });
});

describe.skipIf(!redisUrl)('batches on BullMQ (QUEUE_BACKEND=bullmq)', () => {
  const prefix = `reelsmith-batch-${randomBytes(4).toString('hex')}`;
  const pipeline = new TimedPipeline();
  let database: TestDatabase;
  let app: App;
  const workers: TestWorker[] = [];
  const env = () => ({ QUEUE_BACKEND: 'bullmq', REDIS_URL: redisUrl!, QUEUE_PREFIX: prefix, RATE_LIMIT_AUTH_MAX: '1000' });

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config(env()), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.timedRunner, providersFor: pipeline.providersFor },
    });
    await app.ready();
    workers.push(await startTestWorker(database.config(env()), { runner: pipeline.timedRunner, providersFor: pipeline.providersFor }));
  });
  afterAll(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await app?.close();
    const inspector = new Queue('video-jobs', { connection: { url: redisUrl!, maxRetriesPerRequest: null }, prefix });
    await inspector.obliterate({ force: true }).catch(() => undefined);
    await inspector.close();
    await database?.cleanup();
  });

  it("starts a second creator's single video within one job's time while a 30-row batch runs", async () => {
    const big = await registerUser(app, 'bull-batch-big');
    const small = await registerUser(app, 'bull-batch-small');
    await subscribe(app, big.id, 'pro_plan');
    await subscribe(app, small.id, 'pro_plan');
    await expectSingleVideoNotStarved(app, pipeline, big, small, 1);
  });

  it('cancel stops the rest of a batch on the workers', async () => {
    const user = await registerUser(app, 'bull-batch-cancel');
    await subscribe(app, user.id, 'pro_plan');
    const tag = randomBytes(3).toString('hex');
    const rows = Array.from({ length: 5 }, (_, index) => ({ topic: `Bull cancel ${index} ${tag}` }));
    const gate = pipeline.blockAt(rows[0]!.topic, 'images');
    const response = await postBatch(app, user, { defaults: DEFAULTS, rows });
    expect(response.statusCode, response.body).toBe(202);
    const created = batchDetailSchema.parse(response.json());
    await gate.reached;
    const cancel = await app.inject({ method: 'POST', url: `/api/batches/${created.id}/cancel`, headers: bearer(user) });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancelBatchResponseSchema.parse(cancel.json()).cancelled).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, JOB_MS * 4));
    for (const row of rows.slice(1)) expect(pipeline.runsOf(row.topic)).toEqual([]);
    expect((await getBatch(app, user, created.id)).counts).toMatchObject({ cancelled: 5 });
    const list = listBatchesResponseSchema.parse((await app.inject({ method: 'GET', url: '/api/batches', headers: bearer(user) })).json());
    expect(list.batches).toEqual([
      expect.objectContaining({ id: created.id, status: 'cancelled', counts: expect.objectContaining({ total: 5, cancelled: 5 }) }),
    ]);
  });
});
