import { API_KEY_HEADER, MESSAGES } from '@reelsmith/contracts';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AuthService } from '../auth/auth-service.js';
import { toAuthUser, type AuthUser } from '../http/auth-user.js';
import { createGoogleVerifier, type GoogleCredentialVerifier } from '../auth/google.js';
import { verifySessionToken } from '../auth/session-tokens.js';
import { resealLegacySecrets } from '../auth/stored-secrets.js';
import { encryptionKeyNotice } from '../encryption-key.js';
import { forbidden, HttpError, unauthorized } from '../errors.js';
import { API_KEY_REQUIRED_MESSAGE, INVALID_API_KEY_MESSAGE } from '../http/auth-messages.js';

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
    /** Null when GOOGLE_CLIENT_ID is unset. */
    verifyGoogleCredential: GoogleCredentialVerifier | null;
    /** Requires a valid bearer session token; sets request.user. */
    authenticate: preHandlerAsyncHookHandler;
    /** Accepts a bearer token or an API key in the x-api-key header; sets request.user. */
    authenticateBearerOrApiKey: preHandlerAsyncHookHandler;
    /** Requires an API key in the x-api-key header (a bearer token is not enough); sets request.user. */
    authenticateApiKey: preHandlerAsyncHookHandler;
    /** Like authenticate, then requires role admin (403 otherwise). */
    requireAdmin: preHandlerAsyncHookHandler;
    /** Sets request.user when valid credentials are sent, leaves it null otherwise; never rejects. */
    authenticateOptional: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

function apiKeyHeader(request: FastifyRequest): string | null {
  const value = request.headers[API_KEY_HEADER];
  const key = Array.isArray(value) ? value[0] : value;
  return key ? key.trim() : null;
}

export const authPlugin = fp(
  async (app) => {
    const notice = encryptionKeyNotice(app.config.encryption);
    if (notice) app.log[notice.level](notice.message);
    const resealed = await resealLegacySecrets(app.db, { encryptionKey: app.config.encryption.key, jwtSecret: app.config.jwtSecret });
    if (resealed.apiKeys + resealed.webhooks > 0)
      app.log.info(resealed, 'stored API keys and webhook secrets moved from JWT_SECRET to the encryption key');
    const service = new AuthService(app.db, app.config);
    app.decorate('authService', service);
    app.decorate('verifyGoogleCredential', createGoogleVerifier(app.config.google));
    app.decorateRequest('user', null);

    /** The user behind a bearer token; a bad, expired or revoked token is a 401 asking to sign in again. */
    async function userFromBearer(token: string): Promise<AuthUser> {
      const claims = token ? await verifySessionToken(token, app.config.jwtSecret) : null;
      if (!claims) throw unauthorized(MESSAGES.sessionExpired);
      const user = await service.findActiveSession(claims.sessionId, claims.userId);
      // Suspension ends the session too: say so, so the studio can tell the creator why they are signed out.
      if (!user) throw unauthorized((await service.isSuspended(claims.userId)) ? MESSAGES.accountSuspended : MESSAGES.sessionExpired);
      const { session_scope: scope, session_expires_at: _expiresAt, session_api_key_id: _mintedBy, ...row } = user;
      return toAuthUser(row, { sessionId: claims.sessionId, scope });
    }

    async function userFromApiKey(key: string): Promise<AuthUser> {
      const found = key ? await service.findUserByApiKey(key) : undefined;
      if (!found) throw unauthorized(INVALID_API_KEY_MESSAGE);
      return toAuthUser(found.user, { apiKeyId: found.apiKeyId });
    }

    const authenticate: preHandlerAsyncHookHandler = async (request) => {
      const token = bearerToken(request);
      if (token === null) throw unauthorized(MESSAGES.authRequired);
      request.user = await userFromBearer(token);
    };

    const authenticateBearerOrApiKey: preHandlerAsyncHookHandler = async (request) => {
      const token = bearerToken(request);
      if (token !== null) {
        request.user = await userFromBearer(token);
        return;
      }
      const key = apiKeyHeader(request);
      if (key === null) throw unauthorized(MESSAGES.authRequired);
      request.user = await userFromApiKey(key);
    };

    const authenticateApiKey: preHandlerAsyncHookHandler = async (request) => {
      const key = apiKeyHeader(request);
      if (key === null) throw unauthorized(API_KEY_REQUIRED_MESSAGE);
      request.user = await userFromApiKey(key);
    };

    const requireAdmin: preHandlerAsyncHookHandler = async function (request, reply) {
      await authenticate.call(this, request, reply);
      if (request.user?.role !== 'admin') throw forbidden(MESSAGES.forbidden);
    };

    const authenticateOptional: preHandlerAsyncHookHandler = async function (request, reply) {
      try {
        await authenticateBearerOrApiKey.call(this, request, reply);
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 401) throw error;
        request.user = null;
      }
    };

    app.decorate('authenticate', authenticate);
    app.decorate('authenticateBearerOrApiKey', authenticateBearerOrApiKey);
    app.decorate('authenticateApiKey', authenticateApiKey);
    app.decorate('requireAdmin', requireAdmin);
    app.decorate('authenticateOptional', authenticateOptional);
  },
  { name: 'auth', fastify: '5.x', dependencies: ['config', 'database'] },
);
