import { z } from 'zod';
import * as admin from './admin.js';
import * as analytics from './analytics.js';
import * as auth from './auth.js';
import * as extension from './extension.js';
import * as payments from './payments.js';
import * as storyboard from './storyboard.js';
import * as videos from './videos.js';
import * as voices from './voices.js';

export type AuthMode = 'none' | 'optional' | 'bearer' | 'bearerOrApiKey' | 'admin';

export interface RouteContract {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  auth: AuthMode;
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
  logout: route({ method: 'POST', path: '/auth/logout', auth: 'bearer', response: auth.logoutResponseSchema }),
  authConfig: route({ method: 'GET', path: '/auth/config', auth: 'none', response: auth.authConfigResponseSchema }),
  apiKeys: route({ method: 'GET', path: '/auth/api-keys', auth: 'bearer', response: auth.apiKeysResponseSchema }),
  profile: route({ method: 'GET', path: '/auth/profile', auth: 'bearer', response: auth.profileResponseSchema }),
  updateProfile: route({ method: 'PUT', path: '/auth/profile', auth: 'bearer', body: auth.profileUpdateBodySchema, response: auth.profileResponseSchema }),
  usage: route({ method: 'GET', path: '/auth/usage', auth: 'bearer', response: auth.usageResponseSchema }),
  extensionHandoff: route({ method: 'POST', path: '/auth/extension-handoff', auth: 'bearer', response: extension.extensionHandoffResponseSchema }),
  extensionHandoffExchange: route({ method: 'POST', path: '/auth/extension-handoff/exchange', auth: 'none', body: extension.extensionHandoffExchangeBodySchema, response: extension.extensionHandoffExchangeResponseSchema }),
  analytics: route({ method: 'POST', path: '/api/analytics/events', auth: 'optional', body: analytics.analyticsBodySchema, response: analytics.analyticsResponseSchema }),

  // Payments and location
  subscription: route({ method: 'GET', path: '/payments/subscription', auth: 'bearer', response: payments.subscriptionResponseSchema }),
  plans: route({ method: 'GET', path: '/payments/plans', auth: 'optional', query: payments.plansQuerySchema, response: payments.plansResponseSchema }),
  canGenerate: route({ method: 'GET', path: '/payments/can-generate', auth: 'bearerOrApiKey', query: payments.canGenerateQuerySchema, response: payments.canGenerateResponseSchema }),
  createOrder: route({ method: 'POST', path: '/payments/create-order', auth: 'bearer', body: payments.createOrderBodySchema, response: payments.orderResponseSchema }),
  verifyPayment: route({ method: 'POST', path: '/payments/verify-payment', auth: 'bearer', body: payments.verifyPaymentBodySchema, response: payments.verifyPaymentResponseSchema }),
  cancelSubscription: route({ method: 'POST', path: '/payments/cancel-subscription', auth: 'bearer', body: payments.cancelSubscriptionBodySchema, response: payments.cancelSubscriptionResponseSchema }),
  /** Razorpay's payment.captured webhook; the raw body is read (for its signature), so no body schema here. */
  paymentWebhook: route({ method: 'POST', path: '/payments/webhook', auth: 'none', response: payments.paymentWebhookResponseSchema }),
  /** Built-in TEST MODE checkout: signs a payment like Razorpay's handler does. Absent when Razorpay is configured. */
  testCheckoutPay: route({ method: 'POST', path: '/payments/test-checkout/pay', auth: 'bearer', body: payments.testCheckoutPayBodySchema, response: payments.paymentHandlerResultSchema }),
  locationPricing: route({ method: 'GET', path: '/extension-api/location/pricing', auth: 'none', response: payments.locationPricingResponseSchema }),

  // Videos and studio
  generateVideo: route({ method: 'POST', path: '/api/videos/generate', auth: 'bearerOrApiKey', body: videos.generateVideoBodySchema, response: videos.generateVideoResponseSchema }),
  listVideos: route({ method: 'GET', path: '/api/videos', auth: 'bearerOrApiKey', query: videos.listVideosQuerySchema, response: videos.listVideosResponseSchema }),
  videoStatus: route({ method: 'GET', path: '/api/videos/:id/status', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: videos.jobStatusResponseSchema }),
  video: route({ method: 'GET', path: '/api/videos/:id', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: videos.videoResponseSchema }),
  deleteVideo: route({ method: 'DELETE', path: '/api/videos/:id', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: videos.deleteVideoResponseSchema }),
  queueStatus: route({ method: 'GET', path: '/api/queue/status', auth: 'bearerOrApiKey', response: videos.queueStatusSchema }),
  storyboard: route({ method: 'GET', path: '/api/videos/:id/storyboard', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: storyboard.storyboardSchema }),
  updateStoryboard: route({ method: 'PUT', path: '/api/videos/:id/storyboard', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, body: storyboard.storyboardUpdateBodySchema, response: storyboard.storyboardSchema }),
  /** Multipart (field `file`); the body is read as a stream, so no body schema here. */
  upload: route({ method: 'POST', path: '/api/uploads', auth: 'bearerOrApiKey', response: storyboard.uploadResponseSchema }),
  renderVideo: route({ method: 'POST', path: '/api/videos/:id/render', auth: 'bearerOrApiKey', status: 202, params: videos.jobIdParamsSchema, response: storyboard.renderVideoResponseSchema }),
  videoVersions: route({ method: 'GET', path: '/api/videos/:id/versions', auth: 'bearerOrApiKey', params: videos.jobIdParamsSchema, response: storyboard.videoVersionsResponseSchema }),
  storageStats: route({ method: 'GET', path: '/api/storage/stats', auth: 'bearerOrApiKey', response: videos.storageStatsSchema }),

  // Voices
  voices: route({ method: 'GET', path: '/voices', auth: 'none', query: voices.voicesQuerySchema, response: voices.voicesResponseSchema }),
  voiceSampleStats: route({ method: 'GET', path: '/api/voice-samples/stats', auth: 'none', response: voices.voiceSampleStatsSchema }),
  generateVoiceSamples: route({ method: 'POST', path: '/api/voice-samples/generate', auth: 'admin', response: voices.generateSamplesResponseSchema }),
  voiceProviderConfig: route({ method: 'GET', path: '/api/voice-providers/config', auth: 'admin', response: voices.voiceProviderConfigSchema }),
  switchVoiceProvider: route({ method: 'POST', path: '/api/voice-providers/switch', auth: 'admin', body: voices.switchVoiceProviderBodySchema, response: voices.switchVoiceProviderResponseSchema }),

  // Admin
  providers: route({ method: 'GET', path: '/providers', auth: 'admin', response: admin.providersResponseSchema }),
  providersHealth: route({ method: 'GET', path: '/providers/health', auth: 'admin', response: admin.providersHealthResponseSchema }),
  health: route({ method: 'GET', path: '/health', auth: 'none', response: admin.healthResponseSchema }),
  switchProvider: route({ method: 'POST', path: '/providers/switch', auth: 'admin', body: admin.switchProviderBodySchema, response: admin.switchProviderResponseSchema }),
  websocketStats: route({ method: 'GET', path: '/api/websocket/stats', auth: 'admin', response: admin.websocketStatsSchema }),
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
