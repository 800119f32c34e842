import { API, type ProviderHealth } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { registerRoute } from '../http/register-route.js';

export type HealthSource = () => Promise<ProviderHealth[]>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds providers to GET /health; provider plugins call this at registration. */
    addHealthSource(source: HealthSource): void;
    /** Every registered provider's health, checked now. */
    checkProviderHealth(): Promise<ProviderHealth[]>;
  }
}

/** GET /health: database reachability and each registered provider's health. */
export const healthPlugin = fp(
  async (app) => {
    const sources: HealthSource[] = [];
    const startedAt = Date.now();
    app.decorate('addHealthSource', (source: HealthSource) => {
      sources.push(source);
    });
    app.decorate('checkProviderHealth', async () => (await Promise.all(sources.map((source) => source()))).flat());

    registerRoute(app, API.health, async (request) => {
      let databaseHealthy = true;
      try {
        await sql`select 1`.execute(app.db);
      } catch (error) {
        databaseHealthy = false;
        request.log.error({ err: error }, 'database health check failed');
      }
      const providers = await app.checkProviderHealth();
      const healthy = databaseHealthy && providers.every((provider) => provider.status === 'healthy');
      return {
        status: healthy ? ('healthy' as const) : ('degraded' as const),
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        database: app.dbDialect,
        providers,
      };
    });
  },
  { name: 'health', fastify: '5.x', dependencies: ['database'] },
);
