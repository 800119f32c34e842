import { humanText } from './text.js';
import { z } from './zod.js';

/**
 * Publishing a finished video with the creator's own accounts: the connections (OAuth 2.0 with each
 * platform) and the publications (one durable record per video and platform). Only the lazily loaded
 * screens (Settings → Connections, the Publish dialog) use these, so they live apart from videos.ts.
 */
export const PLATFORMS = ['youtube', 'tiktok', 'instagram'] as const;
export const platformSchema = z.enum(PLATFORMS, { error: 'platform must be youtube, tiktok or instagram' });
export type Platform = z.infer<typeof platformSchema>;

export const PLATFORM_NAMES: Record<Platform, string> = { youtube: 'YouTube', tiktok: 'TikTok', instagram: 'Instagram' };

/** What each platform takes, shown in the Publish dialog before anything is sent and checked by the server. */
export interface PlatformConstraints {
  titleMaxLength: number | null;
  /** The description (YouTube) or the caption (TikTok's title field, Instagram's caption), hashtags included. */
  textMaxLength: number;
  hashtagsMax: number;
  maxDurationSeconds: number;
  /** Aspect ratios the platform shows without bars. */
  aspectRatios: readonly string[];
  privacyOptions: readonly PublicationPrivacy[];
  /** Scheduling on the platform's side, or at Reelsmith's (the server publishes at the time). */
  note: string;
}

export const PRIVACY_OPTIONS = ['public', 'unlisted', 'private'] as const;
export const publicationPrivacySchema = z.enum(PRIVACY_OPTIONS, { error: 'privacy must be public, unlisted or private' });
export type PublicationPrivacy = z.infer<typeof publicationPrivacySchema>;

export const PLATFORM_CONSTRAINTS: Record<Platform, PlatformConstraints> = {
  youtube: {
    titleMaxLength: 100,
    textMaxLength: 5000,
    hashtagsMax: 15,
    maxDurationSeconds: 180,
    aspectRatios: ['9:16', '1:1', '16:9'],
    privacyOptions: ['public', 'unlisted', 'private'],
    note: 'Up to 3 minutes and square or vertical: a Short. The captions file and the poster (where the channel allows custom thumbnails) go with it.',
  },
  tiktok: {
    titleMaxLength: null,
    textMaxLength: 2200,
    hashtagsMax: 30,
    maxDurationSeconds: 600,
    aspectRatios: ['9:16'],
    privacyOptions: ['public', 'unlisted', 'private'],
    note: 'Until TikTok audits this server’s app, every post is private (only you can see it) and your TikTok account must be private too. Unlisted means friends only.',
  },
  instagram: {
    titleMaxLength: null,
    textMaxLength: 2200,
    hashtagsMax: 30,
    maxDurationSeconds: 900,
    aspectRatios: ['9:16', '1:1'],
    privacyOptions: ['public'],
    note: 'Posted as a Reel on a professional (business or creator) account; Reels are public.',
  },
};

/** A scheduled publication is at most this far ahead. */
export const PUBLISH_AT_MAX_DAYS = 183;
const PUBLISH_AT_MAX_MS = PUBLISH_AT_MAX_DAYS * 24 * 60 * 60 * 1000;

export const PUBLISHING_MESSAGES = {
  notConfigured: (platform: Platform) => `${PLATFORM_NAMES[platform]} is not set up on this server.`,
  notConnected: (platform: Platform) => `Connect ${PLATFORM_NAMES[platform]} in Settings → Connections first.`,
  reconnect: (platform: Platform) => `reconnect ${PLATFORM_NAMES[platform]}: its permission ended or was withdrawn`,
  stateInvalid: 'This connection link has expired or was already used. Start connecting again from Settings.',
  otherBrowser: 'This connection was started in another browser. Start connecting again from Settings in this browser.',
  consentDenied: (platform: Platform) => `${PLATFORM_NAMES[platform]} did not give permission, so nothing was connected.`,
  notFinished: 'Only a finished video can be published.',
  alreadyPublishing: (platform: Platform) =>
    `This video is already published or on its way to ${PLATFORM_NAMES[platform]}. Cancel that one first to publish it again.`,
  publishAtPast: 'Pick a time in the future to schedule the post.',
  publishAtTooFar: `A post can be scheduled at most ${PUBLISH_AT_MAX_DAYS} days (6 months) ahead.`,
  onlyScheduledCancel: 'Only a publication that has not started yet can be cancelled.',
  tooLong: (platform: Platform, seconds: number) => `${PLATFORM_NAMES[platform]} takes videos up to ${seconds} seconds.`,
  privacyUnsupported: (platform: Platform) => `${PLATFORM_NAMES[platform]} does not offer that privacy setting.`,
  platformUnavailable: (platform: Platform) => `${PLATFORM_NAMES[platform]} did not answer; try again in a few minutes.`,
  tiktokUnaudited:
    'TikTok takes only private posts from private accounts until it has audited this app: make your TikTok account private (Settings and privacy → Privacy → Private account), choose Private, and try again.',
  tiktokPrivateOnly: 'Until TikTok audits this app, posts to TikTok can only be private.',
  tiktokInReview: 'TikTok is still reviewing the post: its own link appears on your profile once TikTok makes it public.',
  youtubeMissingUploadScope: 'Reconnect YouTube and allow uploads: the permission to upload videos was not given when it was connected.',
  youtubeScheduledPrivacy:
    'A scheduled YouTube video is uploaded private and YouTube makes it public at the time: choose Public to schedule it.',
  youtubeQuota: (retryAt: string) =>
    `YouTube's daily upload allowance for this server is used up; it will be tried again when it renews (${retryAt}, midnight Pacific time).`,
  youtubeRateLimited: 'YouTube asked us to slow down; it will be tried again in a few minutes.',
  youtubeLockedPrivate:
    'YouTube kept the video private: this server’s Google API project has not been verified (audited) by Google yet, so every upload through it is private.',
  youtubeUnverifiedNotice:
    'Until Google verifies this server’s API project, YouTube keeps every video uploaded through it private: you can make it public in YouTube Studio.',
  youtubeCaptionsFailed: (reason: string) => `Published, but the captions could not be added: ${reason}`,
  youtubeThumbnailFailed: (reason: string) => `Published, but the poster could not be set as the thumbnail: ${reason}`,
  youtubeHolding: (at: string) => `Uploaded, private until ${at}: YouTube makes it public then.`,
  youtubeCancelTooLate: 'YouTube has already made this video public: delete it on YouTube if you no longer want it.',
  youtubeKeptPrivate: 'Kept private on YouTube: it will not go public.',
  youtubeDeleted: 'Deleted from YouTube.',
  instagramThrottled: 'Instagram asked us to slow down; it will be tried again in a few minutes.',
  connectionFailed: (platform: Platform) =>
    `${PLATFORM_NAMES[platform]} could not be connected: the account could not be read. Try again, or connect another account.`,
  noYouTubeChannel: 'This Google account has no YouTube channel: create one on YouTube first, then connect again.',
} as const;

