/**
 * What the integration tests in tests/ reach inside the server: the app, its database and queue
 * wiring, and the named messages and helpers they assert on. Nothing in production imports this.
 */
export {
  type App,
  type AuthUser,
  badRequest,
  buildApp,
  type BuildAppOverrides,
  type Config,
  CONFIG_VARIABLES,
  ConfigError,
  conflict,
  type ContractHandler,
  type ContractRequest,
  createDatabase,
  type Database,
  type DatabaseDialect,
  type DatabaseHandle,
  forbidden,
  HttpError,
  isUniqueViolation,
  loadConfig,
  migrateToLatest,
  notFound,
  parseEnv,
  registerRoute,
  type RouteExtras,
  tooManyRequests,
  toPublicUser,
  unauthorized,
} from '../index.js';
export { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../db/dialect-test-database.js';
export { createLogger } from '../logger.js';
export { MIGRATIONS } from '../db/migrations/index.js';
export { createJobRuntime, type JobRuntime } from '../jobs/job-runtime.js';
export { BullmqJobWorkers, bullmqWorkersFor, VIDEO_QUEUE_NAME } from '../jobs/bullmq-queue.js';
export { claimJobWithToken, renewJobClaim } from '../video-jobs/video-job-repository.js';
export { CRASHED_RUNS_MESSAGES, type GenerationRunner, STORAGE_WRITE_FAILED_MESSAGE } from '../jobs/job-worker.js';
export { RETRY_CRASHED } from '../video-jobs/video-job-repository.js';
export { STORAGE_TIER_DESCRIPTION } from '../jobs/jobs-plugin.js';
export { AUTH_MESSAGES } from '../auth/auth-routes.js';
export { GOOGLE_MESSAGES } from '../auth/google.js';
export { CLAIMED_ACCOUNT_MESSAGE } from '../auth/claim-account.js';
export { apiKeySecretCipher } from '../auth/stored-secrets.js';
export { revokeUserSessions } from '../auth/revoke-user-sessions.js';
export { EMBED_NOT_BUILT_MESSAGE } from '../embed/embed-plugin.js';
export { toOpenApiPath } from '../openapi/openapi-document.js';
export { PaymentProviderError } from '../payments/payment-gateway.js';
export { RazorpayGateway } from '../payments/razorpay-gateway.js';
export { hmacSha256Hex, paymentSignature } from '../payments/signatures.js';
export { recordVideoMade } from '../payments/subscription-state.js';
export { LEGAL_PAGE_PATHS } from '../plugins/legal-pages-plugin.js';
export { allowFramingBy } from '../plugins/security-headers-plugin.js';
export { StorageMissingError, type PutOptions } from '../storage/object-storage.js';
export { S3Storage } from '../storage/s3-storage.js';
export { UploadFiles } from '../uploads/upload-files.js';
export { PRIVATE_ADDRESS_MESSAGE } from '../outbound/webhook-address.js';
export { DEFAULT_RETRY_DELAYS_MS, DEFAULT_TENANT_CONCURRENCY } from '../webhooks/webhook-dispatcher.js';
export { webhookSecretCipher } from '../auth/api-keys.js';
export { MAX_WEBHOOKS_PER_USER, WEBHOOK_LIMIT_MESSAGE } from '../webhooks/webhooks-plugin.js';
export { WEBHOOK_TIMEOUT_MS } from '../webhooks/webhook-sender.js';
export { removeUnusedUploads, UPLOAD_RETENTION_MS } from '../uploads/upload-retention.js';
export { UPLOADS_BUSY_MESSAGE } from '../storyboard/decode-slots.js';
export {
  MCP_CONCURRENT_REQUESTS,
  MCP_KEY_REQUIRED_MESSAGE,
  MCP_LIMIT_MESSAGES,
  MCP_MAX_MESSAGES_PER_REQUEST,
  MCP_PATH,
  MCP_STATELESS_MESSAGE,
  MCP_WAITING_CALLS,
} from '../mcp/mcp-plugin.js';
export { PAGE_MESSAGES } from '../sources/fetch-page.js';
export { NOT_AN_ARTICLE_MESSAGE } from '../sources/extract-article.js';
export { PAYMENT_MESSAGES } from '../payments/payments-service.js';
export { GENERATION_STARTED_MESSAGE, RETRY_STARTED_MESSAGE, VIDEO_DELETED_MESSAGE } from '../jobs/jobs-plugin.js';
export { userFacingError } from '../jobs/job-worker.js';
export { AppSettings } from '../app-settings.js';
export {
  FakeGoogle,
  FakeInstagram,
  FakeTikTok,
  startFakePublishingPlatforms,
  type FakeInstagramReel,
  type FakeTikTokPost,
  type FakeYouTubeVideo,
} from './fake-publishing-platforms.js';
export { nextPacificMidnight } from '../publishing/youtube-publisher.js';
export { platformTokenCipher } from '../publishing/connection-store.js';
export { PUBLISH_INTERNAL_ERROR } from '../publishing/publication-runner.js';
export { subscribeUserDirectly } from './test-plan.js';
