import { PUBLISHING_MESSAGES } from '@reelsmith/contracts';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePublishingPlatforms } from '../testing/fake-publishing-platforms.js';
import { refreshDue } from './connection-store.js';
import { connectionProblem, graphApiError, INSTAGRAM_REFRESH_WINDOW } from './oauth-clients.js';
import { PlatformError, type PlatformResponse } from './platform-http.js';
import type { PublishContext, PublishInput } from './publisher.js';
import { publicPostIds, tiktokPublisher } from './tiktok-publisher.js';
import { captionTrackName, nextPacificMidnight, youtubeError, youtubePublisher } from './youtube-publisher.js';

/**
 * The fakes refuse what the real services refuse (each rule quoted from the service's documentation in
 * fake-publishing-platforms.ts), and the clients send what the services take.
 */
type Fakes = Awaited<ReturnType<typeof startFakePublishingPlatforms>>;
const MiB = 1024 * 1024;
const DAY = 24 * 3600_000;

let fakes: Fakes;
let dir: string;

beforeAll(async () => {
  fakes = await startFakePublishingPlatforms();
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-strict-fakes-'));
});

afterAll(async () => {
  await fakes?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A file of `bytes` bytes (sparse: zeros), as the MP4 a publisher uploads. */
async function videoOf(bytes: number): Promise<string> {
  const file = join(dir, `video-${bytes}.mp4`);
  await writeFile(file, '');
  await truncate(file, bytes);
  return file;
}

const input = (overrides: Partial<PublishInput>): PublishInput => ({
  platform: 'tiktok',
  title: 'Why octopuses have three hearts',
  description: '',
  hashtags: ['#octopus'],
  privacy: 'private',
  publishAt: null,
  videoFile: '/dev/null',
  videoBytes: 0,
  durationSeconds: 30,
  posterFile: null,
  captionsSrt: null,
  language: 'en',
  publicVideoUrl: 'http://127.0.0.1:1/output/x/video.mp4',
  account: { id: 'acct', name: 'reelsmith.test' },
  ...overrides,
});

function contextWith(token: string, remoteState: string | null = null): PublishContext & { state: string | null } {
  const context = {
    state: remoteState,
    accessToken: async () => token,
    get remoteState() {
      return context.state;
    },
    saveRemoteState: async (state: string | null) => {
      context.state = state;
    },
    report: async () => undefined,
    sleep: async () => undefined,
    pollIntervalMs: 0,
    maxPolls: 10,
  };
  return context;
}

const tiktokInit = (token: string, body: object) =>
  fetch(`${fakes.tiktok.url}/v2/post/publish/video/init/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(body),
  });

describe('TikTok: the media transfer guide’s chunk rule', () => {
  it('the fake refuses a 7 MiB file declared as one 10 MiB chunk (what the client sent before), and takes it whole', async () => {
    const token = fakes.tiktok.issueAccessToken();
    const post_info = { title: 't', privacy_level: 'SELF_ONLY' };
    const refused = await tiktokInit(token, {
      post_info,
      source_info: { source: 'FILE_UPLOAD', video_size: 7 * MiB, chunk_size: 10 * MiB, total_chunk_count: 1 },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_params');
    const whole = await tiktokInit(token, {
      post_info,
      source_info: { source: 'FILE_UPLOAD', video_size: 7 * MiB, chunk_size: 7 * MiB, total_chunk_count: 1 },
    });
    expect(whole.status).toBe(200);
    // 200 MiB in 64 MiB chunks is three (the last 72 MiB), never one.
    const tail = await tiktokInit(token, {
      post_info,
      source_info: { source: 'FILE_UPLOAD', video_size: 200 * MiB, chunk_size: 64 * MiB, total_chunk_count: 1 },
    });
    expect(tail.status).toBe(400);
  });

  it('publishes a 7 MiB video in one chunk and a 23 MiB one in two (10 + 13 MiB)', async () => {
    const publisher = tiktokPublisher(fakes.tiktok.url, { audited: false });
    for (const [size, chunks] of [
      [7 * MiB, [`bytes 0-${7 * MiB - 1}/${7 * MiB}`]],
      [23 * MiB, [`bytes 0-${10 * MiB - 1}/${23 * MiB}`, `bytes ${10 * MiB}-${23 * MiB - 1}/${23 * MiB}`]],
    ] as const) {
      const outcome = await publisher.publish(
        input({ videoFile: await videoOf(size), videoBytes: size }),
        contextWith(fakes.tiktok.issueAccessToken()),
      );
      const post = fakes.tiktok.posts.at(-1)!;
      expect(post.chunks).toEqual(chunks);
      expect(post.bytes.length).toBe(size);
      expect(outcome.url).toBe(`https://www.tiktok.com/@${fakes.tiktok.user.username}`);
    }
  });
});

