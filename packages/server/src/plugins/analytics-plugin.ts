import { API, type AnalyticsEvent } from '@reelsmith/contracts';
import { createHmac, hkdfSync, randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Insertable } from 'kysely';
import type { AnalyticsEventsTable } from '../db/schema.js';
import { registerRoute } from '../http/register-route.js';

/** Generous for page views and clicks from one browser, low enough to keep the table clean. */
const EVENTS_PER_MINUTE = 120;

function columnsOf(event: AnalyticsEvent): Pick<AnalyticsEventsTable, 'name' | 'path' | 'method'> {
  switch (event.type) {
    case 'page_view':
      return { name: event.title ?? null, path: event.path, method: null };
    case 'click':
      return { name: event.name, path: event.path ?? null, method: null };
    case 'login':
    case 'sign_up':
      return { name: null, path: null, method: event.method };
  }
}

/** POST /api/analytics/events: page views, clicks and sign-in events, with a keyed hash instead of the address. */
export const analyticsPlugin = fp(
  async (app) => {
    const ipKey = Buffer.from(hkdfSync('sha256', app.config.jwtSecret, 'reelsmith-analytics', 'ip hash v1', 32));
    const hashIp = (ip: string) => createHmac('sha256', ipKey).update(ip).digest('hex').slice(0, 32);
    const limit = app.createRateLimiter({ name: 'analytics', max: EVENTS_PER_MINUTE, timeWindowMs: 60_000, key: (request) => request.ip });

    registerRoute(
      app,
      API.analytics,
      async (request) => {
        const createdAt = new Date().toISOString();
        const ipHash = hashIp(request.ip);
        const rows: Insertable<AnalyticsEventsTable>[] = request.body.events.map((event) => ({
          id: randomUUID(),
          user_id: request.user?.id ?? null,
          type: event.type,
          ...columnsOf(event),
          created_at: createdAt,
          ip_hash: ipHash,
        }));
        await app.db.insertInto('analytics_events').values(rows).execute();
        return { accepted: rows.length };
      },
      { preHandler: limit },
    );
  },
  { name: 'analytics', fastify: '5.x', dependencies: ['config', 'database', 'auth', 'rate-limit'] },
);
