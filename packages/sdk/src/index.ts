export {
  apiErrorFrom,
  createClient,
  ReelsmithApiError,
  type BatchErrorDetails,
  type ClientOptions,
  type ReelsmithClient,
  type WaitOptions,
} from './client.js';
export { verifyWebhook, WebhookVerificationError, DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from './verify-webhook.js';
export type { EmbedEvent, EmbedHandle, EmbedMountOptions, ReelsmithEmbed } from './embed-types.js';
export type { WebhookEvent, BatchWebhookEvent, BatchDetail, CreateBatchBody, VideoJob, GenerateVideoBody } from '@reelsmith/contracts';
