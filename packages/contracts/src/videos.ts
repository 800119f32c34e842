import { humanText } from './text.js';
import { z } from './zod.js';
import {
  captionStyleSchema,
  DURATIONS,
  durationSchema,
  jobStatusSchema,
  pipelineStepSchema,
  resolutionSchema,
  stepStatusSchema,
  storyStyleSchema,
  VIDEO_LANGUAGES,
  videoLanguageSchema,
  visualStyleSchema,
  voiceProviderSchema,
  zoomDirectionSchema,
} from './enums.js';
import { VALIDATION_MESSAGES as V } from './messages.js';
import { DEFAULT_MUSIC_CHOICE, musicChoiceSchema } from './music.js';
import { attributionSchema, sourceCreditSchema, sourceSchema, topicFromSource } from './source.js';
import { researchOutcomeSchema } from './research.js';

export const TOPIC_MAX_LENGTH = 500;

/**
 * How a video's captions come: 'burned' draws them into the picture (what `enableCaptions: true`
 * always did); 'file' renders the video without them, the caption files (SRT, WebVTT) being the way
 * to get them, as YouTube and TikTok prefer for accessibility and search.
 */
export const CAPTION_DELIVERIES = ['burned', 'file'] as const;
export const captionDeliverySchema = z.enum(CAPTION_DELIVERIES);
export type CaptionDelivery = z.infer<typeof captionDeliverySchema>;

export const CUSTOM_STYLE_MAX_LENGTH = 100;
export const CUSTOM_PROMPT_MAX_LENGTH = 2000;

/**
 * The studio form as the user edits it in the generation form.
 * Empty strings are allowed while editing; `generationFormSchema` says what is valid.
 */
export const generationFormSchema = z
  .object({
    topic: humanText(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, V.topicRequired),
          z.maxLength(TOPIC_MAX_LENGTH, `Topic must be at most ${TOPIC_MAX_LENGTH} characters`),
        ),
      'Topic',
    ),
    style: z.pipe(z.string().check(z.minLength(1, V.styleRequired)), storyStyleSchema),
    customStyle: z._default(
      z
        .string()
        .check(z.trim(), z.maxLength(CUSTOM_STYLE_MAX_LENGTH, `Custom style must be at most ${CUSTOM_STYLE_MAX_LENGTH} characters`)),
      '',
    ),
    language: z.pipe(z.string().check(z.minLength(1, V.languageRequired)), videoLanguageSchema),
    duration: z.pipe(z.coerce.number({ error: V.durationRequired }), durationSchema),
    voice: z.string().check(z.minLength(1, V.voiceRequired), z.maxLength(200)),
    visualStyle: visualStyleSchema,
    resolution: resolutionSchema,
    customPrompt: z._default(
      z.string().check(z.maxLength(CUSTOM_PROMPT_MAX_LENGTH, `Custom prompt must be at most ${CUSTOM_PROMPT_MAX_LENGTH} characters`)),
      '',
    ),
    enableZoom: z.boolean(),
    zoomDirection: zoomDirectionSchema,
    enableCaptions: z.boolean(),
    captionStyle: captionStyleSchema,
    /** With captions on: drawn into the video, or delivered as files beside a video without them. */
    captions: z._default(captionDeliverySchema, 'burned'),
    music: z._default(musicChoiceSchema, DEFAULT_MUSIC_CHOICE),
  })
  .check(
    z.superRefine((form, ctx) => {
      if (form.style === 'custom' && form.customStyle.trim() === '') {
        ctx.addIssue({ code: 'custom', path: ['customStyle'], message: V.customStyleRequired });
      }
    }),
  );
export type GenerationForm = z.input<typeof generationFormSchema>;

/** The server answers a missing choice with the form's "is required" text, not zod's generic one. */
const isMissing = (input: unknown): boolean => input === undefined || input === null || input === '';

const bodyLanguageSchema = z.enum(VIDEO_LANGUAGES, { error: (issue) => (isMissing(issue.input) ? V.languageRequired : undefined) });
const bodyDurationSchema = z.union([z.literal(30), z.literal(60), z.literal(90)], {
  error: (issue) => (isMissing(issue.input) ? V.durationRequired : `Duration must be one of ${DURATIONS.join(', ')} seconds`),
});

