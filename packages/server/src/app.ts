import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, type RawServerDefault } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import { adminPlugin } from './admin/admin-plugin.js';
import { apiKeyRoutesPlugin } from './auth/api-key-routes.js';
import { adminUsersPlugin } from './admin/admin-users-plugin.js';
import { authRoutesPlugin } from './auth/auth-routes.js';
import { extensionHandoffPlugin } from './auth/extension-handoff-plugin.js';
import { embedPlugin } from './embed/embed-plugin.js';
import { galleryPlugin, type GalleryPluginOptions } from './gallery/gallery-plugin.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/connection.js';
import { createLogger } from './logger.js';
import { analyticsPlugin } from './plugins/analytics-plugin.js';
import { backgroundPlugin } from './plugins/background-plugin.js';
import { authPlugin } from './plugins/auth-plugin.js';
import { sessionRevocationPlugin } from './auth/session-revocation-plugin.js';
import { configPlugin } from './plugins/config-plugin.js';
import { databasePlugin } from './plugins/database-plugin.js';
import { errorHandlerPlugin } from './plugins/error-handler-plugin.js';
import { healthPlugin } from './plugins/health-plugin.js';
import { jobsPlugin, type JobsPluginOptions } from './jobs/jobs-plugin.js';
import { openApiPlugin } from './openapi/openapi-plugin.js';
import { outputPlugin } from './output/output-plugin.js';
import { realtimePlugin } from './realtime/realtime-plugin.js';
import { batchesPlugin } from './batches/batches-plugin.js';
import { paymentsPlugin, type PaymentsPluginOptions } from './payments/payments-plugin.js';
import { mcpPlugin } from './mcp/mcp-plugin.js';
import { metricsPlugin } from './operations/metrics-plugin.js';
import { readinessPlugin } from './operations/readiness-plugin.js';
import { legalPagesPlugin } from './plugins/legal-pages-plugin.js';
import { rateLimitPlugin } from './plugins/rate-limit-plugin.js';
import { securityHeadersPlugin } from './plugins/security-headers-plugin.js';
import { staticWebPlugin } from './plugins/static-web-plugin.js';
import { storagePlugin, type StoragePluginOptions } from './storage/storage-plugin.js';
import { appSettingsPlugin } from './plugins/app-settings-plugin.js';
import { storyboardPlugin } from './storyboard/storyboard-plugin.js';
import { postPlugin } from './post/post-plugin.js';
import { publishingPlugin, type PublishingPluginOptions } from './publishing/publishing-plugin.js';
import { brandPlugin } from './brand/brand-plugin.js';
import { voicesPlugin, type VoicesPluginOptions } from './voices/voices-plugin.js';
import { webhooksPlugin } from './webhooks/webhooks-plugin.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

export interface BuildAppOverrides {
  /** Use this open database instead of opening the one in config (the caller closes it). */
  database?: DatabaseHandle;
  /** Where log lines go instead of stdout (tests capture them here). */
  logStream?: DestinationStream;
  /** Registered after the built-in plugins, before the app is ready (feature plugins, test routes). */
  plugins?: FastifyPluginAsync[];
  /** Options of the voices plugin (tests inject synthesisers and turn off background sample generation). */
  voices?: VoicesPluginOptions;
  /** Options of the jobs plugin (tests inject a generation runner and providers, or keep the queue stopped). */
  jobs?: JobsPluginOptions;
  /** Options of the payments plugin (tests inject a clock and a payment gateway). */
  payments?: PaymentsPluginOptions;
  /** Options of the storage plugin (tests inject a storage). */
  storage?: StoragePluginOptions;
  /** Options of the gallery plugin (tests inject a quick example maker). */
  gallery?: GalleryPluginOptions;
  /** Options of the publishing plugin (tests shorten its poll and retry timings). */
  publishing?: PublishingPluginOptions;
}

/** Routes polled by machines (liveness, readiness, Prometheus), whose request lines are logged at debug. */
const QUIET_ROUTES = new Set(['/health', '/ready', '/metrics']);

/**
 * The API server with every plugin registered and migrations applied. Add routes (through
 * registerRoute) or plugins before calling `ready()` or `listen()`.
 */
export async function buildApp(config: Config, overrides: BuildAppOverrides = {}): Promise<App> {
  const app = Fastify({
    loggerInstance: createLogger(config.logLevel, overrides.logStream),
    // Fastify accepts a hop count at runtime though its types omit number.
    trustProxy: config.trustProxy as boolean | string | string[],
    // Socket paths and the web app's routes never end in a slash, but links sometimes do.
    routerOptions: { ignoreTrailingSlash: true },
    // While closing, the readiness plugin answers instead of Fastify's generic 503: /ready with its
    // documented body ({ ready, draining, checks }), every other request with a 503 of its own.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Probes and scrapes arrive every few seconds from every load balancer and scraper: their request
  // lines ("incoming request", "request completed") are shown only at LOG_LEVEL=debug or trace.
  app.addHook('onRoute', (route) => {
    if (QUIET_ROUTES.has(route.url)) route.logLevel = config.logLevel === 'debug' || config.logLevel === 'trace' ? config.logLevel : 'warn';
  });

  try {
    await app.register(configPlugin, { config });
    await app.register(errorHandlerPlugin);
    await app.register(securityHeadersPlugin);
    await app.register(backgroundPlugin);
    await app.register(databasePlugin, overrides.database ? { handle: overrides.database } : {});
    await app.register(storagePlugin, overrides.storage ?? {});
    await app.register(appSettingsPlugin);
    await app.register(rateLimitPlugin);
    await app.register(authPlugin);
    await app.register(sessionRevocationPlugin);
    await app.register(authRoutesPlugin);
    await app.register(apiKeyRoutesPlugin);
    await app.register(extensionHandoffPlugin);
    await app.register(analyticsPlugin);
    await app.register(healthPlugin);
    await app.register(legalPagesPlugin);
    await app.register(staticWebPlugin);
    await app.register(voicesPlugin, overrides.voices ?? {});
    await app.register(outputPlugin);
    await app.register(jobsPlugin, overrides.jobs ?? {});
    await app.register(storyboardPlugin);
    await app.register(postPlugin);
    await app.register(publishingPlugin, overrides.publishing ?? {});
    await app.register(brandPlugin);
    await app.register(realtimePlugin);
    await app.register(batchesPlugin);
    await app.register(readinessPlugin);
    await app.register(metricsPlugin);
    await app.register(paymentsPlugin, overrides.payments ?? {});
    await app.register(adminPlugin);
    await app.register(openApiPlugin);
    await app.register(webhooksPlugin);
    await app.register(embedPlugin);
    await app.register(mcpPlugin);
    await app.register(adminUsersPlugin);
    await app.register(galleryPlugin, overrides.gallery ?? {});
    for (const plugin of overrides.plugins ?? []) await app.register(plugin);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