describe('TikTok: an unaudited app posts privately, from private accounts', () => {
  it('the fake refuses a public post from an unaudited app though creator_info lists PUBLIC_TO_EVERYONE', async () => {
    const token = fakes.tiktok.issueAccessToken();
    const answer = await tiktokInit(token, {
      post_info: { title: 't', privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 },
    });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('unaudited_client_can_only_post_to_private_accounts');
  });

  it('sends SELF_ONLY while unaudited whatever was asked, and says what to do when the account is public', async () => {
    const publisher = tiktokPublisher(fakes.tiktok.url, { audited: false });
    const video = await videoOf(4 * MiB);
    await publisher.publish(
      input({ videoFile: video, videoBytes: 4 * MiB, privacy: 'public' }),
      contextWith(fakes.tiktok.issueAccessToken()),
    );
    expect(fakes.tiktok.posts.at(-1)!.postInfo.privacy_level).toBe('SELF_ONLY');
    fakes.tiktok.accountPrivate = false;
    try {
      const failure = await publisher
        .publish(input({ videoFile: video, videoBytes: 4 * MiB }), contextWith(fakes.tiktok.issueAccessToken()))
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PlatformError);
      expect(failure).toMatchObject({ kind: 'rejected', message: PUBLISHING_MESSAGES.tiktokUnaudited });
    } finally {
      fakes.tiktok.accountPrivate = true;
    }
  });
});

describe('TikTok: the post, once audited', () => {
  it('keeps every digit of a 19-digit public post id, polling past moderation for it', async () => {
    expect(publicPostIds('{"data":{"publicaly_available_post_id":[7300000000000000001, 7300000000000000123]}}')).toEqual([
      '7300000000000000001',
      '7300000000000000123',
    ]);
    expect(publicPostIds('{"data":{"publicaly_available_post_id":[]}}')).toEqual([]);
    fakes.tiktok.audited = true;
    fakes.tiktok.moderationFetches = 3;
    try {
      const publisher = tiktokPublisher(fakes.tiktok.url, { audited: true });
      const outcome = await publisher.publish(
        input({ videoFile: await videoOf(2 * MiB), videoBytes: 2 * MiB, privacy: 'public' }),
        contextWith(fakes.tiktok.issueAccessToken(), JSON.stringify({ interactions: { comment: true, duet: true, stitch: false } })),
      );
      const post = fakes.tiktok.posts.at(-1)!;
      expect(post.postInfo.privacy_level).toBe('PUBLIC_TO_EVERYONE');
      const id = String(7_300_000_000_000_000_000n + BigInt(fakes.tiktok.posts.length));
      expect(outcome.remoteId).toBe(id);
      expect(outcome.url).toBe(`https://www.tiktok.com/@${fakes.tiktok.user.username}/video/${id}`);
      // The creator's choice, except what the account turned off (none here).
      expect(post.postInfo).toMatchObject({ disable_comment: false, disable_duet: false, disable_stitch: true });
    } finally {
      fakes.tiktok.audited = false;
      fakes.tiktok.moderationFetches = 1;
    }
  });

  it('never allows what the account turned off in TikTok, and allows nothing unless chosen', async () => {
    fakes.tiktok.disabled = { comment: true, duet: false, stitch: false };
    try {
      const publisher = tiktokPublisher(fakes.tiktok.url, { audited: false });
      const video = await videoOf(1 * MiB);
      await publisher.publish(
        input({ videoFile: video, videoBytes: MiB }),
        contextWith(fakes.tiktok.issueAccessToken(), JSON.stringify({ interactions: { comment: true, duet: true, stitch: true } })),
      );
      expect(fakes.tiktok.posts.at(-1)!.postInfo).toMatchObject({ disable_comment: true, disable_duet: false, disable_stitch: false });
      await publisher.publish(input({ videoFile: video, videoBytes: MiB }), contextWith(fakes.tiktok.issueAccessToken()));
      expect(fakes.tiktok.posts.at(-1)!.postInfo).toMatchObject({ disable_comment: true, disable_duet: true, disable_stitch: true });
    } finally {
      fakes.tiktok.disabled = { comment: false, duet: false, stitch: false };
    }
  });
});

