import { API, type ReadinessResponse } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { registerRoute } from '../http/register-route.js';
import { cachedValue } from '../plugins/health-plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** True from the moment a shutdown began (SIGTERM): GET /ready answers 503 and no new job starts here. */
    readonly draining: boolean;
    /** Begins draining (main.ts on SIGTERM, before it closes the server). */
    startDraining(): void;
  }
}

/** A dependency that has not answered in this long is not ready (a probe must answer quickly itself). */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;
/** Probes from several load balancers share one round of checks at most this often. */
export const READINESS_CACHE_MS = 1_000;

type Check = ReadinessResponse['checks']['database'];

async function timed(work: () => Promise<boolean>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_CHECK_TIMEOUT_MS);
  });
  try {
    const ok = await Promise.race([work().catch(() => false), timeout]);
    return { ok, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /ready, for load balancers and Kubernetes readiness probes (GET /health stays the cheap
 * liveness answer): 200 when the database answers, the queue backend answers (Redis in scale mode)
 * and storage is reachable, 503 with the same body naming what failed, or while draining.
 */
export const readinessPlugin = fp(
  async (app) => {
    let draining = false;
    app.decorate('draining', {
      getter: () => draining,
    });
    app.decorate('startDraining', () => {
      draining = true;
    });
    // From close() on (main.ts drains first; tests may close directly), requests that still arrive
    // on open keep-alive connections are turned away with 503 and the connection closed; /ready
    // answers with its own body, saying it is draining.
    let closing = false;
    app.addHook('preClose', async () => {
      draining = true;
      closing = true;
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!closing || request.routeOptions.url === API.ready.path) return;
      return reply
        .code(503)
        .header('connection', 'close')
        .send({ statusCode: 503, error: 'Service Unavailable', message: 'The server is shutting down; try again in a moment' });
    });

    const checkAll = cachedValue(async () => {
      const [database, queue, storage] = await Promise.all([
        timed(async () => {
          await sql`select 1`.execute(app.db);
          return true;
        }),
        timed(async () => {
          await app.jobQueue.status();
          return true;
        }),
        timed(async () => (await app.storage.check()).reachable),
      ]);
      return { database, queue, storage };
    }, READINESS_CACHE_MS);

    registerRoute(app, API.ready, async (_request, reply) => {
      const checks = await checkAll();
      const ready = !draining && checks.database.ok && checks.queue.ok && checks.storage.ok;
      const body: ReadinessResponse = { ready, draining, checks };
      if (!ready) {
        for (const [name, check] of Object.entries(checks)) if (!check.ok) app.log.warn({ check: name }, 'readiness check failed');
        return reply.code(503).send(body);
      }
      return body;
    });
  },
  { name: 'readiness', fastify: '5.x', dependencies: ['config', 'database', 'storage', 'jobs'] },
);