const bodyTopicSchema = humanText(
  // The schema's own error (missing topic) would otherwise name every check too: a long topic says how long it may be.
  z
    .string({ error: V.topicRequired })
    .check(
      z.trim(),
      z.minLength(1, V.topicRequired),
      z.maxLength(TOPIC_MAX_LENGTH, `Topic must be at most ${TOPIC_MAX_LENGTH} characters`),
    ),
  'Topic',
);

/** The body's fields without the custom style rule (zod refuses to extend a refined object). */
const generateVideoBodyShape = z.object({
  topic: bodyTopicSchema,
  style: humanText(
    z.string({ error: V.styleRequired }).check(z.trim(), z.minLength(1, V.styleRequired), z.maxLength(CUSTOM_STYLE_MAX_LENGTH)),
    'Style',
  ),
  language: bodyLanguageSchema,
  duration: bodyDurationSchema,
  voice: z.string({ error: V.voiceRequiredOnSubmit }).check(z.trim(), z.minLength(1, V.voiceRequiredOnSubmit), z.maxLength(200)),
  voiceProvider: z.optional(voiceProviderSchema),
  visualStyle: z._default(visualStyleSchema, 'cinematic'),
  resolution: z._default(resolutionSchema, '9:16'),
  customPrompt: z._default(humanText(z.string().check(z.maxLength(CUSTOM_PROMPT_MAX_LENGTH)), 'Custom prompt', { multiline: true }), ''),
  enableZoom: z._default(z.boolean(), true),
  zoomDirection: z._default(zoomDirectionSchema, 'in'),
  enableCaptions: z._default(z.boolean(), false),
  captionStyle: z._default(captionStyleSchema, 'tiktok'),
  /**
   * 'file': the MP4 without burned-in captions, GET /api/videos/:id/captions giving them as SRT or
   * WebVTT; 'burned' is `enableCaptions: true`. Absent, `enableCaptions` decides as it always did.
   */
  captions: z.optional(captionDeliverySchema),
  music: z._default(musicChoiceSchema, DEFAULT_MUSIC_CHOICE),
  /**
   * A topic-only request looks the topic up in the narration language's Wikipedia and tells the
   * video from a matching article, with Commons pictures; false writes it offline as before.
   * Absent means true (kept optional so jobs stored before it read as they were written).
   */
  research: z.optional(z.boolean()),
});

/**
 * POST /api/videos/generate body. On submit the client replaces style by customStyle when style is
 * custom, so `style` here is any non-empty text. A caller that sends style "custom" as is (an API
 * key script) may send customStyle beside it and gets the same substitution; without it the request
 * is refused with the form's message rather than narrated in a style literally named "custom".
 */
export const generateVideoBodySchema = z.pipe(
  z
    .extend(generateVideoBodyShape, {
      /** Optional with a source: its title (or first sentence) stands in. */
      topic: z.optional(bodyTopicSchema),
      customStyle: z.optional(
        humanText(
          z
            .string()
            .check(z.trim(), z.maxLength(CUSTOM_STYLE_MAX_LENGTH, `Custom style must be at most ${CUSTOM_STYLE_MAX_LENGTH} characters`)),
          'Custom style',
        ),
      ),
      /** A script, an article or a link to tell instead of writing around the topic. */
      source: z.optional(sourceSchema),
      // Without a default here, so a request saying both `captions` and the opposite `enableCaptions` is refused.
      enableCaptions: z.optional(z.boolean()),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.style === 'custom' && !body.customStyle) {
          ctx.addIssue({ code: 'custom', path: ['customStyle'], message: V.customStyleRequired });
        }
        if (body.captions !== undefined && body.enableCaptions !== undefined && body.enableCaptions !== (body.captions === 'burned')) {
          // One short message for both directions: this text is part of every client's first load.
          ctx.addIssue({ code: 'custom', path: ['captions'], message: 'enableCaptions contradicts captions: leave enableCaptions out' });
        }
      }),
      z.refine((body) => body.topic !== undefined || body.source !== undefined, {
        path: ['topic'],
        message: V.topicRequired,
        // Reported beside the other fields' issues, as a missing topic was before it became optional.
        when: ({ value }) => typeof value === 'object' && value !== null,
      }),
    ),
  z.transform(({ customStyle, topic, enableCaptions, ...body }) => ({
    ...body,
    enableCaptions: body.captions ? body.captions === 'burned' : (enableCaptions ?? false),
    // The refinement above guarantees a topic or a source.
    topic: topic ?? topicFromSource(body.source!),
    ...(body.style === 'custom' && customStyle ? { style: customStyle } : {}),
  })),
);
export type GenerateVideoBody = z.input<typeof generateVideoBodySchema>;
export type GenerationParams = z.output<typeof generateVideoBodySchema>;

