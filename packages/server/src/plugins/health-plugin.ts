import { API, type ProviderHealth } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { registerRoute } from '../http/register-route.js';

export type HealthSource = () => Promise<ProviderHealth[]>;

/** GET /health answers from a database check at most this old, so a flood cannot reach the database. */
export const LIVENESS_CACHE_MS = 5_000;
/** No provider is asked for its health more often than this, however often admins look. */
export const PROVIDER_HEALTH_CACHE_MS = 30_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds providers to GET /providers/health; each source is cached for 30 s and refreshed in the background. */
    addHealthSource(source: HealthSource, options?: { cachesItself?: boolean }): void;
    /** Every added source's provider health (cached): the current providers and any other plugin's. */
    checkProviderHealth(): Promise<ProviderHealth[]>;
  }
}

/**
 * A value recomputed at most once per `maxAgeMs`: callers share one computation in flight, and once
 * a value exists a stale one is served while the refresh runs (`staleWhileRefresh`).
 */
export function cachedValue<T>(compute: () => Promise<T>, maxAgeMs: number, { staleWhileRefresh = false, now = Date.now } = {}) {
  let value: { at: number; result: T } | null = null;
  let pending: Promise<T> | null = null;
  const refresh = () => {
    pending ??= compute().then(
      (result) => {
        value = { at: now(), result };
        pending = null;
        return result;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return async (): Promise<T> => {
    if (value && now() - value.at < maxAgeMs) return value.result;
    if (value && staleWhileRefresh) {
      refresh().catch(() => undefined);
      return value.result;
    }
    return refresh();
  };
}

/**
 * GET /health: a cheap, anonymous liveness answer (the process is up and the database answers, checked
 * at most every 5 s). Provider checks cost upstream calls and reveal the setup, so they live behind
 * admin at GET /providers/health (admin plugin) and are cached there.
 */
export const healthPlugin = fp(
  async (app) => {
    const sources: HealthSource[] = [];
    const startedAt = Date.now();
    app.decorate('addHealthSource', (source: HealthSource, options: { cachesItself?: boolean } = {}) => {
      sources.push(options.cachesItself ? source : cachedValue(source, PROVIDER_HEALTH_CACHE_MS, { staleWhileRefresh: true }));
    });
    app.decorate('checkProviderHealth', async () => (await Promise.all(sources.map((source) => source()))).flat());

    const databaseHealthy = cachedValue(async () => {
      try {
        await sql`select 1`.execute(app.db);
        return true;
      } catch (error) {
        app.log.error({ err: error }, 'database health check failed');
        return false;
      }
    }, LIVENESS_CACHE_MS);

    registerRoute(app, API.health, async () => ({
      status: (await databaseHealthy()) ? ('healthy' as const) : ('degraded' as const),
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      database: app.dbDialect,
    }));
  },
  { name: 'health', fastify: '5.x', dependencies: ['database'] },
);
