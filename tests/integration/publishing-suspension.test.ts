import type { Publication } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, startFakePublishingPlatforms, type App, type TestDatabase } from '@reelsmith/server/testing';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, subscribe, videoBody, waitForStatus, type TestUser } from './server-jobs-fakes.js';

type Fakes = Awaited<ReturnType<typeof startFakePublishingPlatforms>>;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Suspending an account stops its publishing: a TikTok post scheduled a few seconds ahead never goes out. */
describe('suspension and scheduled publications', () => {
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let fakes: Fakes;
  let app: App;
  let creator: TestUser;
  let admin: TestUser;
  let videoId: string;

  beforeAll(async () => {
    fakes = await startFakePublishingPlatforms();
    database = await createTestDatabase('sqlite');
    const port = await freePort();
    app = await buildApp(database.config({ ...fakes.env, PUBLIC_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
      publishing: { timings: { pollIntervalMs: 500, retryDelaysMs: [200], statusPollMs: 50, claimMs: 10_000 } },
    });
    await app.listen({ port, host: '127.0.0.1' });
    creator = await registerUser(app, 'suspended-creator');
    admin = await registerUser(app, 'suspending-admin');
    await app.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    await subscribe(app, creator.id, 'pro_plan');
    const made = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(creator),
      payload: videoBody('octopus hearts'),
    });
    videoId = (made.json() as { jobId: string }).jobId;
    await waitForStatus(app, creator, videoId, 'completed');
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await fakes?.close();
    await database?.cleanup();
  });

  it("never uploads a suspended account's scheduled post, and revokes its platform token", async () => {
    // Settings → Connect TikTok: the consent page's Allow link, then the callback with the binding cookie.
    const started = await app.inject({ method: 'GET', url: '/api/connections/tiktok/start', headers: bearer(creator) });
    const cookie = String(started.headers['set-cookie']).split(';')[0]!;
    const page = await (await fetch(new URL((started.json() as { url: string }).url))).text();
    const callback = new URL(/id="allow" href="([^"]+)"/.exec(page)![1]!.replace(/&#38;/g, '&'));
    const connected = await app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie } });
    expect(connected.headers.location).toBe('/settings?connected=tiktok');

    const postsBefore = fakes.tiktok.posts.length;
    const publishAt = new Date(Date.now() + 3_000).toISOString();
    const answer = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(creator),
      payload: { platforms: [{ platform: 'tiktok', privacy: 'private', publishAt }] },
    });
    expect(answer.statusCode, answer.body).toBe(202);
    const [scheduled] = (answer.json() as { publications: Publication[] }).publications;

    const suspended = await app.inject({
      method: 'POST',
      url: `/api/admin/users/${creator.id}/suspend`,
      headers: bearer(admin),
      payload: { reason: 'abuse report' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    // Past its time and a few polls of the publishing queue.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(fakes.tiktok.posts.length).toBe(postsBefore);
    const row = await app.db.selectFrom('publications').selectAll().where('id', '=', scheduled!.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
    expect(fakes.tiktok.revoked.length).toBeGreaterThan(0);
    expect(await app.db.selectFrom('platform_connections').selectAll().where('user_id', '=', creator.id).execute()).toEqual([]);
  }, 60_000);
});