/**
 * Why connecting failed, as the callback's redirect names it (`/settings?connectionError=<code>&platform=…`):
 * Settings shows only our own message for a code, so no text in the address (a platform's
 * error_description, a link someone crafted) is ever shown on our origin.
 */
export const CONNECTION_ERROR_CODES = [
  'not-configured',
  'state-invalid',
  'other-browser',
  'consent-denied',
  'platform-unavailable',
  'missing-upload-scope',
  'no-channel',
  'failed',
] as const;
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

/** The message Settings shows for a connection error code; anything else is the generic failure. */
export function connectionErrorMessage(code: string | null, platformName: string | null): string {
  const parsed = platformSchema.safeParse(platformName);
  const platform: Platform | null = parsed.success ? parsed.data : null;
  const name = platform ? PLATFORM_NAMES[platform] : 'The platform';
  switch ((CONNECTION_ERROR_CODES as readonly string[]).includes(code ?? '') ? (code as ConnectionErrorCode) : 'failed') {
    case 'not-configured':
      return platform ? PUBLISHING_MESSAGES.notConfigured(platform) : `${name} is not set up on this server.`;
    case 'state-invalid':
      return PUBLISHING_MESSAGES.stateInvalid;
    case 'other-browser':
      return PUBLISHING_MESSAGES.otherBrowser;
    case 'consent-denied':
      return platform ? PUBLISHING_MESSAGES.consentDenied(platform) : `${name} did not give permission, so nothing was connected.`;
    case 'platform-unavailable':
      return platform ? PUBLISHING_MESSAGES.platformUnavailable(platform) : `${name} did not answer; try again in a few minutes.`;
    case 'missing-upload-scope':
      return PUBLISHING_MESSAGES.youtubeMissingUploadScope;
    case 'no-channel':
      return PUBLISHING_MESSAGES.noYouTubeChannel;
    case 'failed':
      return platform ? PUBLISHING_MESSAGES.connectionFailed(platform) : 'The account could not be connected. Try again from Settings.';
  }
}

export const platformParamsSchema = z.object({ platform: platformSchema });

export const connectionSchema = z.object({
  platform: platformSchema,
  connected: z.boolean(),
  /** The account posts go to (a YouTube channel, a TikTok or Instagram user). */
  account: z.nullable(z.object({ id: z.string(), name: z.string() })),
  connectedAt: z.nullable(z.string()),
  /** The platform refused the stored permission (revoked or expired): the creator must connect again. */
  needsReconnect: z.boolean(),
  /** What is missing for publishing to work (a permission unticked on the consent page): connect again. */
  problem: z.optional(z.string()),
  /** The privacy settings this connection can post with now (TikTok: private only until the app is audited). */
  privacyOptions: z.optional(z.array(publicationPrivacySchema)),
  /** What the creator should know about this platform on this server (YouTube: unverified projects upload private). */
  notice: z.optional(z.string()),
});
export type Connection = z.infer<typeof connectionSchema>;

/** GET /api/connections: only the platforms this server has a client id for. */
export const connectionsResponseSchema = z.object({ connections: z.array(connectionSchema) });
export type ConnectionsResponse = z.infer<typeof connectionsResponseSchema>;

