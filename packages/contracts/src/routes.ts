import { z } from './zod.js';
import { route } from './route-contract.js';
import * as analytics from './analytics.js';
import * as auth from './auth.js';
import * as extension from './extension.js';
import * as gallery from './gallery.js';
import * as payments from './payments.js';
import * as videos from './videos.js';
import * as voices from './voices.js';

export type { AuthMode, RouteContract } from './route-contract.js';

const empty = z.object({});

/**
 * The calls the studio's first screen makes, for a visitor or a signed-in creator (the session, the
 * generator, the video list, voices, can-generate and the subscription): the first half of the
 * registry. The other half (routes-more.ts: signing in and up, account recovery, plans, storyboard,
 * developer API, checkout, admin) is loaded by the client when it first calls one of them, so the
 * first load neither carries nor builds their schemas. `API` (api-registry.ts) joins both for the
 * server and types.
 */
export const STUDIO_ROUTES = {
  // Authentication
  logout: route({ method: 'POST', path: '/auth/logout', auth: 'bearer', embed: true, response: auth.logoutResponseSchema }),
  authConfig: route({ method: 'GET', path: '/auth/config', auth: 'none', response: auth.authConfigResponseSchema }),
  profile: route({ method: 'GET', path: '/auth/profile', auth: 'bearer', embed: true, response: auth.profileResponseSchema }),
  usage: route({ method: 'GET', path: '/auth/usage', auth: 'bearer', response: auth.usageResponseSchema }),
  // The session's keys: the auth store asks for them at every signed-in start.
  apiKeys: route({ method: 'GET', path: '/auth/api-keys', auth: 'bearer', response: auth.apiKeysResponseSchema }),
  extensionHandoff: route({
    method: 'POST',
    path: '/auth/extension-handoff',
    auth: 'bearer',
    response: extension.extensionHandoffResponseSchema,
  }),
  extensionHandoffExchange: route({
    method: 'POST',
    path: '/auth/extension-handoff/exchange',
    auth: 'none',
    body: extension.extensionHandoffExchangeBodySchema,
    response: extension.extensionHandoffExchangeResponseSchema,
  }),
  analytics: route({
    method: 'POST',
    path: '/api/analytics/events',
    auth: 'optional',
    embed: true,
    body: analytics.analyticsBodySchema,
    response: analytics.analyticsResponseSchema,
  }),

  // Payments and location
  subscription: route({ method: 'GET', path: '/payments/subscription', auth: 'bearer', response: payments.subscriptionResponseSchema }),
  canGenerate: route({
    method: 'GET',
    path: '/payments/can-generate',
    auth: 'bearerOrApiKey',
    embed: true,
    query: payments.canGenerateQuerySchema,
    response: payments.canGenerateResponseSchema,
  }),

  // Videos and studio
  generateVideo: route({
    method: 'POST',
    path: '/api/videos/generate',
    auth: 'bearerOrApiKey',
    embed: true,
    body: videos.generateVideoBodySchema,
    response: videos.generateVideoResponseSchema,
  }),
  listVideos: route({
    method: 'GET',
    path: '/api/videos',
    auth: 'bearerOrApiKey',
    embed: true,
    query: videos.listVideosQuerySchema,
    response: videos.listVideosResponseSchema,
  }),
  videoStatus: route({
    method: 'GET',
    path: '/api/videos/:id/status',
    auth: 'bearerOrApiKey',
    embed: true,
    params: videos.jobIdParamsSchema,
    response: videos.jobStatusResponseSchema,
  }),
  video: route({
    method: 'GET',
    path: '/api/videos/:id',
    auth: 'bearerOrApiKey',
    embed: true,
    params: videos.jobIdParamsSchema,
    response: videos.videoResponseSchema,
  }),
  /** Runs a failed job again from its checkpoints (same job id); refused for any other status. */
  retryVideo: route({
    method: 'POST',
    path: '/api/videos/:id/retry',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    response: videos.generateVideoResponseSchema,
  }),
  deleteVideo: route({
    method: 'DELETE',
    path: '/api/videos/:id',
    auth: 'bearerOrApiKey',
    params: videos.jobIdParamsSchema,
    response: videos.deleteVideoResponseSchema,
  }),
  queueStatus: route({ method: 'GET', path: '/api/queue/status', auth: 'bearerOrApiKey', embed: true, response: videos.queueStatusSchema }),
  storageStats: route({
    method: 'GET',
    path: '/api/storage/stats',
    auth: 'bearerOrApiKey',
    embed: true,
    response: videos.storageStatsSchema,
  }),

  // The visitor page's example videos: asked for by the first screen, so not behind the other half's
  // chunk (which brings every admin, storyboard and developer schema with it).
  gallery: route({ method: 'GET', path: '/api/gallery', auth: 'none', response: gallery.galleryResponseSchema }),

  // Voices
  voices: route({ method: 'GET', path: '/voices', auth: 'none', query: voices.voicesQuerySchema, response: voices.voicesResponseSchema }),
  voiceSampleStats: route({ method: 'GET', path: '/api/voice-samples/stats', auth: 'none', response: voices.voiceSampleStatsSchema }),
} as const;

/** The registry's other half, fetched on first use (a separate chunk in the client). */
export const loadMoreRoutes = () => import('./routes-more.js').then((module) => module.MORE_ROUTES);

/** Fills `:name` segments of a contract path. */
export function buildPath(path: string, params?: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`Missing path parameter ${key} for ${path}`);
    return encodeURIComponent(value);
  });
}

export { empty as emptySchema };
