export { apiErrorFrom, createClient, ReelsmithApiError, type ClientOptions, type ReelsmithClient, type WaitOptions } from './client.js';
export { verifyWebhook, WebhookVerificationError, DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from './verify-webhook.js';
export type { EmbedEvent, EmbedHandle, EmbedMountOptions, ReelsmithEmbed } from './embed-types.js';
export type { WebhookEvent, VideoJob, GenerateVideoBody } from '@reelsmith/contracts';
