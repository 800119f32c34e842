import { API } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { registerRoute } from '../http/register-route.js';
import { notFound, unauthorized } from '../errors.js';
import type { Server } from 'node:http';
import { PROMETHEUS_CONTENT_TYPE, ServiceMetrics } from './service-metrics.js';
import { METRICS_PRIVATE_MESSAGE, METRICS_TOKEN_MESSAGE, metricsAuthorized, publicMetricsServed } from './metrics-access.js';
import { startWorkerMetricsServer } from './worker-metrics-server.js';
import { forgetOldStepTimings, recordStepTiming, throughput } from './throughput.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics (GET /metrics). */
    metrics: ServiceMetrics;
  }
}

/**
 * Writes each step's time for the admin's throughput charts (and now and then forgets week-old
 * ones); a write that fails is logged, never in the way of the job.
 */
export function keepStepTimings(db: Parameters<typeof recordStepTiming>[0], log: { warn(obj: object, msg: string): void }) {
  let written = 0;
  return (timing: Parameters<typeof recordStepTiming>[1]) => {
    written += 1;
    const forget = written % 200 === 1;
    recordStepTiming(db, timing)
      .then(() => (forget ? forgetOldStepTimings(db) : undefined))
      .catch((error: unknown) => log.warn({ err: error }, 'could not keep a step timing'));
  };
}

/**
 * GET /metrics in the Prometheus text format, and the HTTP request histogram of every route. Job
 * and step timings are recorded by the process that runs the job: here with the embedded queue; in
 * scale mode by each worker (worker-main.ts, on METRICS_PORT), so a Prometheus sum over all targets
 * never counts a job twice (the API also hears the workers' relayed events, and ignores them here).
 */
export const metricsPlugin = fp(
  async (app) => {
    const embedded = app.jobQueue.backend === 'embedded';
    const metrics = new ServiceMetrics({
      db: app.db,
      activeSockets: () => app.io.engine.clientsCount,
      // With the embedded queue this process runs the jobs, so it keeps their step times too.
      ...(embedded ? { onStepTimed: keepStepTimings(app.db, app.log) } : {}),
    });
    app.decorate('metrics', metrics);
    // Provider calls made here: a job's with the embedded queue, and in any mode the studio's research look-ups.
    const stopObservingCalls = app.providerSwitchboard?.registry.observeCalls((call) => metrics.providerCalled(call));
    // And the voice previews' synthesis (GET /voices' samples), made by the voices plugin's own providers.
    const stopObservingSamples = app.observeVoiceSampleCalls((call) => metrics.providerCalled(call));
    app.addHook('onClose', async () => {
      stopObservingCalls?.();
      stopObservingSamples();
    });

    app.addHook('onResponse', async (request, reply) => {
      // The route's template keeps the label set small; requests no route matched share one label.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });

    if (embedded) {
      const stopListening = app.jobEvents.listen({
        job_progress: (event) => metrics.jobProgressed(event),
        job_completed: (event) => metrics.jobCompleted(event),
        job_failed: (event) => metrics.jobFailed(event),
      });
      app.addHook('onClose', async () => stopListening());
    }

    registerRoute(app, API.adminThroughput, async () => throughput(app.db));

    registerRoute(app, API.metrics, async (request, reply) => {
      if (!publicMetricsServed(app.config)) throw notFound(METRICS_PRIVATE_MESSAGE);
      if (!metricsAuthorized(request.headers.authorization, app.config.metrics.token)) throw unauthorized(METRICS_TOKEN_MESSAGE);
      return reply.type(PROMETHEUS_CONTENT_TYPE).send(await metrics.render());
    });

    // METRICS_PORT: the same /metrics (and /ready) on a port of its own, for a scraper on an internal
    // network (the only place production serves it without a token).
    const metricsPort = app.config.metrics.workerPort;
    if (metricsPort !== null) {
      let server: Server | null = null;
      app.addHook('onReady', async () => {
        server = await startWorkerMetricsServer(metricsPort, app.config.host, {
          metrics,
          db: app.db,
          queueReachable: async () => {
            await app.jobQueue.status();
            return true;
          },
          draining: () => app.draining,
          token: app.config.metrics.token,
        });
      });
      app.addHook('onClose', async () => {
        await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      });
    }
  },
  { name: 'metrics', fastify: '5.x', dependencies: ['config', 'database', 'voices', 'jobs', 'realtime', 'readiness'] },
);
