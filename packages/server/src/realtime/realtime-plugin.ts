import {
  API,
  MESSAGES,
  SOCKET_EVENTS,
  SOCKET_PATH,
  jobCompletedEventSchema,
  jobFailedEventSchema,
  jobProgressEventSchema,
  PUBLICATION_SOCKET_EVENT,
  publicationProgressEventSchema,
  socketAuthSchema,
  subscribePayloadSchema,
  type ClientToServerEvents,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type Publication,
  type ServerToClientEvents,
} from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { Server, type Socket } from 'socket.io';
import { verifySessionToken } from '../auth/session-tokens.js';
import { registerRoute } from '../http/register-route.js';
import { findUserJob } from '../video-jobs/video-job-repository.js';
import { INVALID_API_KEY_MESSAGE } from '../http/auth-messages.js';

/** Under the Chrome extension service worker's 30 s idle limit, so its socket's pings keep it alive. */
export const PING_INTERVAL_MS = 20_000;
export const PING_TIMEOUT_MS = 20_000;

export const jobRoom = (jobId: string): string => `job:${jobId}`;
export const userRoom = (userId: string): string => `user:${userId}`;

interface SocketData {
  userId: string;
  /**
   * How the socket signed in, re-checked on every subscribe so a revoked session stops there.
   * `apiKeyId`: the key it signed in with, or the key that minted its embed session; revoking that
   * key disconnects it.
   */
  credential: { kind: 'session'; sessionId: string; apiKeyId: string | null } | { kind: 'apiKey'; key: string; apiKeyId: string };
  /** When a session socket's session expires (an API key does not expire). */
  expiresAtMs: number | null;
}

