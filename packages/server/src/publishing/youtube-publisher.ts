import { PUBLISHING_MESSAGES } from '@reelsmith/contracts';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { field, isTransientStatus, platformFetch, PlatformError, stringField, type PlatformResponse } from './platform-http.js';
import { limitText, parseState, readRange, type PublishContext, type PublishInput, type Publisher } from './publisher.js';

/** Bytes per PUT of the resumable upload: a multiple of 256 KiB, as YouTube asks of every chunk but the last. */
export const YOUTUBE_CHUNK_BYTES = 8 * 1024 * 1024;
/** Broken connections survived within one run before the queue's backoff takes over. */
const RESUMES_PER_RUN = 5;

interface YouTubeState {
  /** The resumable session URI (valid about a week). */
  sessionUrl: string;
  videoId: string;
  captions: boolean;
  thumbnail: boolean;
  /** What the creator should know of the extras (captions, thumbnail) or of a video YouTube kept private. */
  warnings: string[];
}

/**
 * When YouTube's daily quota comes back: "Daily quotas reset at midnight Pacific Time" (YouTube Data
 * API, quota and compliance audits). Midnight in America/Los_Angeles after `now`, daylight saving included.
 */
export function nextPacificMidnight(now = new Date()): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  const secondsIntoDay = Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  const guess = new Date(now.getTime() - secondsIntoDay * 1000 + 24 * 3600_000 - now.getMilliseconds());
  // A day of 23 or 25 hours (the clocks change): land on the hour that is 00 there.
  const hour = Number(
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', hour: '2-digit' }).format(guess),
  );
  return new Date(guess.getTime() - (hour === 23 ? -3600_000 : hour === 1 ? 3600_000 : 0));
}

/** YouTube's errors: `{error: {code, message, errors: [{reason}]}}`. */
export function youtubeError(response: PlatformResponse, what: string): PlatformError {
  const message = stringField(response.json, 'error', 'message') ?? `HTTP ${response.status}`;
  const errors = field(response.json, 'error', 'errors');
  const reason = Array.isArray(errors) ? stringField(errors[0], 'reason') : undefined;
  // Too many requests in a short time: worth another try after the backoff.
  if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded')
    return new PlatformError('youtube', 'transient', PUBLISHING_MESSAGES.youtubeRateLimited, response.status);
  // The project's daily quota is spent: nothing goes until it resets at midnight Pacific time.
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') {
    const retryAt = nextPacificMidnight();
    const error = new PlatformError('youtube', 'transient', PUBLISHING_MESSAGES.youtubeQuota(retryAt.toISOString()), response.status);
    error.retryAt = retryAt.toISOString();
    return error;
  }
  if (reason === 'insufficientPermissions')
    return new PlatformError('youtube', 'rejected', PUBLISHING_MESSAGES.youtubeMissingUploadScope, response.status);
  if (isTransientStatus(response.status)) return new PlatformError('youtube', 'transient', `${what}: ${message}`, response.status);
  if (response.status === 401) return new PlatformError('youtube', 'auth', PUBLISHING_MESSAGES.reconnect('youtube'), 401);
  return new PlatformError('youtube', 'rejected', `${what}: ${message}`, response.status);
}

/** The caption track's name, which captions.insert requires: the language's own name for it ("English", "हिन्दी"). */
export function captionTrackName(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language);
    if (name && name !== language) return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    // An unknown tag: its code names it.
  }
  return language;
}

/** YouTube's title refuses < and >; tags are the hashtags without their #. */
const cleanTitle = (title: string) => limitText(title.replace(/[<>]/g, ''), 100);

