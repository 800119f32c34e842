import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, videoBody, type TestUser } from './server-jobs-fakes.js';

/**
 * The third security round's fuzzer saw rows written in `email_tokens`, `video_versions` and
 * `video_storyboards` while it sent rejected requests. Those were background work of earlier,
 * accepted requests (the verification and reset mails are queued and make their token after the
 * answer; versions and storyboards are written when a video, the gallery's included, finishes).
 * This pins it down: with no background work running, a barrage of refused requests (4xx) leaves
 * every table exactly as it was.
 */
describe('a rejected request writes nothing', () => {
  let database: TestDatabase;
  let app: App;
  let user: TestUser;

  /** Each table's row count and, where it has one, its latest updated_at / used_at (a row rewritten in place shows there). */
  async function snapshot(): Promise<Record<string, string>> {
    const state: Record<string, string> = {};
    // The schema is dynamic here (every table there is), so the query builder's table types do not apply.
    const db = app.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    for (const table of await db.introspection.getTables()) {
      const stamp = table.columns.find((column) => ['updated_at', 'used_at', 'last_used_at'].includes(column.name))?.name;
      const row = await db
        .selectFrom(table.name)
        .select((eb) => [eb.fn.countAll().as('count'), ...(stamp ? [eb.fn.max(stamp).as('latest')] : [])])
        .executeTakeFirstOrThrow();
      state[table.name] = `${String(row.count)} ${String(row.latest ?? '')}`;
    }
    return state;
  }

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', GALLERY_EXAMPLES: 'off' }), {
      voices: { autoGenerateOfflineSamples: false },
    });
    user = await registerUser(app);
    // The sign-up's verification mail makes its token after the answer: let it finish first.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('leaves every table as it was after refused sign-ins, sign-ups, videos, storyboards, posts and brands', async () => {
    const before = await snapshot();
    const refused: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown; auth?: boolean; status: number }[] = [
      { method: 'POST', url: '/auth/login', payload: { email: user.email, password: 'not-the-password' }, status: 401 },
      {
        method: 'POST',
        url: '/auth/register',
        payload: { name: 'Again', email: user.email, password: 'correct-horse-battery' },
        status: 409,
      },
      { method: 'POST', url: '/auth/register', payload: { name: 'X', email: 'not-an-email', password: 'x' }, status: 400 },
      { method: 'POST', url: '/auth/forgot-password', payload: { email: 'not-an-email' }, status: 400 },
      { method: 'POST', url: '/auth/resend-verification', status: 401 },
      { method: 'POST', url: '/api/videos/generate', payload: videoBody('Bees'), status: 401 },
      { method: 'POST', url: '/api/videos/generate', payload: { ...videoBody('Bees'), duration: 45 }, auth: true, status: 400 },
      { method: 'POST', url: '/api/videos/generate', payload: { ...videoBody('Bees'), topic: 'a\u0000b' }, auth: true, status: 400 },
      { method: 'PUT', url: '/api/videos/no-such-video/storyboard', payload: { title: 'x', scenes: [] }, auth: true, status: 400 },
      { method: 'POST', url: '/api/videos/no-such-video/render', auth: true, status: 404 },
      {
        method: 'PUT',
        url: '/api/videos/no-such-video/post',
        payload: { title: 'x', description: '', hashtags: [] },
        auth: true,
        status: 404,
      },
      { method: 'DELETE', url: '/api/videos/no-such-video', auth: true, status: 404 },
      { method: 'PUT', url: '/api/brand', payload: { logoUploadId: 'someone-elses-upload' }, auth: true, status: 400 },
      {
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: 'http://127.0.0.1/hook', events: ['video.completed'] },
        auth: true,
        status: 400,
      },
    ];
    for (const request of refused) {
      const response = await app.inject({
        method: request.method,
        url: request.url,
        ...(request.payload !== undefined ? { payload: request.payload as Record<string, unknown> } : {}),
        ...(request.auth ? { headers: bearer(user) } : {}),
      });
      expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBeLessThan(500);
    }
    // Anything a refused request queued would have run by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await snapshot()).toEqual(before);
  });
});
