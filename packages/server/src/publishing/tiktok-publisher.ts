import { PUBLISHING_MESSAGES, type PublicationPrivacy } from '@reelsmith/contracts';
import { tiktokApiError } from './oauth-clients.js';
import { field, platformFetch, PlatformError, stringField } from './platform-http.js';
import { limitText, parseState, readRange, type PublishContext, type PublishInput, type Publisher } from './publisher.js';

const MB = 1024 * 1024;
/**
 * TikTok's media transfer guide (developers.tiktok.com/doc/content-posting-api-media-transfer-guide):
 * "total_chunk_count should be equal to video_size divided by chunk_size, rounded down"; "each chunk
 * must be at least 5 MB but no greater than 64 MB, except for the final chunk, which can be greater
 * than chunk_size (up to 128 MB)"; "videos with a total size less than 5 MB must be uploaded as a
 * whole". 10 MiB chunks; a file under two of them goes whole (5 MB to 64 MB is a valid single chunk),
 * so a 7 MiB file is one chunk of 7 MiB and a 23 MiB one is 10 + 13 MiB.
 */
export const TIKTOK_CHUNK_BYTES = 10 * MB;

export function tiktokChunks(size: number): { chunkSize: number; count: number } {
  if (size < 2 * TIKTOK_CHUNK_BYTES) return { chunkSize: size, count: 1 };
  return { chunkSize: TIKTOK_CHUNK_BYTES, count: Math.floor(size / TIKTOK_CHUNK_BYTES) };
}

/** TikTok's 403 for an app it has not audited posting anything but SELF_ONLY, or to a public account. */
export const TIKTOK_UNAUDITED_ERROR = 'unaudited_client_can_only_post_to_private_accounts';

/**
 * The ids in `publicaly_available_post_id`, digits intact: they are 64-bit integers in the JSON, which
 * JSON.parse rounds past 2^53 (7300000000000000001 would come back as 7300000000000000000).
 */
export function publicPostIds(text: string): string[] {
  const list = /"publicaly_available_post_id"\s*:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? '';
  return list
    .split(',')
    .map((item) => item.trim().replace(/^"|"$/g, ''))
    .filter((item) => /^\d+$/.test(item));
}

/** The creator's choices of what others may do with the post; TikTok's UX guidelines want none allowed unless chosen. */
export interface TikTokInteractions {
  comment: boolean;
  duet: boolean;
  stitch: boolean;
}

/** Ours to TikTok's, in order of preference; an unaudited app is offered SELF_ONLY only (privateOnly). */
const PRIVACY_LEVELS: Record<PublicationPrivacy, string[]> = {
  public: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'],
  unlisted: ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
  private: ['SELF_ONLY'],
};

interface TikTokState {
  publishId: string;
  uploaded: boolean;
  username: string;
  /** Set by the publishing route from the creator's choice; kept across restarts. */
  interactions: TikTokInteractions;
  /** TikTok said PUBLISH_COMPLETE: what remains is waiting for the public id after moderation. */
  complete: boolean;
}

export interface TikTokPublisherOptions {
  /** TIKTOK_APP_AUDITED: until TikTok audits the app, only SELF_ONLY posts from private accounts go through. */
  audited: boolean;
}

