import { API } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { timingSafeEqual } from 'node:crypto';
import { registerRoute } from '../http/register-route.js';
import { unauthorized } from '../errors.js';
import { PROMETHEUS_CONTENT_TYPE, ServiceMetrics } from './service-metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics (GET /metrics). */
    metrics: ServiceMetrics;
  }
}

export const METRICS_TOKEN_MESSAGE =
  'GET /metrics needs the header "Authorization: Bearer <METRICS_TOKEN>" with the token this server was started with';

/** Whether an Authorization header carries the metrics token (always true when no token is set). */
export function metricsAuthorized(authorization: string | undefined, token: string | null): boolean {
  if (token === null) return true;
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics in the Prometheus text format, and the HTTP request histogram of every route. Job
 * and step timings are recorded by the process that runs the job: here with the embedded queue; in
 * scale mode by each worker (worker-main.ts, on METRICS_PORT), so a Prometheus sum over all targets
 * never counts a job twice (the API also hears the workers' relayed events, and ignores them here).
 */
export const metricsPlugin = fp(
  async (app) => {
    const metrics = new ServiceMetrics({ db: app.db, activeSockets: () => app.io.engine.clientsCount });
    app.decorate('metrics', metrics);

    app.addHook('onResponse', async (request, reply) => {
      // The route's template keeps the label set small; requests no route matched share one label.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });

    if (app.jobQueue.backend === 'embedded') {
      const onProgress = metrics.jobProgressed.bind(metrics);
      const onCompleted = metrics.jobCompleted.bind(metrics);
      const onFailed = metrics.jobFailed.bind(metrics);
      app.jobEvents.on('job_progress', onProgress);
      app.jobEvents.on('job_completed', onCompleted);
      app.jobEvents.on('job_failed', onFailed);
      app.addHook('onClose', async () => {
        app.jobEvents.off('job_progress', onProgress);
        app.jobEvents.off('job_completed', onCompleted);
        app.jobEvents.off('job_failed', onFailed);
      });
    }

    registerRoute(app, API.metrics, async (request, reply) => {
      if (!metricsAuthorized(request.headers.authorization, app.config.metrics.token)) throw unauthorized(METRICS_TOKEN_MESSAGE);
      return reply.type(PROMETHEUS_CONTENT_TYPE).send(await metrics.render());
    });
  },
  { name: 'metrics', fastify: '5.x', dependencies: ['config', 'database', 'jobs', 'realtime'] },
);
