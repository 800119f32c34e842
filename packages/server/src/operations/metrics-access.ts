import { timingSafeEqual } from 'node:crypto';

export const METRICS_PRIVATE_MESSAGE =
  'GET /metrics is not served on this port in production without METRICS_TOKEN: set METRICS_TOKEN, or scrape METRICS_PORT';

/**
 * Whether GET /metrics is served on the public port: always with a token; without one only outside
 * production (a scraper on an internal network uses METRICS_PORT instead, which is never public).
 */
export function publicMetricsServed(config: { production: boolean; metrics: { token: string | null } }): boolean {
  return config.metrics.token !== null || !config.production;
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
