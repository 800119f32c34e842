import rateLimit from '@fastify/rate-limit';
import { MESSAGES } from '@reelsmith/contracts';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { normalizeEmail } from '../auth/auth-service.js';
import { SignInThrottle } from '../auth/sign-in-throttle.js';
import { tooManyRequests } from '../errors.js';

export interface RateLimiterOptions {
  /** Namespaces the counters, so two limiters never share a key. */
  name: string;
  max: number;
  timeWindowMs: number;
  /** What to count by; null skips the limit for this request (e.g. no e-mail in the body). */
  key: (request: FastifyRequest) => string | null;
  /** The 429's message when MESSAGES.rateLimited (sign-in attempts) does not fit. */
  message?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler that answers 429 (MESSAGES.rateLimited) once `max` requests per key are used up. */
    createRateLimiter(options: RateLimiterOptions): preHandlerAsyncHookHandler;
    /** Sign-in, sign-up and reset attempts: RATE_LIMIT_AUTH_MAX per minute per client address and per (e-mail, address) pair. */
    limitAuthAttempts: preHandlerAsyncHookHandler;
    /** Growing delays after failed sign-ins, per (e-mail, address) and per address; see SignInThrottle. */
    signInThrottle: SignInThrottle;
  }
}

const AUTH_WINDOW_MS = 60_000;

function bodyEmail(request: FastifyRequest): string | null {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? normalizeEmail(body.email) : null;
}

export const rateLimitPlugin = fp(
  async (app) => {
    await app.register(rateLimit, { global: false });

    app.decorate('createRateLimiter', (options: RateLimiterOptions): preHandlerAsyncHookHandler => {
      const check = app.createRateLimit({
        max: options.max,
        timeWindow: options.timeWindowMs,
        keyGenerator: (request) => `${options.name}:${options.key(request) ?? ''}`,
      });
      return async (request, reply) => {
        if (options.key(request) === null) return;
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) {
          reply.header('retry-after', String(result.ttlInSeconds));
          throw tooManyRequests(options.message ?? MESSAGES.rateLimited);
        }
      };
    });

    const max = app.config.rateLimitAuthMax;
    const byAddress = app.createRateLimiter({ name: 'auth-ip', max, timeWindowMs: AUTH_WINDOW_MS, key: (request) => request.ip });
    // Per pair, not per e-mail: requests from elsewhere must not be able to lock the owner out.
    const byEmail = app.createRateLimiter({
      name: 'auth-email-address',
      max,
      timeWindowMs: AUTH_WINDOW_MS,
      key: (request) => {
        const email = bodyEmail(request);
        return email === null ? null : `${email}\n${request.ip}`;
      },
    });
    app.decorate('signInThrottle', new SignInThrottle());
    app.decorate('limitAuthAttempts', async function limitAuthAttempts(request, reply) {
      await byAddress.call(this, request, reply);
      await byEmail.call(this, request, reply);
    } as preHandlerAsyncHookHandler);
  },
  { name: 'rate-limit', fastify: '5.x', dependencies: ['config'] },
);