export function tiktokPublisher(apiUrl: string, options: TikTokPublisherOptions = { audited: false }): Publisher {
  const call = async (path: string, token: string, body: unknown, what: string) => {
    const response = await platformFetch('tiktok', `${apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200 || stringField(response.json, 'error', 'code') !== 'ok') {
      if (stringField(response.json, 'error', 'code') === TIKTOK_UNAUDITED_ERROR)
        throw new PlatformError('tiktok', 'rejected', PUBLISHING_MESSAGES.tiktokUnaudited, response.status);
      throw tiktokApiError(response, what);
    }
    return response;
  };

  async function uploadChunks(input: PublishInput, context: PublishContext, uploadUrl: string, chunkSize: number, count: number) {
    const total = input.videoBytes;
    for (let index = 0; index < count; index++) {
      const start = index * chunkSize;
      // The last chunk takes the trailing bytes (up to 128 MB).
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
      let privacyLevel: string | undefined;
      if (!state.publishId || !state.uploaded) {
        const creator = (await call('/v2/post/publish/creator_info/query/', await context.accessToken(), {}, 'TikTok creator info')).json;
        const offered = field(creator, 'data', 'privacy_level_options');
        const allowed = Array.isArray(offered) ? offered.filter((option): option is string => typeof option === 'string') : [];
        // creator_info lists PUBLIC_TO_EVERYONE to an unaudited app too, but its init refuses anything but SELF_ONLY.
        const wanted = options.audited ? PRIVACY_LEVELS[input.privacy] : ['SELF_ONLY'];
        privacyLevel = wanted.find((level) => allowed.includes(level));
        if (!privacyLevel)
          throw new PlatformError('tiktok', 'rejected', `TikTok offers this account only: ${allowed.join(', ') || 'no privacy level'}`);
        const maxSeconds = field(creator, 'data', 'max_video_post_duration_sec');
        if (typeof maxSeconds === 'number' && input.durationSeconds !== null && input.durationSeconds > maxSeconds)
          throw new PlatformError('tiktok', 'rejected', `TikTok takes videos up to ${maxSeconds} seconds from this account`);
        state.username = stringField(creator, 'data', 'creator_username') ?? input.account.name;
        // The creator's choice, and never what the account has turned off in TikTok (creator_info's *_disabled).
        const chosen = state.interactions ?? { comment: false, duet: false, stitch: false };
        const off = (name: string) => field(creator, 'data', `${name}_disabled`) === true;

        const { chunkSize, count } = tiktokChunks(input.videoBytes);
        const title = limitText([input.title, input.hashtags.join(' ')].filter(Boolean).join(' '), 2200);
        const init = (
          await call(
            '/v2/post/publish/video/init/',
            await context.accessToken(),
            {
              post_info: {
                title,
                privacy_level: privacyLevel,
                disable_comment: !chosen.comment || off('comment'),
                disable_duet: !chosen.duet || off('duet'),
                disable_stitch: !chosen.stitch || off('stitch'),
                video_cover_timestamp_ms: 1000,
                // TikTok's AI-generated content label.
                is_aigc: true,
              },
              source_info: { source: 'FILE_UPLOAD', video_size: input.videoBytes, chunk_size: chunkSize, total_chunk_count: count },
            },
            'TikTok upload start',
          )
        ).json;
        const publishId = stringField(init, 'data', 'publish_id');
        const uploadUrl = stringField(init, 'data', 'upload_url');
        if (!publishId || !uploadUrl) throw new PlatformError('tiktok', 'transient', 'TikTok upload start: no upload URL');
        state.publishId = publishId;
        state.uploaded = false;
        state.complete = false;
        await save();
        await context.report('uploading', 0);
        await uploadChunks(input, context, uploadUrl, chunkSize, count);
        state.uploaded = true;
        await save();
      }
      await context.report('processing', 100);
      const profile = `https://www.tiktok.com/@${encodeURIComponent(state.username ?? input.account.name)}`;
      // A private post never gets a public id; a public one gets it once moderation is done.
      const expectsPublicId = options.audited && input.privacy === 'public';
      for (let poll = 0; poll < context.maxPolls; poll++) {
        const status = await call(
          '/v2/post/publish/status/fetch/',
          await context.accessToken(),
          { publish_id: state.publishId },
          'TikTok status',
        );
        const value = stringField(status.json, 'data', 'status');
        if (value === 'PUBLISH_COMPLETE') {
          const postId = publicPostIds(status.text)[0];
          if (postId) return { remoteId: postId, url: `${profile}/video/${postId}` };
          if (!expectsPublicId) return { remoteId: state.publishId!, url: profile };
          if (!state.complete) {
            state.complete = true;
            await save();
          }
          // Published, in moderation: the id comes later; keep asking (bounded by maxPolls).
        } else if (value === 'FAILED') {
          const reason = stringField(status.json, 'data', 'fail_reason') ?? 'the post failed';
          // Nothing to resume: the next try starts over (the creator's choices stay).
          await context.saveRemoteState(JSON.stringify({ interactions: state.interactions }));
          // `internal` is TikTok's own trouble: worth another try later.
          throw new PlatformError('tiktok', reason === 'internal' ? 'transient' : 'rejected', `TikTok: ${reason}`);
        }
        await context.sleep(context.pollIntervalMs);
      }
      if (state.complete) {
        // Still in moderation after every poll: it is published; its own link is the profile until then.
        return { remoteId: state.publishId!, url: profile, warning: PUBLISHING_MESSAGES.tiktokInReview };
      }
      throw new PlatformError('tiktok', 'transient', 'TikTok is still processing the video');
    },
  };
}