export function youtubeMetadata(input: PublishInput) {
  const hashtags = input.hashtags.join(' ');
  const description = limitText([input.description, hashtags].filter(Boolean).join('\n\n').replace(/[<>]/g, ''), 5000);
  return {
    snippet: {
      title: cleanTitle(input.title),
      description,
      tags: input.hashtags.map((tag) => tag.replace(/^#/, '')),
      defaultLanguage: input.language,
      defaultAudioLanguage: input.language,
    },
    status: {
      // YouTube publishes a scheduled video itself: it is uploaded private with its publishAt.
      privacyStatus: input.publishAt ? 'private' : input.privacy,
      ...(input.publishAt ? { publishAt: new Date(input.publishAt).toISOString() } : {}),
      selfDeclaredMadeForKids: false,
      // The narration, pictures and story are generated: YouTube's "altered or synthetic content".
      containsSyntheticMedia: true,
    },
  };
}

interface Uploaded {
  privacyStatus?: string | undefined;
  publishAt?: string | undefined;
}

export function youtubePublisher(apiUrl: string): Publisher {
  /** The video's id; what YouTube says of its privacy (its answer to the last byte) lands in `seen`, to see one it locked private. */
  const videoIdOf = (response: PlatformResponse, seen: Uploaded): string => {
    const videoId = stringField(response.json, 'id');
    if (!videoId) throw youtubeError(response, 'YouTube upload');
    seen.privacyStatus = stringField(response.json, 'status', 'privacyStatus');
    seen.publishAt = stringField(response.json, 'status', 'publishAt');
    return videoId;
  };

  async function startSession(input: PublishInput, token: string): Promise<string> {
    const response = await platformFetch('youtube', `${apiUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(input.videoBytes),
        'x-upload-content-type': 'video/mp4',
      },
      body: JSON.stringify(youtubeMetadata(input)),
    });
    const location = response.headers.get('location');
    if (response.status !== 200 || !location) throw youtubeError(response, 'YouTube upload start');
    return location;
  }

  /** Where the session stands: the next byte to send, or the video's id once YouTube has it all; null when the session is gone. */
  async function sessionStatus(
    sessionUrl: string,
    token: string,
    total: number,
    seen: Uploaded,
  ): Promise<{ next: number } | { videoId: string } | null> {
    const response = await platformFetch('youtube', sessionUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-length': '0', 'content-range': `bytes */${total}` },
    });
    if (response.status === 200 || response.status === 201) return { videoId: videoIdOf(response, seen) };
    if (response.status === 308) {
      const range = /bytes=0-(\d+)/.exec(response.headers.get('range') ?? '');
      return { next: range ? Number(range[1]) + 1 : 0 };
    }
    if (response.status === 404 || response.status === 410) return null;
    throw youtubeError(response, 'YouTube upload status');
  }

  /** Sends the bytes from `next` in chunks; a broken connection asks the session where it stands and goes on from there. */
  async function upload(
    input: PublishInput,
    context: PublishContext,
    sessionUrl: string,
    from: number,
    seen: Uploaded,
  ): Promise<string | null> {
    const total = input.videoBytes;
    let next = from;
    let resumes = 0;
    for (;;) {
      const length = Math.min(YOUTUBE_CHUNK_BYTES, total - next);
      const chunk = await readRange(input.videoFile, next, length);
      const token = await context.accessToken();
      let response: PlatformResponse;
      try {
        response = await platformFetch('youtube', sessionUrl, {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'video/mp4',
            'content-length': String(length),
            'content-range': `bytes ${next}-${next + length - 1}/${total}`,
          },
          body: chunk,
        });
      } catch (error) {
        if (!(error instanceof PlatformError) || error.kind !== 'transient' || resumes >= RESUMES_PER_RUN) throw error;
        resumes += 1;
        const status = await sessionStatus(sessionUrl, await context.accessToken(), total, seen);
        if (status === null) return null;
        if ('videoId' in status) return status.videoId;
        next = status.next;
        continue;
      }
      if (response.status === 200 || response.status === 201) return videoIdOf(response, seen);
      if (response.status === 308) {
        const range = /bytes=0-(\d+)/.exec(response.headers.get('range') ?? '');
        next = range ? Number(range[1]) + 1 : 0;
        await context.report('uploading', Math.floor((next / total) * 100));
        continue;
      }
      if (response.status === 404 || response.status === 410) return null;
      throw youtubeError(response, 'YouTube upload');
    }
  }

  async function insertCaptions(input: PublishInput, token: string, videoId: string): Promise<void> {
    const boundary = `reelsmith-${randomBytes(12).toString('hex')}`;
    const metadata = JSON.stringify({
      snippet: { videoId, language: input.language, name: captionTrackName(input.language), isDraft: false },
    });
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${metadata}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.from(input.captionsSrt ?? '', 'utf8'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await platformFetch('youtube', `${apiUrl}/upload/youtube/v3/captions?part=snippet&uploadType=multipart`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/related; boundary=${boundary}` },
      body,
    });
    if (response.status !== 200) throw youtubeError(response, 'YouTube captions');
  }

  /** A scheduled video's last chance, before its time: kept private (its publishAt cleared) or deleted. */
  async function cancelScheduled(videoId: string, mode: 'keep' | 'delete', token: string): Promise<void> {
    const response =
      mode === 'delete'
        ? await platformFetch('youtube', `${apiUrl}/youtube/v3/videos?id=${encodeURIComponent(videoId)}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${token}` },
          })
        : await platformFetch('youtube', `${apiUrl}/youtube/v3/videos?part=status`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
            // videos.update replaces the part whole: the publishAt left out is cleared, so it stays private.
            body: JSON.stringify({
              id: videoId,
              status: { privacyStatus: 'private', selfDeclaredMadeForKids: false, containsSyntheticMedia: true },
            }),
          });
    // Already gone on YouTube (deleted there): what cancelling wanted.
    if (response.status === 404 && mode === 'delete') return;
    if (response.status !== 200 && response.status !== 204) throw youtubeError(response, 'YouTube');
  }

  /** True when set; a channel not allowed custom thumbnails (403) keeps YouTube's own, which is not a failure. */
  async function setThumbnail(input: PublishInput, token: string, videoId: string): Promise<void> {
    if (!input.posterFile) return;
    const response = await platformFetch(
      'youtube',
      `${apiUrl}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: await readFile(input.posterFile),
      },
    );
    if (response.status === 200 || response.status === 403) return;
    throw youtubeError(response, 'YouTube thumbnail');
  }

  return {
    async publish(input, context) {
      const state: Partial<YouTubeState> = parseState<YouTubeState>(context.remoteState);
      const save = () => context.saveRemoteState(JSON.stringify(state));
      const uploaded: Uploaded = {};
      while (!state.videoId) {
        if (!state.sessionUrl) {
          state.sessionUrl = await startSession(input, await context.accessToken());
          await save();
          await context.report('uploading', 0);
          const videoId = await upload(input, context, state.sessionUrl, 0, uploaded);
          if (videoId) state.videoId = videoId;
          else delete state.sessionUrl;
        } else {
          // An earlier run stopped mid-upload: ask the session what it has and send the rest.
          const status = await sessionStatus(state.sessionUrl, await context.accessToken(), input.videoBytes, uploaded);
          if (status === null) delete state.sessionUrl;
          else if ('videoId' in status) state.videoId = status.videoId;
          else {
            const videoId = await upload(input, context, state.sessionUrl, status.next, uploaded);
            if (videoId) state.videoId = videoId;
            else delete state.sessionUrl;
          }
        }
        await save();
      }
      await context.report('processing', 100);
      state.warnings ??= [];
      // Asked public or unlisted (or scheduled) and YouTube answered private: an unverified API project.
      const asked = youtubeMetadata(input).status;
      if (uploaded.privacyStatus === 'private' && (asked.privacyStatus !== 'private' || (asked.publishAt && !uploaded.publishAt))) {
        state.warnings.push(PUBLISHING_MESSAGES.youtubeLockedPrivate);
        await save();
      }
      // The video is up: an extra that fails is said, never a reason to fail (and upload again).
      const extra = async (done: 'captions' | 'thumbnail', run: () => Promise<void>, warn: (reason: string) => string) => {
        if (state[done]) return;
        try {
          await run();
        } catch (error) {
          // A refused token: the runner refreshes it and this run resumes here.
          if (!(error instanceof PlatformError) || error.kind === 'auth') throw error;
          state.warnings!.push(warn(error.message));
        }
        state[done] = true;
        await save();
      };
      const videoId = state.videoId;
      if (input.captionsSrt)
        await extra(
          'captions',
          async () => insertCaptions(input, await context.accessToken(), videoId),
          PUBLISHING_MESSAGES.youtubeCaptionsFailed,
        );
      await extra(
        'thumbnail',
        async () => setThumbnail(input, await context.accessToken(), videoId),
        PUBLISHING_MESSAGES.youtubeThumbnailFailed,
      );
      return {
        remoteId: videoId,
        url: `https://www.youtube.com/watch?v=${videoId}`,
        ...(state.warnings.length > 0 ? { warning: state.warnings.join(' ') } : {}),
      };
    },
    cancelScheduled,
  };
}
