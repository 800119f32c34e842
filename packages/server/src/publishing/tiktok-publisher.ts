import type { PublicationPrivacy } from '@reelsmith/contracts';
import { tiktokApiError } from './oauth-clients.js';
import { field, platformFetch, PlatformError, stringField } from './platform-http.js';
import { limitText, parseState, readRange, type PublishContext, type PublishInput, type Publisher } from './publisher.js';

const MB = 1024 * 1024;
/** TikTok's chunk rules: 5-64 MB each (the last may hold the remainder, up to 128 MB); under 5 MB, one chunk. */
export const TIKTOK_CHUNK_BYTES = 10 * MB;
const MIN_CHUNK_BYTES = 5 * MB;

export function tiktokChunks(size: number): { chunkSize: number; count: number } {
  if (size < MIN_CHUNK_BYTES) return { chunkSize: size, count: 1 };
  // The count is the size divided by the chunk size, rounded down: the last chunk takes the trailing bytes.
  return { chunkSize: TIKTOK_CHUNK_BYTES, count: Math.max(1, Math.floor(size / TIKTOK_CHUNK_BYTES)) };
}

/** Ours to TikTok's; unaudited apps are offered SELF_ONLY only, which every choice falls back to. */
const PRIVACY_LEVELS: Record<PublicationPrivacy, string[]> = {
  public: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'],
  unlisted: ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
  private: ['SELF_ONLY'],
};

interface TikTokState {
  publishId: string;
  uploaded: boolean;
  username: string;
}

export function tiktokPublisher(apiUrl: string): Publisher {
  const call = async (path: string, token: string, body: unknown, what: string) => {
    const response = await platformFetch('tiktok', `${apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200 || stringField(response.json, 'error', 'code') !== 'ok') throw tiktokApiError(response, what);
    return response.json;
  };

  async function uploadChunks(input: PublishInput, context: PublishContext, uploadUrl: string, chunkSize: number, count: number) {
    const total = input.videoBytes;
    for (let index = 0; index < count; index++) {
      const start = index * chunkSize;
      const end = index === count - 1 ? total - 1 : start + chunkSize - 1;
      const chunk = await readRange(input.videoFile, start, end - start + 1);
      const response = await platformFetch('tiktok', uploadUrl, {
        method: 'PUT',
        headers: {
          'content-type': 'video/mp4',
          'content-length': String(chunk.length),
          'content-range': `bytes ${start}-${end}/${total}`,
        },
        body: chunk,
      });
      // 206 for each chunk but the last, 201 once the file is whole.
      if (response.status !== 206 && response.status !== 201) throw tiktokApiError(response, 'TikTok upload');
      await context.report('uploading', Math.floor(((end + 1) / total) * 100));
    }
  }

  return {
    async publish(input, context) {
      const state: Partial<TikTokState> = parseState<TikTokState>(context.remoteState);
      const save = () => context.saveRemoteState(JSON.stringify(state));
      if (!state.publishId || !state.uploaded) {
        const creator = await call('/v2/post/publish/creator_info/query/', await context.accessToken(), {}, 'TikTok creator info');
        const options = field(creator, 'data', 'privacy_level_options');
        const allowed = Array.isArray(options) ? options.filter((option): option is string => typeof option === 'string') : [];
        const privacyLevel = PRIVACY_LEVELS[input.privacy].find((level) => allowed.includes(level));
        if (!privacyLevel)
          throw new PlatformError('tiktok', 'rejected', `TikTok offers this account only: ${allowed.join(', ') || 'no privacy level'}`);
        const maxSeconds = field(creator, 'data', 'max_video_post_duration_sec');
        if (typeof maxSeconds === 'number' && input.durationSeconds !== null && input.durationSeconds > maxSeconds)
          throw new PlatformError('tiktok', 'rejected', `TikTok takes videos up to ${maxSeconds} seconds from this account`);
        state.username = stringField(creator, 'data', 'creator_username') ?? input.account.name;

        const { chunkSize, count } = tiktokChunks(input.videoBytes);
        const title = limitText([input.title, input.hashtags.join(' ')].filter(Boolean).join(' '), 2200);
        const init = await call(
          '/v2/post/publish/video/init/',
          await context.accessToken(),
          {
            post_info: {
              title,
              privacy_level: privacyLevel,
              disable_duet: false,
              disable_comment: false,
              disable_stitch: false,
              video_cover_timestamp_ms: 1000,
              // TikTok's AI-generated content label.
              is_aigc: true,
            },
            source_info: { source: 'FILE_UPLOAD', video_size: input.videoBytes, chunk_size: chunkSize, total_chunk_count: count },
          },
          'TikTok upload start',
        );
        const publishId = stringField(init, 'data', 'publish_id');
        const uploadUrl = stringField(init, 'data', 'upload_url');
        if (!publishId || !uploadUrl) throw new PlatformError('tiktok', 'transient', 'TikTok upload start: no upload URL');
        state.publishId = publishId;
        state.uploaded = false;
        await save();
        await context.report('uploading', 0);
        await uploadChunks(input, context, uploadUrl, chunkSize, count);
        state.uploaded = true;
        await save();
      }
      await context.report('processing', 100);
      for (let poll = 0; poll < context.maxPolls; poll++) {
        const status = await call(
          '/v2/post/publish/status/fetch/',
          await context.accessToken(),
          { publish_id: state.publishId },
          'TikTok status',
        );
        const value = stringField(status, 'data', 'status');
        if (value === 'PUBLISH_COMPLETE') {
          const ids = field(status, 'data', 'publicaly_available_post_id');
          const postId = Array.isArray(ids) && ids.length > 0 ? String(ids[0]) : null;
          const profile = `https://www.tiktok.com/@${encodeURIComponent(state.username ?? input.account.name)}`;
          // A private post (SELF_ONLY) has no public id: the link is the creator's profile, where they see it.
          return { remoteId: postId ?? state.publishId!, url: postId ? `${profile}/video/${postId}` : profile };
        }
        if (value === 'FAILED') {
          // Nothing to resume: the next try (if the creator asks again) starts over.
          await context.saveRemoteState(null);
          throw new PlatformError('tiktok', 'rejected', `TikTok: ${stringField(status, 'data', 'fail_reason') ?? 'the post failed'}`);
        }
        await context.sleep(context.pollIntervalMs);
      }
      throw new PlatformError('tiktok', 'transient', 'TikTok is still processing the video');
    },
  };
}