describe('YouTube: captions need a name, uploads need the scope', () => {
  const captionsUpload = async (token: string, name: string) => {
    const video = fakes.google.videos.at(-1)!;
    const boundary = 'b0undary';
    const body = `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify({
      snippet: { videoId: video.id, language: 'en', name, isDraft: false },
    })}\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n1\r\n00:00:00,000 --> 00:00:01,000\r\nHi\r\n\r\n--${boundary}--\r\n`;
    return fetch(`${fakes.google.url}/upload/youtube/v3/captions?part=snippet&uploadType=multipart`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/related; boundary=${boundary}` },
      body,
    });
  };

  it('the fake refuses a caption track with an empty name (what the client sent before); the client names it in its language', async () => {
    const token = fakes.google.issueAccessToken();
    const publisher = youtubePublisher(fakes.google.url);
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nनमस्ते\n';
    const outcome = await publisher.publish(
      input({
        platform: 'youtube',
        privacy: 'public',
        videoFile: await videoOf(300_000),
        videoBytes: 300_000,
        captionsSrt: srt,
        language: 'hi',
      }),
      contextWith(token),
    );
    expect(outcome.warning).toBeUndefined();
    const video = fakes.google.videos.at(-1)!;
    expect(video.captions[0]!.snippet).toMatchObject({ language: 'hi', name: 'हिन्दी' });
    expect(captionTrackName('en')).toBe('English');
    expect(captionTrackName('pt-BR')).toMatch(/^Português/);
    const refused = await captionsUpload(token, '');
    expect(refused.status).toBe(400);
    expect((await captionsUpload(token, 'English')).status).toBe(200);
  });

  it('publishes the video when its captions fail, and says which extra failed', async () => {
    const publisher = youtubePublisher(fakes.google.url);
    fakes.google.failNext('/upload/youtube/v3/captions', 1, 400, {
      error: { code: 400, message: 'The caption track is malformed.', errors: [{ reason: 'invalidMetadata' }] },
    });
    const before = fakes.google.videos.length;
    const outcome = await publisher.publish(
      input({ platform: 'youtube', privacy: 'public', videoFile: await videoOf(100_000), videoBytes: 100_000, captionsSrt: '1\n' }),
      contextWith(fakes.google.issueAccessToken()),
    );
    expect(fakes.google.videos.length).toBe(before + 1);
    expect(outcome.url).toBe(`https://www.youtube.com/watch?v=${fakes.google.videos.at(-1)!.id}`);
    expect(outcome.warning).toBe(PUBLISHING_MESSAGES.youtubeCaptionsFailed('YouTube captions: The caption track is malformed.'));
  });

  it('the fake refuses an upload with a token whose upload scope was unticked; the connection says to reconnect and allow uploads', async () => {
    const publisher = youtubePublisher(fakes.google.url);
    const failure = await publisher
      .publish(
        input({ platform: 'youtube', privacy: 'public', videoFile: await videoOf(1000), videoBytes: 1000 }),
        contextWith(fakes.google.issueAccessToken(['youtube.readonly'])),
      )
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'rejected', message: PUBLISHING_MESSAGES.youtubeMissingUploadScope });
    expect(connectionProblem('youtube', 'https://www.googleapis.com/auth/youtube.readonly')).toBe(
      PUBLISHING_MESSAGES.youtubeMissingUploadScope,
    );
    expect(connectionProblem('youtube', 'https://www.googleapis.com/auth/youtube.upload')).toBeUndefined();
  });

  it('says when YouTube locked the upload private (an unverified API project)', async () => {
    fakes.google.projectVerified = false;
    try {
      const outcome = await youtubePublisher(fakes.google.url).publish(
        input({ platform: 'youtube', privacy: 'public', videoFile: await videoOf(1000), videoBytes: 1000 }),
        contextWith(fakes.google.issueAccessToken()),
      );
      expect(outcome.warning).toBe(PUBLISHING_MESSAGES.youtubeLockedPrivate);
    } finally {
      fakes.google.projectVerified = true;
    }
  });

  it('retries a rate limit after the backoff and waits for the quota day (midnight Pacific) on quotaExceeded', () => {
    const answer = (reason: string): PlatformResponse => ({
      status: 403,
      headers: new Headers(),
      text: '',
      json: { error: { code: 403, message: reason, errors: [{ reason }] } },
    });
    expect(youtubeError(answer('rateLimitExceeded'), 'YouTube upload')).toMatchObject({ kind: 'transient', retryAt: null });
    const quota = youtubeError(answer('quotaExceeded'), 'YouTube upload');
    expect(quota.kind).toBe('transient');
    expect(quota.retryAt).toBe(nextPacificMidnight().toISOString());
    // 2026-11-28 10:00 UTC is 02:00 in Los Angeles (PST, UTC-8): the next midnight there is 2026-11-29 08:00 UTC.
    expect(nextPacificMidnight(new Date('2026-11-28T10:00:00Z')).toISOString()).toBe('2026-11-29T08:00:00.000Z');
    // In summer (PDT, UTC-7): 2026-07-01 06:59 UTC is 23:59 on June 30 there.
    expect(nextPacificMidnight(new Date('2026-07-01T06:59:00Z')).toISOString()).toBe('2026-07-01T07:00:00.000Z');
  });
});

