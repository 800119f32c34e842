import { z } from './zod.js';
import { pipelineStepSchema } from './enums.js';
import { attributionSchema, sourceCreditSchema } from './source.js';
import { batchCountsSchema } from './batch-status.js';

/** Developer API: API keys, webhooks and embed sessions. */

export const API_KEY_NAME_MAX_LENGTH = 100;

export const createApiKeyBodySchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Name is required'),
      z.maxLength(API_KEY_NAME_MAX_LENGTH, `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters`),
    ),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The only response that carries a new key's secret: it is stored hashed and never shown again. */
export const createApiKeyResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
});
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponseSchema>;

export const apiKeyIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const revokeApiKeyResponseSchema = z.object({ success: z.literal(true) });

export const WEBHOOK_EVENT_TYPES = [
  'video.completed',
  'video.failed',
  'batch.completed',
  'publication.published',
  'publication.failed',
] as const;
/** The events about one video (the body's `data` is a video's, a publication's naming its platform); `batch.completed` has its own body (batches.ts). */
export const VIDEO_WEBHOOK_EVENT_TYPES = ['video.completed', 'video.failed', 'publication.published', 'publication.failed'] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

export const WEBHOOK_SIGNATURE_HEADER = 'reelsmith-signature';

export const createWebhookBodySchema = z.object({
  url: z.pipe(
    z.string({ error: 'url is required' }).check(z.trim(), z.maxLength(2000, 'url must be at most 2000 characters')),
    z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  ),
  events: z
    .array(webhookEventTypeSchema, {
      error:
        "events must list any of 'video.completed', 'video.failed', 'batch.completed', 'publication.published' and 'publication.failed'",
    })
    .check(z.minLength(1, 'events must name at least one event type')),
});
export type CreateWebhookBody = z.input<typeof createWebhookBodySchema>;

/** The signing secret appears here only. */
export const createWebhookResponseSchema = z.object({ id: z.string(), secret: z.string() });

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhooksResponseSchema = z.object({ webhooks: z.array(webhookSchema) });
export const webhookIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const deleteWebhookResponseSchema = z.object({ success: z.literal(true) });

export const webhookDeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']);
export const webhookAttemptSchema = z.object({
  attempt: z.number().check(z.int()),
  at: z.string(),
  /** The receiver's HTTP status; null when no response came (refused, timed out). */
  statusCode: z.nullable(z.number().check(z.int())),
  error: z.nullable(z.string()),
  durationMs: z.number().check(z.int()),
});
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: webhookEventTypeSchema,
  status: webhookDeliveryStatusSchema,
  attempts: z.array(webhookAttemptSchema),
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesResponseSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

/** The body POSTed to a webhook URL. */
export const webhookEventSchema = z.object({
  id: z.string(),
  type: z.enum(VIDEO_WEBHOOK_EVENT_TYPES),
  createdAt: z.string(),
  data: z.object({
    jobId: z.string(),
    /**
     * Which render of the video this event is about: 1 for the first, 2 and up for storyboard
     * re-renders. Always sent; optional only so deliveries stored before it existed still verify.
     */
    version: z.optional(z.number().check(z.int(), z.gte(1))),
    status: z.enum(['completed', 'failed', 'published']),
    /** publication.published / publication.failed: which platform, the post's address or the platform's reason. */
    publication: z.optional(z.object({ id: z.string(), platform: z.string(), url: z.optional(z.string()), error: z.optional(z.string()) })),
    /** Absolute (PUBLIC_URL), like the embed's events. */
    videoUrl: z.optional(z.string()),
    posterUrl: z.optional(z.string()),
    title: z.optional(z.string()),
    durationSeconds: z.optional(z.number()),
    error: z.optional(z.string()),
    /** "Based on": the script, article or page the video was made from. */
    source: z.optional(sourceCreditSchema),
    /** The article and pictures the video uses, credited as their licences ask. */
    attributions: z.optional(z.array(attributionSchema)),
  }),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const EMBED_SESSION_MINUTES = 15;
export const embedSessionResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type EmbedSessionResponse = z.infer<typeof embedSessionResponseSchema>;

/** Messages from the /embed iframe to the loader on the partner page (postMessage, origin-checked). */
export const EMBED_MESSAGE_SOURCE = 'reelsmith-embed';
export const embedEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('signed-in') }),
  z.object({ type: z.literal('signed-out') }),
  z.object({ type: z.literal('job-created'), jobId: z.string() }),
  z.object({
    type: z.literal('job-progress'),
    jobId: z.string(),
    progress: z.number().check(z.gte(0), z.lte(100)),
    step: pipelineStepSchema,
  }),
  z.object({
    type: z.literal('job-completed'),
    jobId: z.string(),
    videoUrl: z.string(),
    posterUrl: z.optional(z.string()),
    title: z.optional(z.string()),
    durationSeconds: z.optional(z.number()),
    /** "Based on": the script, article or page the video was made from. */
    source: z.optional(sourceCreditSchema),
    /** The article and pictures the video uses, credited as their licences ask. */
    attributions: z.optional(z.array(attributionSchema)),
  }),
  z.object({ type: z.literal('job-failed'), jobId: z.string(), error: z.string() }),
  /** Every row of a batch made in the embedded studio has finished, or the batch was cancelled. */
  z.object({
    type: z.literal('batch-completed'),
    batchId: z.string(),
    status: z.enum(['completed', 'cancelled']),
    counts: batchCountsSchema,
  }),
  z.object({ type: z.literal('resize'), height: z.number().check(z.gte(0), z.lte(100_000)) }),
]);
export type EmbedEvent = z.infer<typeof embedEventSchema>;
export const embedEnvelopeSchema = z.object({ source: z.literal(EMBED_MESSAGE_SOURCE), event: embedEventSchema });

/** Messages from the loader to the iframe. */
export const embedCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('set-topic'), topic: z.string().check(z.maxLength(500)) }),
]);
export type EmbedCommand = z.infer<typeof embedCommandSchema>;
export const embedCommandEnvelopeSchema = z.object({ source: z.literal(EMBED_MESSAGE_SOURCE), command: embedCommandSchema });

export const embedModeSchema = z.enum(['studio', 'compact']);
export const embedThemeSchema = z.enum(['dark', 'light']);
/** Query of the /embed page the loader builds. */
export const embedPageQuerySchema = z.object({
  mode: z._default(embedModeSchema, 'studio'),
  theme: z._default(embedThemeSchema, 'dark'),
  topic: z.optional(z.string().check(z.maxLength(500))),
  /** The partner page's origin: the iframe posts only to it, and only when the server allows it. */
  parentOrigin: z.optional(z.string()),
});
