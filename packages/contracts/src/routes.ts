import { z } from 'zod';
import * as admin from './admin.js';
import * as adminUsers from './admin-users.js';
import * as analytics from './analytics.js';
import * as account from './account-security.js';
import * as auth from './auth.js';
import * as developer from './developer.js';
import * as extension from './extension.js';
import * as payments from './payments.js';
import * as storyboard from './storyboard.js';
import * as videos from './videos.js';
import * as voices from './voices.js';

export type AuthMode = 'none' | 'optional' | 'bearer' | 'bearerOrApiKey' | 'apiKey' | 'admin';

export interface RouteContract {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  auth: AuthMode;
  /** True when an embed session (POST /api/embed/sessions) may call it: generating, listing and reading videos. */
  embed?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** The success status when it is not 200 (e.g. 202 for work that continues in the background). */
  status?: 201 | 202;
}

const route = <const R extends RouteContract>(r: R): R => r;
const empty = z.object({});

/**
 * Every HTTP call of spec section 7 plus the few the product adds (logout, auth config, analytics,
 * sample generation, payment webhook). The server registers each with these schemas; the client
 * parses each response with the same ones.
 */
export const API = {
  // Authentication
  register: route({ method: 'POST', path: '/auth/register', auth: 'none', body: auth.registerBodySchema, response: auth.registerResponseSchema }),
  login: route({ method: 'POST', path: '/auth/login', auth: 'none', body: auth.loginBodySchema, response: auth.loginResponseSchema }),
  google: route({ method: 'POST', path: '/auth/google', auth: 'none', body: auth.googleBodySchema, response: auth.googleAuthResponseSchema }),
  logout: route({ method: 'POST', path: '/auth/logout', auth: 'bearer', embed: true, response: auth.logoutResponseSchema }),
  authConfig: route({ method: 'GET', path: '/auth/config', auth: 'none', response: auth.authConfigResponseSchema }),
  apiKeys: route({ method: 'GET', path: '/auth/api-keys', auth: 'bearer', response: auth.apiKeysResponseSchema }),
  createApiKey: route({ method: 'POST', path: '/auth/api-keys', auth: 'bearer', body: developer.createApiKeyBodySchema, response: developer.createApiKeyResponseSchema }),
  revokeApiKey: route({ method: 'DELETE', path: '/auth/api-keys/:id', auth: 'bearer', params: developer.apiKeyIdParamsSchema, response: developer.revokeApiKeyResponseSchema }),
  profile: route({ method: 'GET', path: '/auth/profile', auth: 'bearer', embed: true, response: auth.profileResponseSchema }),
  updateProfile: route({ method: 'PUT', path: '/auth/profile', auth: 'bearer', body: auth.profileUpdateBodySchema, response: auth.profileResponseSchema }),
  verifyEmail: route({ method: 'POST', path: '/auth/verify-email', auth: 'none', body: account.verifyEmailBodySchema, response: account.accountMessageResponseSchema }),
  resendVerification: route({ method: 'POST', path: '/auth/resend-verification', auth: 'bearer', response: account.accountMessageResponseSchema }),
  forgotPassword: route({ method: 'POST', path: '/auth/forgot-password', auth: 'none', body: account.forgotPasswordBodySchema, response: account.accountMessageResponseSchema }),
  resetPassword: route({ method: 'POST', path: '/auth/reset-password', auth: 'none', body: account.resetPasswordBodySchema, response: account.accountMessageResponseSchema }),
  usage: route({ method: 'GET', path: '/auth/usage', auth: 'bearer', response: auth.usageResponseSchema }),
  extensionHandoff: route({ method: 'POST', path: '/auth/extension-handoff', auth: 'bearer', response: extension.extensionHandoffResponseSchema }),
  extensionHandoffExchange: route({ method: 'POST', path: '/auth/extension-handoff/exchange', auth: 'none', body: extension.extensionHandoffExchangeBodySchema, response: extension.extensionHandoffExchangeResponseSchema }),
  analytics: route({ method: 'POST', path: '/api/analytics/events', auth: 'optional', embed: true, body: analytics.analyticsBodySchema, response: analytics.analyticsResponseSchema }),

  // Payments and location
  subscription: route({ method: 'GET', path: '/payments/subscription', auth: 'bearer', response: payments.subscriptionResponseSchema }),
  plans: route({ method: 'GET', path: '/payments/plans', auth: 'optional', query: payments.plansQuerySchema, response: payments.plansResponseSchema }),
  canGenerate: route({ method: 'GET', path: '/payments/can-generate', auth: 'bearerOrApiKey', embed: true, query: payments.canGenerateQuerySchema, response: payments.canGenerateResponseSchema }),
  createOrder: route({ method: 'POST', path: '/payments/create-order', auth: 'bearer', body: payments.createOrderBodySchema, response: payments.orderResponseSchema }),
  verifyPayment: route({ method: 'POST', path: '/payments/verify-payment', auth: 'bearer', body: payments.verifyPaymentBodySchema, response: payments.verifyPaymentResponseSchema }),
  cancelSubscription: route({ method: 'POST', path: '/payments/cancel-subscription', auth: 'bearer', body: payments.cancelSubscriptionBodySchema, response: payments.cancelSubscriptionResponseSchema }),
  /** Razorpay's payment.captured webhook; the raw body is read (for its signature), so no body schema here. */
  paymentWebhook: route({ method: 'POST', path: '/payments/webhook', auth: 'none', response: payments.paymentWebhookResponseSchema }),
  /** Built-in TEST MODE checkout: signs a payment like Razorpay's handler does. Absent when Razorpay is configured. */
  testCheckoutPay: route({ method: 'POST', path: '/payments/test-checkout/pay', auth: 'bearer', body: payments.testCheckoutPayBodySchema, response: payments.paymentHandlerResultSchema }),
  locationPricing: route({ method: 'GET', path: '/extension-api/location/pricing', auth: 'none', response: payments.locationPricingResponseSchema }),

  // Videos and studio
  generateVideo: route({ method: 'POST', path: '/api/videos/generate', auth: 'bearerOrApiKey', embed: true, body: videos.generateVideoBodySchema, response: videos.generateVideoResponseSchema }),
  listVideos: route({ method: 'GET', path: '/api/videos', auth: 'bearerOrApiKey', embed: true, query: videos.listVideosQuerySchema, response: videos.listVideosResponseSchema }),
  videoStatus: route({ method: 'GET', path: '/api/videos/:id/status', auth: 'bearerOrApiKey', embed: true, params: videos.jobIdParamsSchema, response: videos.jobStatusResponseSchema }),
  video: route({ method: 'GET', path: '/api/videos/:id', auth: 'bearerOrApiKey', embed: true, params: videos.jobIdParamsSchema, response: videos.videoResponseSchema }),
  /** Runs a failed job again from its checkpoints (same job id); refused for any other status. */
  retryVideo: route({ method: 'POST', path: '/api/videos/:id/retry', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: videos.generateVideoResponseSchema }),
  deleteVideo: route({ method: 'DELETE', path: '/api/videos/:id', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: videos.deleteVideoResponseSchema }),
  queueStatus: route({ method: 'GET', path: '/api/queue/status', auth: 'bearerOrApiKey', embed: true, response: videos.queueStatusSchema }),
  storageStats: route({ method: 'GET', path: '/api/storage/stats', auth: 'bearerOrApiKey', embed: true, response: videos.storageStatsSchema }),

  // Developer API: webhooks and embed sessions
  createWebhook: route({ method: 'POST', path: '/api/webhooks', auth: 'bearerOrApiKey', body: developer.createWebhookBodySchema, response: developer.createWebhookResponseSchema }),
  webhooks: route({ method: 'GET', path: '/api/webhooks', auth: 'bearerOrApiKey', response: developer.webhooksResponseSchema }),
  deleteWebhook: route({ method: 'DELETE', path: '/api/webhooks/:id', auth: 'bearerOrApiKey', params: developer.webhookIdParamsSchema, response: developer.deleteWebhookResponseSchema }),
  webhookDeliveries: route({ method: 'GET', path: '/api/webhooks/:id/deliveries', auth: 'bearerOrApiKey', params: developer.webhookIdParamsSchema, response: developer.webhookDeliveriesResponseSchema }),
  /** Minted by a partner's backend with its API key only (never a bearer token): the key stays off the browser. */
  createEmbedSession: route({ method: 'POST', path: '/api/embed/sessions', auth: 'apiKey', response: developer.embedSessionResponseSchema }),

  /** This API's OpenAPI 3.1 document, generated from this registry. */
  openApi: route({ method: 'GET', path: '/api/openapi.json', auth: 'none', response: z.record(z.string(), z.unknown()) }),

  // Storyboard: edit a finished video and render a new version
  storyboard: route({ method: 'GET', path: '/api/videos/:id/storyboard', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: storyboard.storyboardSchema }),
  updateStoryboard: route({ method: 'PUT', path: '/api/videos/:id/storyboard', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, body: storyboard.storyboardUpdateBodySchema, response: storyboard.storyboardSchema }),
  /** Multipart (field `file`); the body is read as a stream, so no body schema here. */
  upload: route({ method: 'POST', path: '/api/uploads', auth: 'bearerOrApiKey', response: storyboard.uploadResponseSchema }),
  renderVideo: route({ method: 'POST', path: '/api/videos/:id/render', auth: 'bearerOrApiKey', status: 202, params: videos.jobIdParamsSchema, response: storyboard.renderVideoResponseSchema }),
  videoVersions: route({ method: 'GET', path: '/api/videos/:id/versions', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: storyboard.videoVersionsResponseSchema }),

  // Voices
  voices: route({ method: 'GET', path: '/voices', auth: 'none', query: voices.voicesQuerySchema, response: voices.voicesResponseSchema }),
  voiceSampleStats: route({ method: 'GET', path: '/api/voice-samples/stats', auth: 'none', response: voices.voiceSampleStatsSchema }),
  generateVoiceSamples: route({ method: 'POST', path: '/api/voice-samples/generate', auth: 'admin', response: voices.generateSamplesResponseSchema }),
  voiceProviderConfig: route({ method: 'GET', path: '/api/voice-providers/config', auth: 'admin', response: voices.voiceProviderConfigSchema }),
  switchVoiceProvider: route({ method: 'POST', path: '/api/voice-providers/switch', auth: 'admin', body: voices.switchVoiceProviderBodySchema, response: voices.switchVoiceProviderResponseSchema }),

  // Admin
  providers: route({ method: 'GET', path: '/providers', auth: 'admin', response: admin.providersResponseSchema }),
  providersHealth: route({ method: 'GET', path: '/providers/health', auth: 'admin', query: admin.providersHealthQuerySchema, response: admin.providersHealthResponseSchema }),
  health: route({ method: 'GET', path: '/health', auth: 'none', response: admin.healthResponseSchema }),
  switchProvider: route({ method: 'POST', path: '/providers/switch', auth: 'admin', body: admin.switchProviderBodySchema, response: admin.switchProviderResponseSchema }),
  websocketStats: route({ method: 'GET', path: '/api/websocket/stats', auth: 'admin', response: admin.websocketStatsSchema }),

  // Admin: User Management, audit log, System Health
  adminUsers: route({ method: 'GET', path: '/api/admin/users', auth: 'admin', query: adminUsers.adminUsersQuerySchema, response: adminUsers.adminUsersResponseSchema }),
  adminUser: route({ method: 'GET', path: '/api/admin/users/:id', auth: 'admin', params: adminUsers.adminUserParamsSchema, response: adminUsers.adminUserDetailResponseSchema }),
  adminSuspendUser: route({ method: 'POST', path: '/api/admin/users/:id/suspend', auth: 'admin', params: adminUsers.adminUserParamsSchema, body: adminUsers.adminReasonBodySchema, response: adminUsers.adminActionResponseSchema }),
  adminReactivateUser: route({ method: 'POST', path: '/api/admin/users/:id/reactivate', auth: 'admin', params: adminUsers.adminUserParamsSchema, body: adminUsers.adminReasonBodySchema, response: adminUsers.adminActionResponseSchema }),
  adminChangeRole: route({ method: 'POST', path: '/api/admin/users/:id/role', auth: 'admin', params: adminUsers.adminUserParamsSchema, body: adminUsers.adminRoleBodySchema, response: adminUsers.adminActionResponseSchema }),
  adminGrantPlan: route({ method: 'POST', path: '/api/admin/users/:id/grant-plan', auth: 'admin', params: adminUsers.adminUserParamsSchema, body: adminUsers.adminGrantPlanBodySchema, response: adminUsers.adminActionResponseSchema }),
  adminResetUsage: route({ method: 'POST', path: '/api/admin/users/:id/reset-usage', auth: 'admin', params: adminUsers.adminUserParamsSchema, body: adminUsers.adminReasonBodySchema, response: adminUsers.adminActionResponseSchema }),
  adminDeleteUserVideo: route({ method: 'POST', path: '/api/admin/users/:id/videos/:videoId/delete', auth: 'admin', params: adminUsers.adminUserVideoParamsSchema, body: adminUsers.adminReasonBodySchema, response: adminUsers.adminActionResponseSchema }),
  adminAuditLog: route({ method: 'GET', path: '/api/admin/audit-log', auth: 'admin', query: adminUsers.auditLogQuerySchema, response: adminUsers.auditLogResponseSchema }),
  systemHealth: route({ method: 'GET', path: '/api/admin/system-health', auth: 'admin', response: adminUsers.systemHealthResponseSchema }),
} as const;

export type ApiName = keyof typeof API;
export type ApiResponse<N extends ApiName> = z.infer<(typeof API)[N]['response']>;
export type ApiBody<N extends ApiName> = (typeof API)[N] extends { body: infer B extends z.ZodType } ? z.input<B> : never;
export type ApiQuery<N extends ApiName> = (typeof API)[N] extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
export type ApiParams<N extends ApiName> = (typeof API)[N] extends { params: infer P extends z.ZodType } ? z.input<P> : never;

/** Fills `:name` segments of a contract path. */
export function buildPath(path: string, params?: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`Missing path parameter ${key} for ${path}`);
    return encodeURIComponent(value);
  });
}

export { empty as emptySchema };
