import type { FastifyRequest } from 'fastify';

/**
 * The usual limit on a route, for app.createRateLimiter: `max` requests a minute per signed-in user,
 * per client address for a visitor.
 */
export function perUserPerMinute(
  name: string,
  max: number,
): { name: string; max: number; timeWindowMs: number; key: (request: FastifyRequest) => string } {
  return { name, max, timeWindowMs: 60_000, key: (request) => request.user?.id ?? request.ip };
}
