import { z } from './zod.js';
import * as account from './account-security.js';
import * as admin from './admin.js';
import * as auth from './auth.js';
import * as batches from './batches.js';
import * as adminUsers from './admin-users.js';
import * as brandKit from './brand.js';
import * as developer from './developer.js';
import * as payments from './payments.js';
import * as postKit from './post-kit.js';
import * as publishing from './publishing.js';
import * as research from './research.js';
import * as storyboard from './storyboard.js';
import * as videos from './videos.js';
import * as voices from './voices.js';
import { route } from './route-contract.js';

/**
 * The calls only some views make: signing in and up, e-mail verification and password recovery,
 * plans, storyboard editing, the developer API, checkout, voice and provider administration, User
 * Management. The client loads this module on first use.
 */
export const MORE_ROUTES = {
  // Signing in and up, the profile form, plans and prices, the health check: their pages and dialogs
  // load on demand, and the first screen (visitor or signed in) calls none of them.
  register: route({
    method: 'POST',
    path: '/auth/register',
    auth: 'none',
    body: auth.registerBodySchema,
    response: auth.registerResponseSchema,
  }),
  login: route({ method: 'POST', path: '/auth/login', auth: 'none', body: auth.loginBodySchema, response: auth.loginResponseSchema }),
  google: route({
    method: 'POST',
    path: '/auth/google',
    auth: 'none',
    body: auth.googleBodySchema,
    response: auth.googleAuthResponseSchema,
  }),
  updateProfile: route({
    method: 'PUT',
    path: '/auth/profile',
    auth: 'bearer',
    body: auth.profileUpdateBodySchema,
    response: auth.profileResponseSchema,
  }),
  plans: route({
    method: 'GET',
    path: '/payments/plans',
    auth: 'optional',
    query: payments.plansQuerySchema,
    response: payments.plansResponseSchema,
  }),
  locationPricing: route({
    method: 'GET',
    path: '/extension-api/location/pricing',
    auth: 'none',
    response: payments.locationPricingResponseSchema,
  }),
  health: route({ method: 'GET', path: '/health', auth: 'none', response: admin.healthResponseSchema }),
  ready: route({
    method: 'GET',
    path: '/ready',
    auth: 'none',
    response: admin.readinessResponseSchema,
    errorResponses: { 503: admin.readinessResponseSchema },
  }),
  // Prometheus text format; `Authorization: Bearer <METRICS_TOKEN>` when that variable is set.
  metrics: route({ method: 'GET', path: '/metrics', auth: 'none', response: z.string(), contentType: 'text/plain; version=0.0.4' }),

  // Authentication
  // E-mail verification and password recovery: their pages (and Settings' resend) load on demand.
  verifyEmail: route({
    method: 'POST',
    path: '/auth/verify-email',
    auth: 'none',
    body: account.verifyEmailBodySchema,
    response: account.accountMessageResponseSchema,
  }),
  resendVerification: route({
    method: 'POST',
    path: '/auth/resend-verification',
    auth: 'bearer',
    response: account.accountMessageResponseSchema,
  }),
  forgotPassword: route({
    method: 'POST',
    path: '/auth/forgot-password',
    auth: 'none',
    body: account.forgotPasswordBodySchema,
    response: account.accountMessageResponseSchema,
  }),
  resetPassword: route({
    method: 'POST',
    path: '/auth/reset-password',
    auth: 'none',
    body: account.resetPasswordBodySchema,
    response: account.accountMessageResponseSchema,
  }),
  createApiKey: route({
    method: 'POST',
    path: '/auth/api-keys',
    auth: 'bearer',
    body: developer.createApiKeyBodySchema,
    response: developer.createApiKeyResponseSchema,
  }),
  revokeApiKey: route({
    method: 'DELETE',
    path: '/auth/api-keys/:id',
    auth: 'bearer',
    params: developer.apiKeyIdParamsSchema,
    response: developer.revokeApiKeyResponseSchema,
  }),

  // Payments and location
  createOrder: route({
    method: 'POST',
    path: '/payments/create-order',
    auth: 'bearer',
    body: payments.createOrderBodySchema,
    response: payments.orderResponseSchema,
  }),
  verifyPayment: route({
    method: 'POST',
    path: '/payments/verify-payment',
    auth: 'bearer',
    body: payments.verifyPaymentBodySchema,
    response: payments.verifyPaymentResponseSchema,
  }),
  cancelSubscription: route({
    method: 'POST',
    path: '/payments/cancel-subscription',
    auth: 'bearer',
    body: payments.cancelSubscriptionBodySchema,
    response: payments.cancelSubscriptionResponseSchema,
  }),
  /** Razorpay's payment.captured webhook; the raw body is read (for its signature), so no body schema here. */
  paymentWebhook: route({ method: 'POST', path: '/payments/webhook', auth: 'none', response: payments.paymentWebhookResponseSchema }),
  /** Built-in TEST MODE checkout: signs a payment like Razorpay's handler does. Absent when Razorpay is configured. */
  testCheckoutPay: route({
    method: 'POST',
    path: '/payments/test-checkout/pay',
    auth: 'bearer',
    body: payments.testCheckoutPayBodySchema,
    response: payments.paymentHandlerResultSchema,
  }),

  // Developer API: webhooks and embed sessions
  createWebhook: route({
    method: 'POST',
    path: '/api/webhooks',
    auth: 'bearerOrApiKey',
    body: developer.createWebhookBodySchema,
    response: developer.createWebhookResponseSchema,
  }),
  webhooks: route({ method: 'GET', path: '/api/webhooks', auth: 'bearerOrApiKey', response: developer.webhooksResponseSchema }),
  deleteWebhook: route({
    method: 'DELETE',
    path: '/api/webhooks/:id',
    auth: 'bearerOrApiKey',
    params: developer.webhookIdParamsSchema,
    response: developer.deleteWebhookResponseSchema,
  }),
  webhookDeliveries: route({
    method: 'GET',
    path: '/api/webhooks/:id/deliveries',
    auth: 'bearerOrApiKey',
    params: developer.webhookIdParamsSchema,
    response: developer.webhookDeliveriesResponseSchema,
  }),
  /** Minted by a partner's backend with its API key only (never a bearer token): the key stays off the browser. */
  createEmbedSession: route({
    method: 'POST',
    path: '/api/embed/sessions',
    auth: 'apiKey',
    body: z.optional(z.nullable(brandKit.embedSessionBodySchema)),
    response: developer.embedSessionResponseSchema,
  }),
  /** This API's OpenAPI 3.1 document, generated from this registry. */
  openApi: route({ method: 'GET', path: '/api/openapi.json', auth: 'none', response: z.record(z.string(), z.unknown()) }),

  // Caption templates: the animated presets beside the five styles, each with a preview the server renders once
  captionTemplates: route({
    method: 'GET',
    path: '/api/caption-templates',
    auth: 'none',
    embed: true,
    response: brandKit.captionTemplatesResponseSchema,
  }),

  // Brand kit: logo, caption font, accent colour and end card applied to every render when enabled
  brand: route({ method: 'GET', path: '/api/brand', auth: 'bearerOrApiKey', response: brandKit.brandKitSchema }),
  updateBrand: route({
    method: 'PUT',
    path: '/api/brand',
    auth: 'bearerOrApiKey',
    body: brandKit.brandKitSchema,
    response: brandKit.brandKitSchema,
  }),

  // Storyboard: edit a finished video and render a new version
  storyboard: route({
    method: 'GET',
    path: '/api/videos/:id/storyboard',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    response: storyboard.storyboardSchema,
  }),
  updateStoryboard: route({
    method: 'PUT',
    path: '/api/videos/:id/storyboard',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    body: storyboard.storyboardUpdateBodySchema,
    response: storyboard.storyboardSchema,
    errorResponses: { 412: storyboard.storyboardConflictSchema },
  }),
  /** Multipart (field `file`); the body is read as a stream, so no body schema here. */
  upload: route({
    method: 'POST',
    path: '/api/uploads',
    auth: 'bearerOrApiKey',
    query: storyboard.uploadQuerySchema,
    response: storyboard.uploadResponseSchema,
  }),
  renderVideo: route({
    method: 'POST',
    path: '/api/videos/:id/render',
    auth: 'bearerOrApiKey',
    status: 202,
    params: videos.jobIdParamsSchema,
    response: storyboard.renderVideoResponseSchema,
  }),
  videoVersions: route({
    method: 'GET',
    path: '/api/videos/:id/versions',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    response: storyboard.videoVersionsResponseSchema,
  }),
  /** The Wikipedia articles a topic would be told from, best first: asked for on demand, never by a first screen. */
  researchArticles: route({
    method: 'GET',
    path: '/api/research/articles',
    auth: 'bearerOrApiKey',
    embed: true,
    query: research.researchArticlesQuerySchema,
    response: research.researchArticlesResponseSchema,
  }),
  /** The narration's word-timed captions as a SubRip or WebVTT file (text, not JSON). */
  videoCaptions: route({
    method: 'GET',
    path: '/api/videos/:id/captions',
    auth: 'bearerOrApiKey',
    embed: true,
    params: videos.jobIdParamsSchema,
    query: postKit.captionFileQuerySchema,
    response: z.string(),
  }),
  updatePostKit: route({
    method: 'PUT',
    path: '/api/videos/:id/post',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    body: postKit.postKitUpdateBodySchema,
    response: videos.postKitSchema,
  }),

  // Batches: many videos from one list (JSON rows or a CSV), one ordinary job per row
  /**
   * JSON `{ name?, defaults, rows }`, or multipart with the CSV as field `file` (and optional fields
   * `name` and `defaults`, a JSON object); the multipart body is read as a stream, so the body schema is optional.
   */
  createBatch: route({
    method: 'POST',
    path: '/api/batches',
    auth: 'bearerOrApiKey',
    embed: true,
    status: 202,
    body: z.optional(z.nullable(batches.createBatchBodySchema)),
    response: batches.createBatchResponseSchema,
    errorResponses: { 400: batches.batchErrorResponseSchema },
    multipartFile: 'file',
  }),
  listBatches: route({
    method: 'GET',
    path: '/api/batches',
    auth: 'bearerOrApiKey',
    embed: true,
    query: batches.listBatchesQuerySchema,
    response: batches.listBatchesResponseSchema,
  }),
  batch: route({
    method: 'GET',
    path: '/api/batches/:id',
    auth: 'bearerOrApiKey',
    embed: true,
    params: batches.batchIdParamsSchema,
    response: batches.batchDetailSchema,
  }),
  /** Cancels the batch's queued and running jobs; finished ones stay. */
  cancelBatch: route({
    method: 'POST',
    path: '/api/batches/:id/cancel',
    auth: 'bearerOrApiKey',
    embed: true,
    params: batches.batchIdParamsSchema,
    response: batches.cancelBatchResponseSchema,
  }),
  // Publishing: the creator's YouTube, TikTok and Instagram connections, and publications of finished videos
  connections: route({ method: 'GET', path: '/api/connections', auth: 'bearer', response: publishing.connectionsResponseSchema }),
  connectionStart: route({
    method: 'GET',
    path: '/api/connections/:platform/start',
    auth: 'bearer',
    params: publishing.platformParamsSchema,
    response: publishing.connectionStartResponseSchema,
  }),
  /** The platform's redirect back (a browser navigation: no bearer token; the state names the creator); answers with a redirect to Settings. */
  connectionCallback: route({
    method: 'GET',
    path: '/api/connections/:platform/callback',
    auth: 'none',
    params: publishing.platformParamsSchema,
    query: publishing.connectionCallbackQuerySchema,
    response: z.string(),
  }),
  disconnect: route({
    method: 'DELETE',
    path: '/api/connections/:platform',
    auth: 'bearer',
    params: publishing.platformParamsSchema,
    response: publishing.disconnectResponseSchema,
  }),
  publishVideo: route({
    method: 'POST',
    path: '/api/videos/:id/publish',
    auth: 'bearerOrApiKey',
    status: 202,
    params: videos.jobIdParamsSchema,
    body: publishing.publishBodySchema,
    response: publishing.publicationsResponseSchema,
  }),
  videoPublications: route({
    method: 'GET',
    path: '/api/videos/:id/publications',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    response: publishing.publicationsResponseSchema,
  }),
  /** Every publication of the creator, scheduled first: My Videos' states and the calendar of scheduled posts. */
  publications: route({
    method: 'GET',
    path: '/api/publications',
    auth: 'bearerOrApiKey',
    response: publishing.publicationsResponseSchema,
  }),
  cancelPublication: route({
    method: 'DELETE',
    path: '/api/publications/:id',
    auth: 'bearerOrApiKey',
    params: publishing.publicationIdParamsSchema,
    query: publishing.cancelPublicationQuerySchema,
    response: publishing.cancelPublicationResponseSchema,
  }),

  // Voices
  generateVoiceSamples: route({
    method: 'POST',
    path: '/api/voice-samples/generate',
    auth: 'admin',
    response: voices.generateSamplesResponseSchema,
  }),
  voiceProviderConfig: route({
    method: 'GET',
    path: '/api/voice-providers/config',
    auth: 'admin',
    response: voices.voiceProviderConfigSchema,
  }),
  switchVoiceProvider: route({
    method: 'POST',
    path: '/api/voice-providers/switch',
    auth: 'admin',
    body: voices.switchVoiceProviderBodySchema,
    response: voices.switchVoiceProviderResponseSchema,
  }),

  // Admin
  providers: route({ method: 'GET', path: '/providers', auth: 'admin', response: admin.providersResponseSchema }),
  providersHealth: route({
    method: 'GET',
    path: '/providers/health',
    auth: 'admin',
    query: admin.providersHealthQuerySchema,
    response: admin.providersHealthResponseSchema,
  }),
  switchProvider: route({
    method: 'POST',
    path: '/providers/switch',
    auth: 'admin',
    body: admin.switchProviderBodySchema,
    response: admin.switchProviderResponseSchema,
  }),
  websocketStats: route({ method: 'GET', path: '/api/websocket/stats', auth: 'admin', response: admin.websocketStatsSchema }),

  // Admin: User Management, audit log, System Health
  adminUsers: route({
    method: 'GET',
    path: '/api/admin/users',
    auth: 'admin',
    query: adminUsers.adminUsersQuerySchema,
    response: adminUsers.adminUsersResponseSchema,
  }),
  adminUser: route({
    method: 'GET',
    path: '/api/admin/users/:id',
    auth: 'admin',
    params: adminUsers.adminUserParamsSchema,
    response: adminUsers.adminUserDetailResponseSchema,
  }),
  adminSuspendUser: route({
    method: 'POST',
    path: '/api/admin/users/:id/suspend',
    auth: 'admin',
    params: adminUsers.adminUserParamsSchema,
    body: adminUsers.adminReasonBodySchema,
    response: adminUsers.adminActionResponseSchema,
  }),
  adminReactivateUser: route({
    method: 'POST',
    path: '/api/admin/users/:id/reactivate',
    auth: 'admin',
    params: adminUsers.adminUserParamsSchema,
    body: adminUsers.adminReasonBodySchema,
    response: adminUsers.adminActionResponseSchema,
  }),
  adminChangeRole: route({
    method: 'POST',
    path: '/api/admin/users/:id/role',
    auth: 'admin',
    params: adminUsers.adminUserParamsSchema,
    body: adminUsers.adminRoleBodySchema,
    response: adminUsers.adminActionResponseSchema,
  }),
  adminGrantPlan: route({
    method: 'POST',
    path: '/api/admin/users/:id/grant-plan',
    auth: 'admin',
    params: adminUsers.adminUserParamsSchema,
    body: adminUsers.adminGrantPlanBodySchema,
    response: adminUsers.adminActionResponseSchema,
  }),
  adminResetUsage: route({
    method: 'POST',
    path: '/api/admin/users/:id/reset-usage',
    auth: 'admin',
    params: adminUsers.adminUserParamsSchema,
    body: adminUsers.adminReasonBodySchema,
    response: adminUsers.adminActionResponseSchema,
  }),
  adminDeleteUserVideo: route({
    method: 'POST',
    path: '/api/admin/users/:id/videos/:videoId/delete',
    auth: 'admin',
    params: adminUsers.adminUserVideoParamsSchema,
    body: adminUsers.adminReasonBodySchema,
    response: adminUsers.adminActionResponseSchema,
  }),
  adminAuditLog: route({
    method: 'GET',
    path: '/api/admin/audit-log',
    auth: 'admin',
    query: adminUsers.auditLogQuerySchema,
    response: adminUsers.auditLogResponseSchema,
  }),
  systemHealth: route({ method: 'GET', path: '/api/admin/system-health', auth: 'admin', response: adminUsers.systemHealthResponseSchema }),
  adminThroughput: route({ method: 'GET', path: '/api/admin/throughput', auth: 'admin', response: adminUsers.throughputResponseSchema }),
} as const;
