import { PUBLISHING_MESSAGES } from '@reelsmith/contracts';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isTransientStatus, platformFetch, PlatformError, stringField, type PlatformResponse } from './platform-http.js';
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
}

/** YouTube's errors: `{error: {code, message, errors: [{reason}]}}`. */
function youtubeError(response: PlatformResponse, what: string): PlatformError {
  const message = stringField(response.json, 'error', 'message') ?? `HTTP ${response.status}`;
  if (isTransientStatus(response.status)) return new PlatformError('youtube', 'transient', `${what}: ${message}`, response.status);
  if (response.status === 401) return new PlatformError('youtube', 'auth', PUBLISHING_MESSAGES.reconnect('youtube'), 401);
  return new PlatformError('youtube', 'rejected', `${what}: ${message}`, response.status);
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

export function youtubePublisher(apiUrl: string): Publisher {
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
  async function sessionStatus(sessionUrl: string, token: string, total: number): Promise<{ next: number } | { videoId: string } | null> {
    const response = await platformFetch('youtube', sessionUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-length': '0', 'content-range': `bytes */${total}` },
    });
    if (response.status === 200 || response.status === 201) {
      const videoId = stringField(response.json, 'id');
      if (!videoId) throw youtubeError(response, 'YouTube upload');
      return { videoId };
    }
    if (response.status === 308) {
      const range = /bytes=0-(\d+)/.exec(response.headers.get('range') ?? '');
      return { next: range ? Number(range[1]) + 1 : 0 };
    }
    if (response.status === 404 || response.status === 410) return null;
    throw youtubeError(response, 'YouTube upload status');
  }

  /** Sends the bytes from `next` in chunks; a broken connection asks the session where it stands and goes on from there. */
  async function upload(input: PublishInput, context: PublishContext, sessionUrl: string, from: number): Promise<string | null> {
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
        const status = await sessionStatus(sessionUrl, await context.accessToken(), total);
        if (status === null) return null;
        if ('videoId' in status) return status.videoId;
        next = status.next;
        continue;
      }
      if (response.status === 200 || response.status === 201) {
        const videoId = stringField(response.json, 'id');
        if (!videoId) throw youtubeError(response, 'YouTube upload');
        return videoId;
      }
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
    const metadata = JSON.stringify({ snippet: { videoId, language: input.language, name: '', isDraft: false } });
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
      while (!state.videoId) {
        if (!state.sessionUrl) {
          state.sessionUrl = await startSession(input, await context.accessToken());
          await save();
          await context.report('uploading', 0);
          const videoId = await upload(input, context, state.sessionUrl, 0);
          if (videoId) state.videoId = videoId;
          else delete state.sessionUrl;
        } else {
          // An earlier run stopped mid-upload: ask the session what it has and send the rest.
          const status = await sessionStatus(state.sessionUrl, await context.accessToken(), input.videoBytes);
          if (status === null) delete state.sessionUrl;
          else if ('videoId' in status) state.videoId = status.videoId;
          else {
            const videoId = await upload(input, context, state.sessionUrl, status.next);
            if (videoId) state.videoId = videoId;
            else delete state.sessionUrl;
          }
        }
        await save();
      }
      await context.report('processing', 100);
      if (input.captionsSrt && !state.captions) {
        await insertCaptions(input, await context.accessToken(), state.videoId);
        state.captions = true;
        await save();
      }
      if (!state.thumbnail) {
        await setThumbnail(input, await context.accessToken(), state.videoId);
        state.thumbnail = true;
        await save();
      }
      return { remoteId: state.videoId, url: `https://www.youtube.com/watch?v=${state.videoId}` };
    },
  };
}