/** Turns the edited form into the request body (a custom style's text replaces the style 'custom'). */
export function toGenerateVideoBody(
  form: z.output<typeof generationFormSchema>,
  voiceProvider?: z.infer<typeof voiceProviderSchema>,
  /** False when the creator chose "Don't look it up". */
  research = true,
): GenerationParams {
  return {
    topic: form.topic,
    style: form.style === 'custom' ? form.customStyle.trim() : form.style,
    language: form.language,
    duration: form.duration,
    voice: form.voice,
    ...(voiceProvider ? { voiceProvider } : {}),
    visualStyle: form.visualStyle,
    resolution: form.resolution,
    customPrompt: form.customPrompt,
    enableZoom: form.enableZoom,
    zoomDirection: form.zoomDirection,
    // Captions as files: the video is rendered without them (the request says so by `captions` alone).
    enableCaptions: form.enableCaptions && form.captions === 'burned',
    ...(form.enableCaptions && form.captions === 'file' ? { captions: 'file' as const } : {}),
    captionStyle: form.captionStyle,
    music: form.music,
    ...(research ? {} : { research: false }),
  };
}

export const generateVideoResponseSchema = z.object({
  jobId: z.string(),
  status: jobStatusSchema,
  message: z.string(),
});
export type GenerateVideoResponse = z.infer<typeof generateVideoResponseSchema>;

export const jobStepsSchema = z.object(
  Object.fromEntries(
    pipelineStepSchema.options.map((step) => [
      step,
      z.object({ status: stepStatusSchema, progress: z.number().check(z.gte(0), z.lte(100)) }),
    ]),
  ) as Record<z.infer<typeof pipelineStepSchema>, z.ZodMiniObject<{ status: typeof stepStatusSchema; progress: z.ZodMiniNumber }>>,
);
export type JobSteps = z.infer<typeof jobStepsSchema>;

/**
 * Who made a stock picture a video uses: Pexels and Unsplash ask that their photographers be
 * credited, so the credits travel with the video and My Videos shows them.
 */
export const STOCK_PHOTO_SOURCES = ['pexels', 'unsplash'] as const;
export const imageCreditSchema = z.object({
  source: z.enum(STOCK_PHOTO_SOURCES),
  /** The picture's id at its source: no picture is used twice in one video. */
  sourceId: z.string(),
  author: z.string(),
  authorUrl: z.string(),
  /** The picture's page at its source. */
  pageUrl: z.string(),
});
export type ImageCredit = z.infer<typeof imageCreditSchema>;

/** Artwork drawn into generated pictures whose licence asks for credit (Fluent Emoji, MIT). */
export const artworkCreditSchema = z.object({
  name: z.string(),
  author: z.string(),
  url: z.string(),
  licence: z.string(),
});
export type ArtworkCredit = z.infer<typeof artworkCreditSchema>;

/** A post's title, description and hashtags (post-kit.ts has the rules of the creator's edits). */
export const postKitSchema = z.object({
  title: z.string(),
  description: z.string(),
  hashtags: z.array(z.string()),
  /** When the creator last changed it (a re-render then keeps it rather than writing a new one). */
  editedAt: z.optional(z.string()),
});
export type PostKit = z.infer<typeof postKitSchema>;

