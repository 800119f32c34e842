import type { ReadinessResponse } from '@reelsmith/contracts';
import { createServer, type Server } from 'node:http';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { METRICS_TOKEN_MESSAGE, metricsAuthorized } from './metrics-access.js';
import { PROMETHEUS_CONTENT_TYPE, type ServiceMetrics } from './service-metrics.js';
import { READINESS_CHECK_TIMEOUT_MS } from './readiness-plugin.js';

export interface WorkerMetricsServerOptions {
  metrics: ServiceMetrics;
  db: Kysely<Database>;
  /** Whether the queue backend (Redis) answers this worker. */
  queueReachable: () => Promise<boolean>;
  draining: () => boolean;
  token: string | null;
}

async function within(work: () => Promise<boolean>): Promise<ReadinessResponse['checks']['database']> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const ok = await Promise.race([
    work().catch(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_CHECK_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  return { ok, latencyMs: Math.round(performance.now() - started) };
}

/**
 * A worker process has no HTTP API; with METRICS_PORT it answers GET /metrics (same format and
 * token as the API's) and GET /ready (database and Redis answer, not draining) for its scraper and
 * its orchestrator's probes. Storage is the API's check: a worker writes to it only at a job's end.
 */
export function startWorkerMetricsServer(port: number, host: string, options: WorkerMetricsServerOptions): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    void (async () => {
      if (request.method !== 'GET')
        return send(405, 'application/json', JSON.stringify({ statusCode: 405, error: 'Method Not Allowed', message: 'Only GET' }));
      if (path === '/metrics') {
        if (!metricsAuthorized(request.headers.authorization, options.token))
          return send(401, 'application/json', JSON.stringify({ statusCode: 401, error: 'Unauthorized', message: METRICS_TOKEN_MESSAGE }));
        return send(200, PROMETHEUS_CONTENT_TYPE, await options.metrics.render());
      }
      if (path === '/ready') {
        const [database, queue] = await Promise.all([
          within(async () => {
            await sql`select 1`.execute(options.db);
            return true;
          }),
          within(options.queueReachable),
        ]);
        const draining = options.draining();
        const body: ReadinessResponse = {
          ready: !draining && database.ok && queue.ok,
          draining,
          checks: { database, queue, storage: { ok: true, latencyMs: 0 } },
        };
        return send(body.ready ? 200 : 503, 'application/json', JSON.stringify(body));
      }
      return send(
        404,
        'application/json',
        JSON.stringify({ statusCode: 404, error: 'Not Found', message: `No ${path} here: a worker serves /metrics and /ready` }),
      );
    })().catch(() =>
      send(500, 'application/json', JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong' })),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