/** GET /api/connections/:platform/start: where to send the browser (state and PKCE are in it). */
export const connectionStartResponseSchema = z.object({ url: z.string() });

/** GET /api/connections/:platform/callback: what the platform sends back to the redirect URI. */
export const connectionCallbackQuerySchema = z.object({
  code: z.optional(z.string().check(z.maxLength(2048))),
  state: z.optional(z.string().check(z.maxLength(256))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(2048))),
  // Google adds these; TikTok adds `scopes`. Accepted and ignored.
  scope: z.optional(z.string().check(z.maxLength(2048))),
  scopes: z.optional(z.string().check(z.maxLength(2048))),
  authuser: z.optional(z.string().check(z.maxLength(32))),
  prompt: z.optional(z.string().check(z.maxLength(64))),
});

export const disconnectResponseSchema = z.object({ success: z.literal(true) });

export const PUBLICATION_STATUSES = ['queued', 'uploading', 'processing', 'published', 'failed', 'cancelled'] as const;
export const publicationStatusSchema = z.enum(PUBLICATION_STATUSES);
export type PublicationStatus = z.infer<typeof publicationStatusSchema>;

const HASHTAG = /^#[\p{L}\p{M}\p{N}_]{1,99}$/u;
/** A date and time with its offset (Z or ±hh:mm); a regex rather than zod's ISO checks, which would join the first load's shared chunk. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export const publishPlatformSchema = z.object({
  platform: platformSchema,
  title: z.optional(humanText(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)), 'The title')),
  description: z.optional(humanText(z.string().check(z.maxLength(5000)), 'The description', { multiline: true })),
  hashtags: z.optional(
    z
      .array(
        z.string().check(
          z.trim(),
          z.refine((tag) => HASHTAG.test(tag), 'A hashtag is # and then letters, digits or _'),
        ),
      )
      .check(z.maxLength(30)),
  ),
  privacy: z.optional(publicationPrivacySchema),
  /** TikTok: what others may do with the post (none unless chosen, as TikTok's guidelines ask; the account's own settings win). */
  allowComments: z.optional(z.boolean()),
  allowDuet: z.optional(z.boolean()),
  allowStitch: z.optional(z.boolean()),
  /** ISO 8601 with an offset; absent: now. */
  publishAt: z.optional(
    z.string().check(
      z.refine(
        (at) => ISO_DATE_TIME.test(at) && !Number.isNaN(Date.parse(at)),
        // abort: a value that is no date gets this message alone.
        { error: 'publishAt must be an ISO 8601 date and time with its offset, e.g. 2026-12-01T18:00:00Z', abort: true },
      ),
      z.refine((at) => Date.parse(at) > Date.now() - 60_000, PUBLISHING_MESSAGES.publishAtPast),
      z.refine((at) => Date.parse(at) <= Date.now() + PUBLISH_AT_MAX_MS, PUBLISHING_MESSAGES.publishAtTooFar),
    ),
  ),
});
export type PublishPlatform = z.input<typeof publishPlatformSchema>;

/** POST /api/videos/:id/publish. */
export const publishBodySchema = z.object({
  platforms: z.array(publishPlatformSchema).check(
    z.minLength(1, 'platforms must name at least one platform'),
    z.refine((list) => new Set(list.map((entry) => entry.platform)).size === list.length, 'Each platform may appear only once'),
  ),
});
export type PublishBody = z.input<typeof publishBodySchema>;

export const publicationSchema = z.object({
  id: z.string(),
  videoId: z.string(),
  platform: platformSchema,
  status: publicationStatusSchema,
  title: z.string(),
  description: z.string(),
  hashtags: z.array(z.string()),
  privacy: publicationPrivacySchema,
  /** When it goes out (null: as soon as possible). */
  publishAt: z.nullable(z.string()),
  /** 0-100 while uploading. */
  progress: z.number(),
  /** The post on the platform, once published. */
  url: z.nullable(z.string()),
  /** The platform's reason when it failed. */
  error: z.nullable(z.string()),
  /**
   * Published, with something to know: an extra that did not go (captions, thumbnail), a video YouTube
   * kept private, or how a cancelled scheduled YouTube video was left (kept private, deleted).
   */
  warning: z.optional(z.string()),
  attempts: z.number().check(z.int()),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.nullable(z.string()),
});
export type Publication = z.infer<typeof publicationSchema>;

export const publicationsResponseSchema = z.object({ publications: z.array(publicationSchema) });
export type PublicationsResponse = z.infer<typeof publicationsResponseSchema>;
export const publicationIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const cancelPublicationResponseSchema = z.object({ publication: publicationSchema });
/**
 * DELETE /api/publications/:id: a publication not started yet is cancelled; a YouTube video uploaded
 * for a time (private until then) is kept private (`keep`, the default) or deleted from YouTube.
 */
export const cancelPublicationQuerySchema = z.object({ youtube: z.optional(z.enum(['keep', 'delete'])) });

/** The socket event (user room) each change of a publication sends. */
export const PUBLICATION_SOCKET_EVENT = 'publication_progress';
export const publicationProgressEventSchema = publicationSchema;
export type PublicationProgressEvent = Publication;
