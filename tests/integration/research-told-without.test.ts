import { createServer } from 'node:net';
import { RESEARCH_UNUSED_MESSAGES, researchArticlesResponseSchema, videoJobSchema, type VideoJob } from '@reelsmith/contracts';
import { runGeneration, type assembleVideo, type GenerationRun } from '@reelsmith/pipeline';
import { startFakeWikimediaServer, type FakeWikimediaServer } from '@reelsmith/pipeline/testing';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, subscribe, videoBody, waitForStatus, type TestUser } from './server-jobs-fakes.js';

/**
 * Issue 50 "No silent filler" and issue 49 item 9, through the HTTP API: a topic with no article, and
 * one asked of a server whose Wikipedia is down, each become a video whose result says why it was
 * told without Wikipedia (`result.research`); the studio's look-up answers "unavailable" instead of a
 * 503 when research is off or unreachable. The server's own pipeline runs (offline story, voice and
 * pictures) against the fake Wikimedia, with only the final render replaced by a stand-in.
 */
const quickAssemble: typeof assembleVideo = async (request) => {
  writeFileSync(request.outputPath, 'mp4');
  writeFileSync(request.posterPath, 'jpg');
  return {
    videoPath: request.outputPath,
    posterPath: request.posterPath,
    durationSeconds: request.durationSeconds,
    width: 1080,
    height: 1920,
    sizeBytes: 3,
    renderStats: { seconds: 0.1, segmentsRendered: request.scenes.length, segmentsReused: 0 },
  };
};
const runner = (run: GenerationRun) => runGeneration(run, { assemble: quickAssemble });

/** A port nothing listens on: Wikimedia unreachable. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Server {
  app: App;
  database: TestDatabase;
  user: TestUser;
}

async function serverWith(env: Record<string, string>): Promise<Server> {
  const database = await createTestDatabase('sqlite');
  const app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', ...env }), {
    voices: { autoGenerateOfflineSamples: false },
    jobs: { runner, env: { PATH: process.env.PATH ?? '', ...env } },
  });
  await app.ready();
  const user = await registerUser(app, 'told-without');
  await subscribe(app, user.id, 'pro_plan');
  return { app, database, user };
}

async function made({ app, user }: Server, topic: string, extra: Record<string, unknown> = {}): Promise<VideoJob> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/videos/generate',
    headers: bearer(user),
    payload: videoBody(topic, { voice: 'en-us-m3', ...extra }),
  });
  expect(response.statusCode, response.body).toBe(200);
  const { jobId } = response.json() as { jobId: string };
  await waitForStatus(app, user, jobId, 'completed', 240_000);
  // The finished video as the studio reads it (GET /api/videos/:id), parsed with the contract.
  const read = await app.inject({ method: 'GET', url: `/api/videos/${jobId}`, headers: bearer(user) });
  expect(read.statusCode, read.body).toBe(200);
  return videoJobSchema.parse((read.json() as { job: unknown }).job);
}

async function lookUp({ app, user }: Server, q: string) {
  const response = await app.inject({ method: 'GET', url: `/api/research/articles?q=${encodeURIComponent(q)}`, headers: bearer(user) });
  return { status: response.statusCode, body: response.statusCode === 200 ? researchArticlesResponseSchema.parse(response.json()) : null };
}

describe('a video told without Wikipedia says why', () => {
  let fake: FakeWikimediaServer;
  const servers: Server[] = [];
  let up: Server;
  let down: Server;

  beforeAll(async () => {
    fake = await startFakeWikimediaServer();
    up = await serverWith(fake.env);
    down = await serverWith({ ...fake.env, WIKIPEDIA_API_URL: `http://127.0.0.1:${await closedPort()}/{lang}/w/api.php` });
    servers.push(up, down);
  });
  afterAll(async () => {
    for (const { app, database } of servers) {
      await app.close();
      await database.cleanup();
    }
    await fake?.close();
  });

  it(
    'a topic no article matches: result.research says no article, with the hits the search found to pick from',
    { timeout: 300_000 },
    async () => {
      const job = await made(up, 'Why cats purr');
      expect(job.result?.source).toBeUndefined();
      expect(job.result?.research).toMatchObject({ used: false, reason: 'no-article' });
      const research = job.result?.research;
      // What the search did find is offered, as the look-up route offers it to the picker.
      const listed = await lookUp(up, 'Why cats purr');
      expect(listed.status).toBe(200);
      const offered = research && !research.used ? (research.articles ?? []).map((article) => article.title) : [];
      expect(offered).toEqual(listed.body!.articles.map((article) => article.title));
      expect(RESEARCH_UNUSED_MESSAGES['no-article']).toBe('Told from the topic alone: no article found — pick one');
    },
  );

  it('Wikipedia down: result.research says unreachable, and the look-up answers so instead of a 503', { timeout: 300_000 }, async () => {
    const job = await made(down, 'Why octopuses have three hearts');
    expect(job.result?.source).toBeUndefined();
    expect(job.result?.research).toEqual({ used: false, reason: 'unreachable' });
    expect(RESEARCH_UNUSED_MESSAGES.unreachable).toBe('Told from the topic alone: Wikipedia could not be reached');
    expect(await lookUp(down, 'Why octopuses have three hearts')).toEqual({
      status: 200,
      body: { unavailable: 'unreachable', articles: [] },
    });
  });

  it(
    'a researched video says it was told from Wikipedia; "Don\'t look it up" says the creator declined',
    { timeout: 300_000 },
    async () => {
      const researched = await made(up, 'Why octopuses have three hearts');
      expect(researched.result?.research).toEqual({ used: true });
      expect(researched.result?.source).toMatchObject({ kind: 'wikipedia', title: 'Octopus' });
      const declined = await made(up, 'Why volcanoes erupt', { research: false });
      expect(declined.result?.research).toEqual({ used: false, reason: 'declined' });
    },
  );

  it('research switched off: the look-up answers "off", and the video says so', { timeout: 300_000 }, async () => {
    const off = await serverWith({ RESEARCH_PROVIDER: 'off' });
    servers.push(off);
    expect(await lookUp(off, 'Why octopuses have three hearts')).toEqual({ status: 200, body: { unavailable: 'off', articles: [] } });
    const job = await made(off, 'Why octopuses have three hearts');
    expect(job.result?.research).toEqual({ used: false, reason: 'off' });
  });
});
