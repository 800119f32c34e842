import { API, EXTENSION_HANDOFF_MESSAGES } from '@reelsmith/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { unauthorized } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { toPublicUser } from '../http/auth-user.js';
import { MemoryHandoffCodeStore, RedisHandoffCodeStore, type HandoffCodeStore } from './extension-handoff-store.js';

export interface ExtensionHandoffPluginOptions {
  store?: HandoffCodeStore;
}

/** Exchanges per client address per minute: codes are unguessable, this only bounds the noise. */
const EXCHANGE_LIMIT_PER_MINUTE = 30;

/** In scale mode a code issued by one API process is redeemed by whichever one the extension reaches. */
function handoffStoreFor(app: FastifyInstance): HandoffCodeStore {
  const queue = app.config.queue;
  if (queue.backend !== 'bullmq') return new MemoryHandoffCodeStore();
  const redis = new Redis(queue.redisUrl, { maxRetriesPerRequest: 2 });
  redis.on('error', (error) => app.log.warn({ err: error }, 'hand-off store connection error'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => undefined);
  });
  return new RedisHandoffCodeStore(redis, queue.prefix);
}

/**
 * The web app → Chrome extension sign-in hand-off. The web app asks for a one-time code with its
 * bearer token and passes only the code to the extension; the extension trades it for a session of
 * its own, so the web app's long-lived token never leaves the page and each device logs out alone.
 */
export const extensionHandoffPlugin = fp<ExtensionHandoffPluginOptions>(
  async (app, options) => {
    const store = options.store ?? handoffStoreFor(app);
    const limitExchange = app.createRateLimiter({
      name: 'extension-handoff-exchange',
      max: EXCHANGE_LIMIT_PER_MINUTE,
      timeWindowMs: 60_000,
      key: (request) => request.ip,
    });

    registerRoute(app, API.extensionHandoff, async (request) => {
      const { code, expiresAt } = await store.issue(request.user.id);
      request.log.info({ userId: request.user.id }, 'extension hand-off code issued');
      return { code, expiresAt: expiresAt.toISOString() };
    });

    registerRoute(
      app,
      API.extensionHandoffExchange,
      async (request) => {
        const grant = await store.redeem(request.body.code);
        if (!grant) throw unauthorized(EXTENSION_HANDOFF_MESSAGES.invalidCode);
        const found = await app.authService.findUserById(grant.userId);
        if (!found) throw unauthorized(EXTENSION_HANDOFF_MESSAGES.invalidCode);
        const user = await app.authService.syncRole(found);
        const session = await app.authService.createSession(user.id, request.headers['user-agent']);
        request.log.info({ userId: user.id, sessionId: session.sessionId }, 'extension signed in by hand-off');
        return { token: session.token, user: toPublicUser(user) };
      },
      { preHandler: limitExchange },
    );
  },
  { name: 'extension-handoff', fastify: '5.x', dependencies: ['config', 'auth', 'rate-limit', 'error-handler'] },
);
