import type { FastifyInstance } from 'fastify';
import { userRoom } from '../realtime/realtime-plugin.js';

/**
 * Ends a user's access at once (suspension): revokes every session row, then disconnects the user's
 * open sockets in this process. API keys need no row change: authentication refuses a suspended
 * user's keys (and sessions) on every request and socket handshake.
 *
 * Merge note: the hardening branch builds the same capability ("revoking a user's sessions
 * disconnects their sockets at once, also across processes"); unify with its version, which also
 * reaches sockets held by other API processes.
 */
export async function revokeUserSessions(app: FastifyInstance, userId: string): Promise<void> {
  await app.authService.revokeOtherSessions(userId, null);
  app.io.in(userRoom(userId)).disconnectSockets(true);
}
