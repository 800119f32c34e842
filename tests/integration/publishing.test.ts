import { connectionErrorMessage, PUBLISHING_MESSAGES, type Connection, type Publication } from '@reelsmith/contracts';
import {
  nextPacificMidnight,
  buildApp,
  createTestDatabase,
  startFakePublishingPlatforms,
  TEST_DIALECTS,
  type App,
  type GenerationRunner,
  type TestDatabase,
} from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  FakePipeline,
  PASSWORD,
  registerUser,
  subscribe,
  videoBody,
  waitFor,
  waitForStatus,
  type TestUser,
} from './server-jobs-fakes.js';
import { startTestMailbox, type TestMailbox } from './test-mailbox.js';
import { readScrape } from '../../packages/server/src/operations/prometheus-test-text.js';

type Fakes = Awaited<ReturnType<typeof startFakePublishingPlatforms>>;

const POST_KIT = {
  title: 'Why octopuses have three hearts',
  description: 'Two hearts pump blood through the gills, one through the body.\n\nMade with AI (Reelsmith).',
  hashtags: ['#octopus', '#ocean', '#science'],
};
/** Two cues' worth of word timings: the SubRip file YouTube gets is made from these. */
const CAPTION_TRACK = {
  words: [
    { word: 'Octopuses', start: 0.2, end: 0.8 },
    { word: 'have', start: 0.8, end: 1.0 },
    { word: 'three', start: 1.0, end: 1.3 },
    { word: 'hearts.', start: 1.3, end: 1.9 },
  ],
  cuts: [],
  language: 'en',
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.each(TEST_DIALECTS)('publishing to YouTube, TikTok and Instagram against their local fakes on %s', (dialect) => {
  let database: TestDatabase;
  let mailbox: TestMailbox;
  /** What a creator's webhook receiver got. */
  const received: { type: string; data: { publication?: { platform: string; url?: string; error?: string } } }[] = [];
  const receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof received)[number]);
      res.writeHead(200).end();
    });
  });
  let fakes: Fakes;
  let app: App;
  let user: TestUser;
  let port: number;
  let videoId: string;
  let videoBytes: Buffer;
  let posterBytes: Buffer;
  const pipeline = new FakePipeline();
  const runner: GenerationRunner = async (run) => ({ ...(await pipeline.runner(run)), post: POST_KIT, captionTrack: CAPTION_TRACK });

  async function start(extraEnv: Record<string, string> = {}): Promise<App> {
    const next = await buildApp(
      database.config({
        ...fakes.env,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        RATE_LIMIT_AUTH_MAX: '1000',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SMTP_URL: mailbox.url,
        MAIL_FROM: 'Reelsmith <no-reply@example.com>',
        ...extraEnv,
      }),
      {
        voices: { autoGenerateOfflineSamples: false },
        jobs: { runner, providersFor: pipeline.providersFor },
        publishing: { timings: { pollIntervalMs: 1_000, retryDelaysMs: [200, 200, 200], statusPollMs: 50, claimMs: 10_000 } },
      },
    );
    await next.listen({ port, host: '127.0.0.1' });
    return next;
  }

  beforeAll(async () => {
    fakes = await startFakePublishingPlatforms();
    mailbox = await startTestMailbox();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    database = await createTestDatabase(dialect);
    port = await freePort();
    app = await start();
    user = await registerUser(app, 'publisher');
    await subscribe(app, user.id, 'pro_plan');
    const submitted = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('octopus hearts'),
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    videoId = (submitted.json() as { jobId: string }).jobId;
    const job = await waitForStatus(app, user, videoId, 'completed');
    videoBytes = (await app.inject({ method: 'GET', url: job.result!.videoUrl })).rawPayload;
    posterBytes = (await app.inject({ method: 'GET', url: job.result!.posterUrl! })).rawPayload;
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(user),
      payload: {
        url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`,
        events: ['publication.published', 'publication.failed'],
      },
    });
    expect(hook.statusCode, hook.body).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await fakes?.close();
    await mailbox?.close();
    await new Promise((resolve) => receiver.close(resolve));
    await database?.cleanup();
  });

  const connections = async () =>
    ((await app.inject({ method: 'GET', url: '/api/connections', headers: bearer(user) })).json() as { connections: Connection[] })
      .connections;

  /** Start connecting as the studio does (the browser keeps the binding cookie), then Allow on the fake's consent page. */
  async function consent(platform: 'youtube' | 'tiktok' | 'instagram'): Promise<{ callback: URL; cookie: string }> {
    const started = await app.inject({ method: 'GET', url: `/api/connections/${platform}/start`, headers: bearer(user) });
    expect(started.statusCode, started.body).toBe(200);
    const setCookie = String(started.headers['set-cookie']);
    expect(setCookie).toMatch(
      new RegExp(`^rs_oauth_${platform}=[\\w-]{43}; Path=/api/connections/${platform}; Max-Age=900; HttpOnly; SameSite=Lax`),
    );
    const authorization = new URL((started.json() as { url: string }).url);
    const page = await (await fetch(authorization)).text();
    const allow = /id="allow" href="([^"]+)"/.exec(page)![1]!.replace(/&#38;/g, '&');
    const callback = new URL(allow);
    expect(callback.pathname).toBe(`/api/connections/${platform}/callback`);
    return { callback, cookie: setCookie.split(';')[0]! };
  }

  /** Settings → Connect: the authorization URL, the consent page's Allow link (as the browser follows it), then the callback. */
  async function connect(platform: 'youtube' | 'tiktok' | 'instagram'): Promise<URL> {
    const { callback, cookie } = await consent(platform);
    const answer = await app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie } });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/settings?connected=${platform}`);
    return callback;
  }

  async function publish(platforms: object[]): Promise<Publication[]> {
    const answer = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms },
    });
    expect(answer.statusCode, answer.body).toBe(202);
    return (answer.json() as { publications: Publication[] }).publications;
  }

  async function settled(id: string, timeoutMs = 20_000): Promise<Publication> {
    return waitFor(
      async () => {
        const list = (
          (await app.inject({ method: 'GET', url: `/api/videos/${videoId}/publications`, headers: bearer(user) })).json() as {
            publications: Publication[];
          }
        ).publications;
        const found = list.find((publication) => publication.id === id);
        return found && ['published', 'failed', 'cancelled'].includes(found.status) ? found : undefined;
      },
      `publication ${id} to settle`,
      timeoutMs,
    );
  }

  it('offers the three configured platforms and connects each through its consent page (state checked, PKCE for Google, tokens sealed)', async () => {
    expect((await connections()).map((connection) => [connection.platform, connection.connected])).toEqual([
      ['youtube', false],
      ['tiktok', false],
      ['instagram', false],
    ]);
    const started = await app.inject({ method: 'GET', url: '/api/connections/youtube/start', headers: bearer(user) });
    const url = new URL((started.json() as { url: string }).url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{32}$/);
    expect(url.searchParams.get('access_type')).toBe('offline');

    // A consent someone else started (their link, their cookie) does not land in this browser's account.
    const foreign = await consent('youtube');
    const hijack = await app.inject({ method: 'GET', url: `${foreign.callback.pathname}${foreign.callback.search}` });
    expect(hijack.headers.location).toBe('/settings?connectionError=other-browser&platform=youtube');
    expect(await app.db.selectFrom('platform_connections').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);

    const callback = await connect('youtube');
    // The same callback again (a replay) is refused: the state was used once.
    const replay = await app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    expect(replay.headers.location).toBe('/settings?connectionError=state-invalid&platform=youtube');
    await connect('tiktok');
    await connect('instagram');
    const list = await connections();
    expect(list.every((connection) => connection.connected && !connection.needsReconnect)).toBe(true);
    expect(list.find((connection) => connection.platform === 'youtube')!.account).toEqual({
      id: fakes.google.channel.id,
      name: fakes.google.channel.title,
    });

    const rows = await app.db.selectFrom('platform_connections').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.access_token_sealed).toMatch(/^v1\./);
      expect(row.access_token_sealed).not.toMatch(/ya29\.|act\.|IGAA/);
    }
  });

  it('publishes to YouTube now: the exact MP4 over a resumable upload that survives a broken connection, the metadata, the AI flag, captions and poster', async () => {
    fakes.google.breakUploadAfterBytes = 20_000;
    const putsBefore = fakes.google.requests.filter((request) => request.method === 'PUT').length;
    const [queued] = await publish([{ platform: 'youtube', privacy: 'unlisted' }]);
    expect(queued!.status).toBe('queued');
    // Asked again while the first is on its way: refused, so it never goes twice.
    const again = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'youtube' }] },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: PUBLISHING_MESSAGES.alreadyPublishing('youtube') });

    const done = await settled(queued!.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('published');
    expect(fakes.google.videos).toHaveLength(1);
    const video = fakes.google.videos[0]!;
    expect(done.url).toBe(`https://www.youtube.com/watch?v=${video.id}`);
    expect(video.bytes.equals(videoBytes)).toBe(true);
    // The broken PUT, the status query (Content-Range: bytes */size) and the rest of the bytes.
    expect(fakes.google.requests.filter((request) => request.method === 'PUT').length - putsBefore).toBe(3);
    expect(video.declaredLength).toBe(videoBytes.length);
    expect(video.metadata.snippet).toEqual({
      title: POST_KIT.title,
      description: `${POST_KIT.description}\n\n${POST_KIT.hashtags.join(' ')}`,
      tags: ['octopus', 'ocean', 'science'],
      defaultLanguage: 'en',
      defaultAudioLanguage: 'en',
    });
    expect(video.metadata.status).toEqual({ privacyStatus: 'unlisted', selfDeclaredMadeForKids: false, containsSyntheticMedia: true });
    const srt = await app.inject({ method: 'GET', url: `/api/videos/${videoId}/captions?format=srt`, headers: bearer(user) });
    expect(video.captions).toHaveLength(1);
    // captions.insert requires a name: the language's own.
    expect(video.captions[0]!.snippet).toMatchObject({ videoId: video.id, language: 'en', name: 'English', isDraft: false });
    expect(video.captions[0]!.body).toBe(srt.body);
    expect(video.thumbnail?.equals(posterBytes)).toBe(true);
  });

  it('schedules on YouTube with publishAt (private until then), on its side', async () => {
    const at = new Date(Date.now() + 3 * 24 * 3600_000);
    at.setUTCMilliseconds(0);
    const [queued] = await publish([{ platform: 'youtube', title: 'Scheduled octopus', publishAt: at.toISOString() }]);
    const done = await settled(queued!.id);
    expect(done.status).toBe('published');
    expect(fakes.google.videos.at(-1)!.metadata.status).toEqual({
      privacyStatus: 'private',
      publishAt: at.toISOString(),
      selfDeclaredMadeForKids: false,
      containsSyntheticMedia: true,
    });
    expect(fakes.google.videos.at(-1)!.metadata.snippet.title).toBe('Scheduled octopus');
  });

  it('holds a scheduled YouTube video private until its time, and lets the creator keep it private or delete it until then', async () => {
    const at = new Date(Date.now() + 2 * 3600_000).toISOString();
    // Unlisted or private with a time means nothing on YouTube (it makes the video public then): refused.
    const unlisted = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'youtube', privacy: 'unlisted', publishAt: at }] },
    });
    expect(unlisted.statusCode).toBe(400);
    expect(unlisted.json()).toMatchObject({ message: PUBLISHING_MESSAGES.youtubeScheduledPrivacy });

    // Uploaded at once: queued now, not at the time.
    const [kept] = await publish([{ platform: 'youtube', publishAt: at }]);
    const uploaded = await settled(kept!.id);
    expect(uploaded).toMatchObject({ status: 'published', publishAt: at });
    expect(Date.parse(uploaded.publishedAt!)).toBeLessThan(Date.parse(at));
    const keptVideo = fakes.google.videos.find((video) => uploaded.url!.endsWith(video.id))!;
    expect(keptVideo.metadata.status).toMatchObject({ privacyStatus: 'private', publishAt: at });
    // Settings → Connections lists it among the scheduled posts: it is in the creator's publications, published and ahead.
    const all = (
      (await app.inject({ method: 'GET', url: '/api/publications', headers: bearer(user) })).json() as { publications: Publication[] }
    ).publications;
    expect(all.find((publication) => publication.id === kept!.id)).toMatchObject({ status: 'published', publishAt: at });

    const keep = await app.inject({ method: 'DELETE', url: `/api/publications/${kept!.id}?youtube=keep`, headers: bearer(user) });
    expect(keep.statusCode, keep.body).toBe(200);
    expect((keep.json() as { publication: Publication }).publication).toMatchObject({
      status: 'cancelled',
      warning: PUBLISHING_MESSAGES.youtubeKeptPrivate,
      url: uploaded.url,
    });
    // videos.update replaced the status part: private, its publishAt gone, so YouTube never makes it public.
    expect(keptVideo.metadata.status).toEqual({ privacyStatus: 'private', selfDeclaredMadeForKids: false, containsSyntheticMedia: true });

    const [deleted] = await publish([{ platform: 'youtube', publishAt: at }]);
    const second = await settled(deleted!.id);
    const secondId = second.url!.split('v=')[1]!;
    const remove = await app.inject({ method: 'DELETE', url: `/api/publications/${deleted!.id}?youtube=delete`, headers: bearer(user) });
    expect(remove.statusCode, remove.body).toBe(200);
    expect((remove.json() as { publication: Publication }).publication).toMatchObject({
      status: 'cancelled',
      warning: PUBLISHING_MESSAGES.youtubeDeleted,
      url: null,
    });
    expect(fakes.google.deleted).toContain(secondId);
    expect(fakes.google.videos.some((video) => video.id === secondId)).toBe(false);
  });

  it('publishes to TikTok (creator info, FILE_UPLOAD, private for an unaudited app, AI label) and Instagram (a Reel fetched from PUBLIC_URL)', async () => {
    // The creator's socket hears each step; their webhook hears the outcome.
    const socket = connectSocket(`http://127.0.0.1:${port}`, {
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token: user.token },
      reconnection: false,
      forceNew: true,
    });
    const heard: Publication[] = [];
    socket.on('publication_progress', (event: Publication) => heard.push(event));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const publications = await publish([{ platform: 'tiktok' }, { platform: 'instagram' }]);
    const [tiktok, instagram] = await Promise.all(publications.map((publication) => settled(publication.id)));
    // The stored outcome can be read before the socket's last event arrives: wait for it, then close.
    await waitFor(
      async () => heard.some((event) => event.id === tiktok!.id && event.status === tiktok!.status),
      "the socket's last publication_progress",
    );
    socket.close();
    const tiktokSteps = heard.filter((event) => event.id === tiktok!.id).map((event) => event.status);
    expect(tiktokSteps[0]).toBe('queued');
    expect(tiktokSteps).toContain('uploading');
    expect(tiktokSteps).toContain('processing');
    expect(tiktokSteps.at(-1)).toBe('published');
    await waitFor(
      async () => received.some((event) => event.type === 'publication.published' && event.data.publication?.url === instagram!.url),
      'the publication.published webhook',
    );
    expect(tiktok!.error).toBeNull();
    expect(tiktok!.status).toBe('published');
    const post = fakes.tiktok.posts.at(-1)!;
    expect(post.bytes.equals(videoBytes)).toBe(true);
    expect(post.chunks).toEqual([`bytes 0-${videoBytes.length - 1}/${videoBytes.length}`]);
    expect(post.sourceInfo).toEqual({
      source: 'FILE_UPLOAD',
      video_size: videoBytes.length,
      chunk_size: videoBytes.length,
      total_chunk_count: 1,
    });
    expect(post.postInfo).toMatchObject({
      title: `${POST_KIT.title} ${POST_KIT.hashtags.join(' ')}`,
      privacy_level: 'SELF_ONLY',
      is_aigc: true,
      // Nothing allowed unless the creator chose it (TikTok's UX guidelines).
      disable_comment: true,
      disable_duet: true,
      disable_stitch: true,
    });
    // A private post has no public address: the link is the creator's profile.
    expect(tiktok!.url).toBe(`https://www.tiktok.com/@${fakes.tiktok.user.username}`);

    expect(instagram!.error).toBeNull();
    expect(instagram!.status).toBe('published');
    const reel = fakes.instagram.reels.at(-1)!;
    expect(reel.params).toMatchObject({ media_type: 'REELS', share_to_feed: 'true' });
    expect(reel.params.caption).toBe(`${POST_KIT.title}\n\n${POST_KIT.description}\n\n${POST_KIT.hashtags.join(' ')}`);
    expect(reel.params.video_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/output/`));
    expect(reel.bytes?.equals(videoBytes)).toBe(true);
    expect(instagram!.url).toMatch(/^https:\/\/www\.instagram\.com\/reel\/\w+\/$/);
  });

  it('offers TikTok only Private until the app is audited (TIKTOK_APP_AUDITED), and sends the creator’s comment choice', async () => {
    expect((await connections()).find((connection) => connection.platform === 'tiktok')!.privacyOptions).toEqual(['private']);
    const refused = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'tiktok', privacy: 'public' }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: PUBLISHING_MESSAGES.tiktokPrivateOnly });
    const [queued] = await publish([{ platform: 'tiktok', allowComments: true }]);
    const done = await settled(queued!.id);
    expect(done.status).toBe('published');
    expect(fakes.tiktok.posts.at(-1)!.postInfo).toMatchObject({ privacy_level: 'SELF_ONLY', disable_comment: false, disable_duet: true });
  });

  it('refreshes an Instagram token at day 59 of 60 when the server starts, so the creator never reconnects', async () => {
    const row = () =>
      app.db
        .selectFrom('platform_connections')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('platform', '=', 'instagram')
        .executeTakeFirstOrThrow();
    const before = await row();
    // 59 days on: the token expires tomorrow (the fake's clock and the stored times agree).
    fakes.instagram.ageTokens(59 * 24 * 3600_000);
    await app.db
      .updateTable('platform_connections')
      .set({
        updated_at: new Date(Date.now() - 59 * 24 * 3600_000).toISOString(),
        expires_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
      })
      .where('user_id', '=', user.id)
      .where('platform', '=', 'instagram')
      .execute();
    const refreshes = fakes.instagram.refreshes.length;
    await app.close();
    app = await start();
    await waitFor(async () => fakes.instagram.refreshes.length > refreshes, 'the start-up refresh of the Instagram token');
    expect(fakes.instagram.refreshes.at(-1)).toEqual({ status: 200 });
    const after = await waitFor(async () => {
      const current = await row();
      return current.access_token_sealed !== before.access_token_sealed ? current : undefined;
    }, 'the refreshed token stored');
    expect(Date.parse(after.expires_at!) - Date.now()).toBeGreaterThan(59 * 24 * 3600_000);
    expect(after.needs_reconnect).toBe(0);
  });

  it('waits for YouTube’s quota day (midnight Pacific time) when the daily quota is spent, without counting it as a try', async () => {
    fakes.google.failNext('/upload/youtube/v3/videos', 1, 403, {
      error: {
        code: 403,
        message: 'The request cannot be completed because you have exceeded your quota.',
        errors: [{ message: 'quota', domain: 'youtube.quota', reason: 'quotaExceeded' }],
      },
    });
    const [queued] = await publish([{ platform: 'youtube' }]);
    const waiting = await waitFor(async () => {
      const row = await app.db.selectFrom('publications').selectAll().where('id', '=', queued!.id).executeTakeFirstOrThrow();
      return row.status === 'queued' && row.error ? row : undefined;
    }, 'the publication to wait for the quota day');
    const midnight = nextPacificMidnight();
    expect(waiting.run_at).toBe(midnight.toISOString());
    expect(waiting.error).toBe(PUBLISHING_MESSAGES.youtubeQuota(midnight.toISOString()));
    expect(Number(waiting.attempts)).toBe(0);
    // Not waiting for it here: cancelled, so the rest of the file goes on.
    const cancelled = await app.inject({ method: 'DELETE', url: `/api/publications/${queued!.id}`, headers: bearer(user) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
  });

  it('retries a platform answering 500 twice, then publishes once', async () => {
    const before = fakes.tiktok.posts.length;
    const callsBefore = await tiktokCalls();
    fakes.tiktok.failNext('/v2/post/publish/video/init/', 2, 500);
    const [queued] = await publish([{ platform: 'tiktok' }]);
    const done = await settled(queued!.id);
    expect(done.status).toBe('published');
    expect(done.attempts).toBe(3);
    expect(fakes.tiktok.posts.length).toBe(before + 1);
    // Each attempt is a publishing call in the metrics; the two 500s are the platform being unavailable.
    expect(await tiktokCalls()).toEqual({ calls: callsBefore.calls + 3, unavailable: callsBefore.unavailable + 2 });
  });

  /** TikTok's publishing calls and unavailable errors in this process's metrics. */
  async function tiktokCalls() {
    const scrape = readScrape(await app.metrics.render());
    const labels = { kind: 'publishing', provider: 'tiktok' };
    return {
      calls: scrape.value('reelsmith_provider_call_duration_seconds_count', labels),
      unavailable: scrape.value('reelsmith_provider_call_errors_total', { ...labels, code: 'unavailable' }),
    } as { calls: number; unavailable: number };
  }

  it('publishes a scheduled post once, on time, across a server restart', async () => {
    const before = fakes.instagram.publishedAt.length;
    const at = Date.now() + 30_000;
    const [queued] = await publish([{ platform: 'instagram', publishAt: new Date(at).toISOString() }]);
    expect(queued!.publishAt).toBe(new Date(at).toISOString());
    await app.close();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    app = await start();
    const done = await settled(queued!.id, 60_000);
    expect(done.status).toBe('published');
    expect(fakes.instagram.publishedAt.length).toBe(before + 1);
    const publishedAt = fakes.instagram.publishedAt.at(-1)!;
    expect(publishedAt).toBeGreaterThanOrEqual(at);
    expect(publishedAt - at).toBeLessThan(60_000);
    // Nothing publishes it a second time.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fakes.instagram.publishedAt.length).toBe(before + 1);
  }, 90_000);

  it('cancels a scheduled publication before it goes', async () => {
    const [queued] = await publish([{ platform: 'tiktok', publishAt: new Date(Date.now() + 3600_000).toISOString() }]);
    const cancelled = await app.inject({ method: 'DELETE', url: `/api/publications/${queued!.id}`, headers: bearer(user) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((cancelled.json() as { publication: Publication }).publication.status).toBe('cancelled');
    const twice = await app.inject({ method: 'DELETE', url: `/api/publications/${queued!.id}`, headers: bearer(user) });
    expect(twice.statusCode).toBe(409);
  });

  it('tells the creator to reconnect YouTube when the permission was revoked', async () => {
    fakes.google.revokeAllGrants();
    const [queued] = await publish([{ platform: 'youtube' }]);
    const done = await settled(queued!.id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(PUBLISHING_MESSAGES.reconnect('youtube'));
    expect(done.error).toMatch(/^reconnect YouTube/);
    expect((await connections()).find((connection) => connection.platform === 'youtube')!.needsReconnect).toBe(true);
    const refused = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'youtube' }] },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('disconnects: the token is revoked at the platform and nothing is stored', async () => {
    await connect('youtube');
    expect(fakes.google.liveTokens).toBe(1);
    const revokedBefore = fakes.google.revoked.length;
    const answer = await app.inject({ method: 'DELETE', url: '/api/connections/youtube', headers: bearer(user) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(fakes.google.liveTokens).toBe(0);
    expect(fakes.google.revoked.length).toBe(revokedBefore + 1);
    const rows = await app.db
      .selectFrom('platform_connections')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('platform', '=', 'youtube')
      .execute();
    expect(rows).toEqual([]);
    expect((await connections()).find((connection) => connection.platform === 'youtube')!.connected).toBe(false);
  });

  it.runIf(process.env.TEST_REDIS_URL)(
    'runs scheduled publications on time in scale mode (QUEUE_BACKEND=bullmq) too',
    async () => {
      await app.close();
      app = await start({
        QUEUE_BACKEND: 'bullmq',
        REDIS_URL: process.env.TEST_REDIS_URL!,
        QUEUE_PREFIX: `publish-${randomUUID().slice(0, 8)}`,
      });
      const before = fakes.tiktok.publishedAt.length;
      const at = Date.now() + 8_000;
      const [queued] = await publish([{ platform: 'tiktok', publishAt: new Date(at).toISOString() }]);
      const done = await settled(queued!.id, 60_000);
      expect(done.status).toBe('published');
      expect(fakes.tiktok.publishedAt.length).toBe(before + 1);
      expect(fakes.tiktok.publishedAt.at(-1)! - at).toBeGreaterThanOrEqual(0);
      expect(fakes.tiktok.publishedAt.at(-1)! - at).toBeLessThan(60_000);
    },
    90_000,
  );

  it('refuses what it cannot do with a message that says why', async () => {
    const tooFar = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'tiktok', publishAt: new Date(Date.now() + 400 * 24 * 3600_000).toISOString() }] },
    });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.body).toContain(PUBLISHING_MESSAGES.publishAtTooFar);
    const notConnected = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'youtube' }] },
    });
    expect(notConnected.statusCode).toBe(400);
    expect(notConnected.json()).toMatchObject({ message: PUBLISHING_MESSAGES.notConnected('youtube') });
    const instagramPrivate = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'instagram', privacy: 'private' }] },
    });
    expect(instagramPrivate.statusCode).toBe(400);
    const other = await registerUser(app, 'other');
    const foreign = await app.inject({ method: 'GET', url: `/api/videos/${videoId}/publications`, headers: bearer(other) });
    expect(foreign.statusCode).toBe(404);
  });

  it('tells the creator what to do when connecting fails or leaves out uploads, never the platform’s raw answer', async () => {
    const { callback, cookie } = await consent('youtube');
    fakes.google.failNext('/youtube/v3/channels', 1, 404, {
      error: { code: 404, message: 'Channel not found.', errors: [{ reason: 'channelNotFound' }] },
    });
    const failed = await app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie } });
    const back = new URL(String(failed.headers.location), 'http://studio').searchParams;
    // Only a code travels in the address; Settings shows our own message for it.
    expect(back.get('connectionError')).toBe('failed');
    const error = connectionErrorMessage(back.get('connectionError'), back.get('platform'));
    expect(error).toBe(PUBLISHING_MESSAGES.connectionFailed('youtube'));
    expect(error).not.toMatch(/HTTP|404|look-up/);
    // Any other text in the address is shown as the generic failure, never as written.
    expect(connectionErrorMessage('Your account is locked: call +1 555 0100', 'youtube')).toBe(
      PUBLISHING_MESSAGES.connectionFailed('youtube'),
    );

    // Google's granular consent: both YouTube permissions unticked. Connected, but it cannot upload: said, and publishing refused.
    fakes.google.grantedScopes = [];
    try {
      await connect('youtube');
    } finally {
      fakes.google.grantedScopes = null;
    }
    expect((await connections()).find((connection) => connection.platform === 'youtube')).toMatchObject({
      connected: true,
      problem: PUBLISHING_MESSAGES.youtubeMissingUploadScope,
    });
    const refused = await app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/publish`,
      headers: bearer(user),
      payload: { platforms: [{ platform: 'youtube' }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: PUBLISHING_MESSAGES.youtubeMissingUploadScope });
  });

  it('ends the connections with the account’s other credentials on a password reset', async () => {
    expect(await app.db.selectFrom('platform_connections').select('platform').where('user_id', '=', user.id).execute()).not.toEqual([]);
    await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: user.email } });
    const link = await mailbox.linkTo(user.email, '/reset-password');
    const reset = await app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { token: new URL(link).searchParams.get('token'), password: `${PASSWORD}-new` },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await app.db.selectFrom('platform_connections').select('platform').where('user_id', '=', user.id).execute()).toEqual([]);
  });
});