describe('Instagram: long-lived tokens refresh within their window', () => {
  const refresh = (token: string) =>
    fetch(`${fakes.instagram.url}/refresh_access_token?grant_type=ig_refresh_token&access_token=${encodeURIComponent(token)}`);

  async function longLivedToken(): Promise<string> {
    // The consent page's code, the short-lived token, then the long-lived one, as the client does.
    const authorize = await fetch(
      `${fakes.instagram.url}/oauth/authorize?client_id=${fakes.instagram.appId}&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&state=s`,
    );
    const code = /code=([^&"]+)/.exec(await authorize.text())![1]!;
    const short = (await (
      await fetch(`${fakes.instagram.url}/oauth/access_token`, {
        method: 'POST',
        body: new URLSearchParams({
          client_id: fakes.instagram.appId,
          client_secret: fakes.instagram.appSecret,
          grant_type: 'authorization_code',
          redirect_uri: 'http://127.0.0.1:9/cb',
          code: decodeURIComponent(code),
        }),
      })
    ).json()) as { data: { access_token: string }[] };
    const long = (await (
      await fetch(
        `${fakes.instagram.url}/access_token?grant_type=ig_exchange_token&client_secret=${fakes.instagram.appSecret}&access_token=${short.data[0]!.access_token}`,
      )
    ).json()) as { access_token: string };
    return long.access_token;
  }

  it('the fake refuses a refresh of a token under 24 hours old and takes one at day 59', async () => {
    const token = await longLivedToken();
    expect((await refresh(token)).status).toBe(400);
    fakes.instagram.ageTokens(59 * DAY);
    expect((await refresh(token)).status).toBe(200);
    fakes.instagram.ageTokens(2 * DAY);
    // Day 61: expired, nothing left to refresh.
    expect((await refresh(token)).status).toBe(400);
  });

  it('refreshes from 10 days before expiry, never within a day of issue', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const issued = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
    const expires = (daysAhead: number) => new Date(now + daysAhead * DAY).toISOString();
    expect(refreshDue(INSTAGRAM_REFRESH_WINDOW, issued(59), expires(1), now)).toBe(true);
    expect(refreshDue(INSTAGRAM_REFRESH_WINDOW, issued(51), expires(9), now)).toBe(true);
    expect(refreshDue(INSTAGRAM_REFRESH_WINDOW, issued(30), expires(30), now)).toBe(false);
    // A token that lives under 10 days is still not refreshed in its first day.
    expect(refreshDue(INSTAGRAM_REFRESH_WINDOW, issued(0.5), expires(5), now)).toBe(false);
  });

  it('retries throttling (codes 4, 17, 32, 613) and not a refused post', () => {
    const answer = (code: number): PlatformResponse => ({
      status: 400,
      headers: new Headers(),
      text: '',
      json: { error: { message: 'Application request limit reached', type: 'OAuthException', code } },
    });
    for (const code of [4, 17, 32, 613]) expect(graphApiError(answer(code), 'Instagram Reel container').kind).toBe('transient');
    expect(graphApiError(answer(100), 'Instagram Reel container').kind).toBe('rejected');
  });
});
