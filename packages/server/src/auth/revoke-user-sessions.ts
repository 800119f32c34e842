import type { FastifyInstance } from 'fastify';

export interface RevokeUserSessionsOptions {
  /** Keep this session (the one that changed the password); null or absent: every session ends. */
  exceptSessionId?: string | null;
  /** Also close sockets opened with the user's API keys. Default true (suspension ends everything); a password change passes false. */
  includeApiKeys?: boolean;
}

/**
 * Ends a user's sessions at once: the session rows are revoked (every request checks them) and
 * every live socket of those sessions is disconnected, in every API process. Used by password
 * change and reset, suspension and role change.
 */
export async function revokeUserSessions(app: FastifyInstance, userId: string, options: RevokeUserSessionsOptions = {}): Promise<void> {
  const exceptSessionId = options.exceptSessionId ?? null;
  await app.authService.revokeOtherSessions(userId, exceptSessionId);
  await app.sessionRevocations.publish({ userId, exceptSessionId, includeApiKeys: options.includeApiKeys ?? true });
}

/** Logout: this one session ends, and its sockets with it. */
export async function revokeSingleSession(app: FastifyInstance, userId: string, sessionId: string): Promise<void> {
  await app.authService.revokeSession(sessionId);
  await app.sessionRevocations.publish({ userId, sessionId });
}

/**
 * A role change keeps the sessions (the next request reads the new role from the database) but
 * closes the sockets, so they reconnect and authenticate again under the new role.
 */
export async function disconnectUserSockets(app: FastifyInstance, userId: string): Promise<void> {
  await app.sessionRevocations.publish({ userId, exceptSessionId: null, includeApiKeys: true });
}

/**
 * Revoked API keys lose their sockets at once, and so do the sockets of the embed sessions they
 * minted (the sessions themselves are revoked with the keys, auth-service.ts).
 */
export async function disconnectApiKeySockets(app: FastifyInstance, userId: string, apiKeyIds: string[]): Promise<void> {
  if (apiKeyIds.length === 0) return;
  await app.sessionRevocations.publish({ userId, apiKeyIds });
}
