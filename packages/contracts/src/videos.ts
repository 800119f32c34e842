import { humanText } from './text.js';
import { z } from 'zod';
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

export const TOPIC_MAX_LENGTH = 500;
export const CUSTOM_STYLE_MAX_LENGTH = 100;
export const CUSTOM_PROMPT_MAX_LENGTH = 2000;

/**
 * The studio form as the user edits it (spec section 3, "Generation form").
 * Empty strings are allowed while editing; `generationFormSchema` says what is valid.
 */
export const generationFormSchema = z
  .object({
    topic: humanText(z.string().trim().min(1, V.topicRequired).max(TOPIC_MAX_LENGTH, `Topic must be at most ${TOPIC_MAX_LENGTH} characters`), 'Topic'),
    style: z.string().min(1, V.styleRequired).pipe(storyStyleSchema),
    customStyle: z.string().trim().max(CUSTOM_STYLE_MAX_LENGTH, `Custom style must be at most ${CUSTOM_STYLE_MAX_LENGTH} characters`).default(''),
    language: z.string().min(1, V.languageRequired).pipe(videoLanguageSchema),
    duration: z.coerce.number({ error: V.durationRequired }).pipe(durationSchema),
    voice: z.string().min(1, V.voiceRequired).max(200),
    visualStyle: visualStyleSchema,
    resolution: resolutionSchema,
    customPrompt: z.string().max(CUSTOM_PROMPT_MAX_LENGTH, `Custom prompt must be at most ${CUSTOM_PROMPT_MAX_LENGTH} characters`).default(''),
    enableZoom: z.boolean(),
    zoomDirection: zoomDirectionSchema,
    enableCaptions: z.boolean(),
    captionStyle: captionStyleSchema,
    music: musicChoiceSchema.default(DEFAULT_MUSIC_CHOICE),
  })
  .superRefine((form, ctx) => {
    if (form.style === 'custom' && form.customStyle.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['customStyle'], message: V.customStyleRequired });
    }
  });
export type GenerationForm = z.input<typeof generationFormSchema>;

/** The server answers a missing choice with the form's "is required" text, not zod's generic one. */
const isMissing = (input: unknown): boolean => input === undefined || input === null || input === '';

const bodyLanguageSchema = z.enum(VIDEO_LANGUAGES, { error: (issue) => (isMissing(issue.input) ? V.languageRequired : undefined) });
const bodyDurationSchema = z.union([z.literal(30), z.literal(60), z.literal(90)], {
  error: (issue) => (isMissing(issue.input) ? V.durationRequired : `Duration must be one of ${DURATIONS.join(', ')} seconds`),
});

/** The body's fields without the custom style rule (zod refuses to extend a refined object). */
const generateVideoBodyShape = z.object({
  topic: humanText(z.string({ error: V.topicRequired }).trim().min(1, V.topicRequired).max(TOPIC_MAX_LENGTH), 'Topic'),
  style: humanText(z.string({ error: V.styleRequired }).trim().min(1, V.styleRequired).max(CUSTOM_STYLE_MAX_LENGTH), 'Style'),
  language: bodyLanguageSchema,
  duration: bodyDurationSchema,
  voice: z.string({ error: V.voiceRequiredOnSubmit }).trim().min(1, V.voiceRequiredOnSubmit).max(200),
  voiceProvider: voiceProviderSchema.optional(),
  visualStyle: visualStyleSchema.default('cinematic'),
  resolution: resolutionSchema.default('9:16'),
  customPrompt: humanText(z.string().max(CUSTOM_PROMPT_MAX_LENGTH), 'Custom prompt', { multiline: true }).default(''),
  enableZoom: z.boolean().default(true),
  zoomDirection: zoomDirectionSchema.default('in'),
  enableCaptions: z.boolean().default(false),
  captionStyle: captionStyleSchema.default('tiktok'),
  music: musicChoiceSchema.default(DEFAULT_MUSIC_CHOICE),
});

/**
 * POST /api/videos/generate body. On submit the client replaces style by customStyle when style is
 * custom, so `style` here is any non-empty text. A caller that sends style "custom" as is (an API
 * key script) may send customStyle beside it and gets the same substitution; without it the request
 * is refused with the form's message rather than narrated in a style literally named "custom".
 */