export const videoResultSchema = z.object({
  videoUrl: z.string(),
  posterUrl: z.optional(z.string()),
  filename: z.string(),
  title: z.optional(z.string()),
  durationSeconds: z.optional(z.number()),
  width: z.optional(z.number().check(z.int())),
  height: z.optional(z.number().check(z.int())),
  sizeBytes: z.optional(z.number().check(z.int())),
  /** Which version of the video this is (1 for the first render; a storyboard render makes the next). */
  version: z.optional(z.number().check(z.int(), z.gte(1))),
  /** Stock pictures' photographers, one entry per picture used (none for generated pictures). */
  credits: z.optional(z.array(imageCreditSchema)),
  /** What the video is based on, for a video made from a script, an article or a link. */
  source: z.optional(sourceCreditSchema),
  /** Artwork sets the generated pictures draw on, credited as their licences ask. */
  artwork: z.optional(z.array(artworkCreditSchema)),
  /** Title, description and hashtags for posting it, in the narration's language (videos made before post kits have none). */
  post: z.optional(postKitSchema),
  /** What the creator should know about how the video was made: "Natural voices are downloading (43%): narrated with the basic voice instead of Heart." */
  notes: z.optional(z.array(z.string())),
  /** The Wikipedia article the video tells and the Commons pictures it shows, with their licences. */
  attributions: z.optional(z.array(attributionSchema)),
  /** Whether the video was told from Wikipedia, and if not, why (research off, unreachable, no article). */
  research: z.optional(researchOutcomeSchema),
});
export type VideoResult = z.infer<typeof videoResultSchema>;

export const videoJobSchema = z.object({
  id: z.string(),
  status: jobStatusSchema,
  progress: z.number().check(z.gte(0), z.lte(100)),
  currentStep: z.nullable(pipelineStepSchema),
  stepProgress: z.number().check(z.gte(0), z.lte(100)),
  params: z.extend(z.partial(z.extend(generateVideoBodyShape, { visualStyle: visualStyleSchema, resolution: resolutionSchema })), {
    // Plain strings in a response: the request's text checks are one-way transforms the serializer cannot encode.
    style: z.optional(z.string()),
    customPrompt: z.optional(z.string()),
    topic: z.string(),
    duration: z.number(),
    language: z.string(),
    /** What the video is based on; the source's text is not repeated in responses. */
    source: z.optional(sourceCreditSchema),
  }),
  created_at: z.string(),
  updated_at: z.optional(z.string()),
  result: z.nullable(videoResultSchema),
  error: z.nullable(z.string()),
  steps: jobStepsSchema,
  /**
   * False on a failed video that Retry would only fail again (it stopped its server twice while it
   * was made): clients offer a new video instead. Absent: Retry works as usual.
   */
  retryable: z.optional(z.boolean()),
});
export type VideoJob = z.infer<typeof videoJobSchema>;

export const listVideosQuerySchema = z.object({
  limit: z._default(
    z.coerce.number().check(z.int(), z.gte(1, 'limit must be between 1 and 100'), z.lte(100, 'limit must be between 1 and 100')),
    100,
  ),
});
export const listVideosResponseSchema = z.object({ jobs: z.array(videoJobSchema) });
export type ListVideosResponse = z.infer<typeof listVideosResponseSchema>;

export const jobIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const jobStatusResponseSchema = videoJobSchema;
export const videoResponseSchema = z.object({ job: videoJobSchema, result: z.nullable(videoResultSchema) });
export type VideoResponse = z.infer<typeof videoResponseSchema>;

export const deleteVideoResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['cancelled', 'deleted']),
  message: z.string(),
});

/** Spec: "a server object whose fields are not shown". These are the fields the admin dashboard reads. */
export const queueStatusSchema = z.object({
  running: z.boolean(),
  concurrency: z.number().check(z.int()),
  pending: z.number().check(z.int()),
  processing: z.number().check(z.int()),
  backend: z.enum(['embedded', 'bullmq']),
  jobs: z.object({
    total: z.number().check(z.int()),
    completed: z.number().check(z.int()),
    failed: z.number().check(z.int()),
    cancelled: z.number().check(z.int()),
  }),
});
export type QueueStatus = z.infer<typeof queueStatusSchema>;

export const storageStatsSchema = z.object({
  totalVideos: z.number().check(z.int()),
  /** Everything the account keeps: finished videos (every version) and uploaded pictures and music. */
  totalBytes: z.number().check(z.int()),
  /** The uploaded pictures and music among totalBytes. */
  uploadBytes: z.optional(z.number().check(z.int())),
  tierConfig: z.object({ description: z.string() }),
});
export type StorageStats = z.infer<typeof storageStatsSchema>;