/** setTimeout's ceiling (about 24.8 days); a full session lives 30 days, so its timer is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Disconnects `socket` when its session expires, to the millisecond, without waiting for its next subscribe. */
function endAtExpiry(
  socket: { disconnect(close: boolean): unknown; once(event: 'disconnect', listener: () => void): unknown },
  expiresAtMs: number,
): void {
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = expiresAtMs - Date.now();
    if (left <= 0) {
      socket.disconnect(true);
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  socket.once('disconnect', () => clearTimeout(timer));
}

type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

declare module 'fastify' {
  interface FastifyInstance {
    io: RealtimeServer;
  }
}

/**
 * socket.io at /socket.io/ on the app's HTTP server. The handshake carries `{token}` or `{apiKey}`,
 * checked exactly like HTTP requests. Each socket joins its user's room `user:<id>` (the extension
 * hears all its jobs there) and, on `subscribe`, the room `job:<id>` of one of its own jobs. Job
 * events come from app.jobEvents and go to both rooms; a socket in both receives each event once.
 */
export const realtimePlugin = fp(
  async (app) => {
    const io: RealtimeServer = new Server(app.server, {
      path: SOCKET_PATH,
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: PING_TIMEOUT_MS,
      // Auth is a token in the handshake, never a cookie, so any origin (the web app, the extension) may connect.
      cors: { origin: true, credentials: false },
      serveClient: false,
    });
    app.decorate('io', io);

    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- socket.io ignores the result; every failure inside goes to next(error).
    io.use(async (socket, next) => {
      const auth = socketAuthSchema.safeParse(socket.handshake.auth);
      if (!auth.success) return next(new Error(MESSAGES.authRequired));
      try {
        if ('token' in auth.data) {
          const claims = await verifySessionToken(auth.data.token, app.config.jwtSecret);
          const user = claims ? await app.authService.findActiveSession(claims.sessionId, claims.userId) : undefined;
          if (!claims || !user) return next(new Error(MESSAGES.sessionExpired));
          socket.data = {
            userId: user.id,
            credential: { kind: 'session', sessionId: claims.sessionId, apiKeyId: user.session_api_key_id },
            expiresAtMs: Date.parse(user.session_expires_at),
          };
        } else {
          const found = await app.authService.findUserByApiKey(auth.data.apiKey);
          if (!found) return next(new Error(INVALID_API_KEY_MESSAGE));
          socket.data = {
            userId: found.user.id,
            credential: { kind: 'apiKey', key: auth.data.apiKey, apiKeyId: found.apiKeyId },
            expiresAtMs: null,
          };
        }
        next();
      } catch (error) {
        app.log.error({ err: error }, 'socket authentication failed');
        next(new Error(MESSAGES.internalError));
      }
    });

    async function stillSignedIn(socket: RealtimeSocket): Promise<boolean> {
      const { userId, credential } = socket.data;
      if (credential.kind === 'session') return (await app.authService.findActiveSession(credential.sessionId, userId)) !== undefined;
      return (await app.authService.findUserByApiKey(credential.key))?.user.id === userId;
    }

    io.on('connection', (socket) => {
      void socket.join(userRoom(socket.data.userId));
      if (socket.data.expiresAtMs !== null) endAtExpiry(socket, socket.data.expiresAtMs);

      socket.on(SOCKET_EVENTS.subscribe, async (jobId: unknown, ack?: unknown) => {
        const reply = typeof ack === 'function' ? (ack as (result: { ok: boolean; error?: string }) => void) : () => undefined;
        try {
          const parsed = subscribePayloadSchema.safeParse(jobId);
          if (!parsed.success) return reply({ ok: false, error: MESSAGES.notFound });
          if (!(await stillSignedIn(socket))) {
            reply({ ok: false, error: MESSAGES.sessionExpired });
            socket.disconnect(true);
            return;
          }
          const job = await findUserJob(app.db, socket.data.userId, parsed.data);
          if (!job) return reply({ ok: false, error: MESSAGES.notFound });
          await socket.join(jobRoom(job.id));
          reply({ ok: true });
        } catch (error) {
          app.log.error({ err: error }, 'socket subscribe failed');
          reply({ ok: false, error: MESSAGES.internalError });
        }
      });

      socket.on(SOCKET_EVENTS.unsubscribe, (jobId: unknown) => {
        if (typeof jobId === 'string') void socket.leave(jobRoom(jobId));
      });
    });

    // Events are forwarded as the job repository's transitions made them: each was stored before it
    // was published, so its progress is never below one already sent. The schemas only guard the wire.
    const toRooms = (jobId: string, userId: string) => io.to(jobRoom(jobId)).to(userRoom(userId));

    const onProgress = (event: JobProgressEvent, userId: string) => {
      const parsed = jobProgressEventSchema.safeParse(event);
      if (!parsed.success) return app.log.error({ jobId: event.jobId, issues: parsed.error.issues }, 'invalid job_progress event dropped');
      toRooms(event.jobId, userId).emit(SOCKET_EVENTS.jobProgress, parsed.data);
    };
    const onCompleted = (event: JobCompletedEvent, userId: string) => {
      const parsed = jobCompletedEventSchema.safeParse(event);
      if (!parsed.success) return app.log.error({ jobId: event.jobId, issues: parsed.error.issues }, 'invalid job_completed event dropped');
      toRooms(event.jobId, userId).emit(SOCKET_EVENTS.jobCompleted, parsed.data);
    };
    const onFailed = (event: JobFailedEvent, userId: string) => {
      const parsed = jobFailedEventSchema.safeParse(event);
      if (!parsed.success) return app.log.error({ jobId: event.jobId, issues: parsed.error.issues }, 'invalid job_failed event dropped');
      toRooms(event.jobId, userId).emit(SOCKET_EVENTS.jobFailed, parsed.data);
    };
    // A revoked session (logout, password change or reset, suspension, role change) or API key loses its sockets at once.
    const stopRevocations = app.sessionRevocations.onRevocation((revocation) => {
      const room = io.of('/').adapter.rooms.get(userRoom(revocation.userId));
      for (const socketId of room ?? []) {
        const socket = io.of('/').sockets.get(socketId);
        if (!socket) continue;
        const { credential } = socket.data;
        const ends = revocation.apiKeyIds
          ? credential.apiKeyId !== null && revocation.apiKeyIds.includes(credential.apiKeyId)
          : credential.kind === 'session'
            ? revocation.sessionId !== undefined
              ? credential.sessionId === revocation.sessionId
              : credential.sessionId !== revocation.exceptSessionId
            : revocation.includeApiKeys === true;
        if (ends) socket.disconnect(true);
      }
    });

    const stopJobEvents = app.jobEvents.listen({ job_progress: onProgress, job_completed: onCompleted, job_failed: onFailed });
    // Publications go to their creator's room only (My Videos and the Publish dialog listen there).
    const onPublication = (publication: Publication, userId: string) => {
      const parsed = publicationProgressEventSchema.safeParse(publication);
      if (!parsed.success) return app.log.error({ publicationId: publication.id }, 'invalid publication event dropped');
      io.to(userRoom(userId)).emit(PUBLICATION_SOCKET_EVENT, parsed.data);
    };
    app.publicationEvents.on('publication', onPublication);

    registerRoute(app, API.websocketStats, async () => {
      let subscriptions = 0;
      for (const [room, members] of io.of('/').adapter.rooms) if (room.startsWith('job:')) subscriptions += members.size;
      return { connectedClients: io.of('/').sockets.size, subscriptions };
    });

    // Open websockets would hold the HTTP server open; the engine is closed here, the server by Fastify.
    app.addHook('preClose', async () => {
      stopRevocations();
      stopJobEvents();
      app.publicationEvents.off('publication', onPublication);
      io.disconnectSockets(true);
      io.engine.close();
    });
  },
  { name: 'realtime', fastify: '5.x', dependencies: ['config', 'database', 'auth', 'jobs', 'session-revocation', 'publishing'] },
);