export const generateVideoBodySchema = generateVideoBodyShape
  .extend({
    customStyle: humanText(z.string().trim().max(CUSTOM_STYLE_MAX_LENGTH, `Custom style must be at most ${CUSTOM_STYLE_MAX_LENGTH} characters`), 'Custom style').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.style === 'custom' && !body.customStyle) {
      ctx.addIssue({ code: 'custom', path: ['customStyle'], message: V.customStyleRequired });
    }
  })
  .transform(({ customStyle, ...body }) => (body.style === 'custom' && customStyle ? { ...body, style: customStyle } : body));
export type GenerateVideoBody = z.input<typeof generateVideoBodySchema>;
export type GenerationParams = z.output<typeof generateVideoBodySchema>;

/** Turns the edited form into the request body (custom style substitution of spec section 3). */
export function toGenerateVideoBody(form: z.output<typeof generationFormSchema>, voiceProvider?: z.infer<typeof voiceProviderSchema>): GenerationParams {
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
    enableCaptions: form.enableCaptions,
    captionStyle: form.captionStyle,
    music: form.music,
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
    pipelineStepSchema.options.map((step) => [step, z.object({ status: stepStatusSchema, progress: z.number().min(0).max(100) })]),
  ) as Record<z.infer<typeof pipelineStepSchema>, z.ZodObject<{ status: typeof stepStatusSchema; progress: z.ZodNumber }>>,
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

export const videoResultSchema = z.object({
  videoUrl: z.string(),
  posterUrl: z.string().optional(),
  filename: z.string(),
  title: z.string().optional(),
  durationSeconds: z.number().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  sizeBytes: z.number().int().optional(),
  /** Which version of the video this is (1 for the first render; a storyboard render makes the next). */
  version: z.number().int().min(1).optional(),
  /** Stock pictures' photographers, one entry per picture used (none for generated pictures). */
  credits: z.array(imageCreditSchema).optional(),
});
export type VideoResult = z.infer<typeof videoResultSchema>;

export const videoJobSchema = z.object({
  id: z.string(),
  status: jobStatusSchema,
  progress: z.number().min(0).max(100),
  currentStep: pipelineStepSchema.nullable(),
  stepProgress: z.number().min(0).max(100),
  params: generateVideoBodyShape.extend({ visualStyle: visualStyleSchema, resolution: resolutionSchema }).partial().extend({
    // Plain strings in a response: the request's text checks are one-way transforms the serializer cannot encode.
    style: z.string().optional(),
    customPrompt: z.string().optional(),
    topic: z.string(),
    duration: z.number(),
    language: z.string(),
  }),
  created_at: z.string(),
  updated_at: z.string().optional(),
  result: videoResultSchema.nullable(),
  error: z.string().nullable(),
  steps: jobStepsSchema,
});
export type VideoJob = z.infer<typeof videoJobSchema>;

export const listVideosQuerySchema = z.object({
  limit: z.coerce.number().int().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100').default(100),
});
export const listVideosResponseSchema = z.object({ jobs: z.array(videoJobSchema) });
export type ListVideosResponse = z.infer<typeof listVideosResponseSchema>;

export const jobIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const jobStatusResponseSchema = videoJobSchema;
export const videoResponseSchema = z.object({ job: videoJobSchema, result: videoResultSchema.nullable() });
export type VideoResponse = z.infer<typeof videoResponseSchema>;

export const deleteVideoResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['cancelled', 'deleted']),
  message: z.string(),
});

/** Spec: "a server object whose fields are not shown". These are the fields the admin dashboard reads. */
export const queueStatusSchema = z.object({
  running: z.boolean(),
  concurrency: z.number().int(),
  pending: z.number().int(),
  processing: z.number().int(),
  backend: z.enum(['embedded', 'bullmq']),
  jobs: z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int(), cancelled: z.number().int() }),
});
export type QueueStatus = z.infer<typeof queueStatusSchema>;

export const storageStatsSchema = z.object({
  totalVideos: z.number().int(),
  totalBytes: z.number().int(),
  tierConfig: z.object({ description: z.string() }),
});
export type StorageStats = z.infer<typeof storageStatsSchema>;
