import { API, MESSAGES } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { badRequest, notFound } from '../errors.js';
import { perUserPerMinute } from '../http/rate-limit-keys.js';
import { registerRoute } from '../http/register-route.js';
import { apiKeyPrefix } from './api-keys.js';
import { disconnectApiKeySockets } from './revoke-user-sessions.js';
import { logoUploadRefusal } from '../uploads/upload-store.js';

export const API_KEY_NOT_FOUND_MESSAGE = 'No active API key with this id';
/** Per account per minute: a partner page load mints one session; a loop minting thousands is not that. */
const EMBED_SESSIONS_PER_MINUTE = 120;
const KEYS_PER_MINUTE = 20;

/** Managing API keys and minting embed sessions with one. */
export const apiKeyRoutesPlugin = fp(
  async (app) => {
    const auth = app.authService;
    const limitKeyCreation = app.createRateLimiter(perUserPerMinute('api-key-create', KEYS_PER_MINUTE));
    const limitEmbedSessions = app.createRateLimiter(perUserPerMinute('embed-session', EMBED_SESSIONS_PER_MINUTE));

    registerRoute(
      app,
      API.createApiKey,
      async (request) => {
        const created = await auth.createApiKey(request.user.id, request.body.name, undefined, { hashedOnly: true });
        request.log.info({ apiKeyId: created.id }, 'API key created');
        return { id: created.id, name: created.name, key: created.key, prefix: apiKeyPrefix(created.key), createdAt: created.created_at };
      },
      { preHandler: limitKeyCreation },
    );

    registerRoute(app, API.revokeApiKey, async (request) => {
      if (!(await auth.revokeApiKey(request.user.id, request.params.id))) throw notFound(API_KEY_NOT_FOUND_MESSAGE);
      await disconnectApiKeySockets(app, request.user.id, [request.params.id]);
      request.log.info({ apiKeyId: request.params.id }, 'API key revoked');
      return { success: true as const };
    });

    registerRoute(
      app,
      API.createEmbedSession,
      async (request) => {
        const apiKeyId = request.user.apiKeyId;
        if (!apiKeyId) throw notFound(MESSAGES.notFound);
        // The session's brand is checked like PUT /api/brand's: its logo must be this account's own picture.
        const logo = request.body?.brand?.logoUploadId;
        const refusal = logo ? await logoUploadRefusal(app.db, request.user.id, logo) : null;
        if (refusal) throw badRequest(refusal, 'brand.logoUploadId');
        const session = await auth.createEmbedSession(request.user.id, apiKeyId, request.headers['user-agent'], request.body?.brand);
        return { token: session.token, expiresAt: session.expiresAt };
      },
      { preHandler: limitEmbedSessions },
    );
  },
  { name: 'api-key-routes', fastify: '5.x', dependencies: ['auth', 'rate-limit', 'error-handler', 'session-revocation'] },
);
