import {
  jobCompletedEventSchema,
  jobFailedEventSchema,
  jobProgressEventSchema,
  SOCKET_EVENTS,
  SOCKET_OPTIONS,
  subscribeAckSchema,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
} from '@reelsmith/contracts';
import type { ManagerOptions, SocketOptions } from 'socket.io-client';
import type * as z from 'zod/mini';
import { createLiveSocket, type LiveSocket } from './live-socket.js';

export interface JobRealtimeHandlers {
  progress(event: JobProgressEvent): void;
  completed(event: JobCompletedEvent): void;
  failed(event: JobFailedEvent): void;
  /** `resumed` is true when this connect follows an earlier one (events may have been missed). */
  connectionChange(connected: boolean, info: { resumed: boolean }): void;
  /** The server closed the connection itself (the session was revoked, e.g. the account suspended). */
  closedByServer?(): void;
}

/**
 * The live job channel the studio needs. The web uses socket.io directly; the extension can supply
 * one backed by its background worker, which keeps a single connection for every view.
 */
export interface JobRealtimeClient {
  connect(token: string, handlers: JobRealtimeHandlers): void;
  disconnect(): void;
  /** Asks for a job's events; resolves false when the server refused or the channel is down. */
  subscribe(jobId: string): Promise<boolean>;
}

type JobSocket = LiveSocket;
type ContractSocketOptions = typeof SOCKET_OPTIONS & { auth: Record<string, string> };
export type SocketFactory = (url: string | undefined, options: ContractSocketOptions) => JobSocket | Promise<JobSocket>;

/**
 * The live socket over a WebSocket (live-socket.ts, about 1 KB); socket.io-client (about 12 KB, with
 * long polling) is fetched only where no WebSocket opens, or where the runtime has none.
 */
const defaultFactory: SocketFactory = async (url, options) => {
  if (typeof WebSocket !== 'undefined') {
    const socket = createLiveSocket(url, options);
    if (await socket.opened) return socket;
    socket.disconnect();
  }
  const { io } = await import('socket.io-client');
  const ioOptions: Partial<ManagerOptions & SocketOptions> = options;
  return (url ? io(url, ioOptions) : io(ioOptions)) as unknown as JobSocket;
};

/** How long a subscribe waits for the server's acknowledgement. */
const SUBSCRIBE_ACK_TIMEOUT_MS = 10_000;

export interface SocketIoJobClientOptions {
  /** The API origin; '' or undefined connects to the page's own origin. */
  url?: string;
  createSocket?: SocketFactory;
  log?: (message: string, detail?: unknown) => void;
}

/**
 * socket.io at /socket.io/ with the contracts' reconnection settings and the bearer token in the
 * handshake. Every event is parsed with the contracts' schema; malformed ones are dropped.
 */
export function createSocketIoJobClient({
  url,
  createSocket = defaultFactory,
  log = (m, d) => console.warn(m, d),
}: SocketIoJobClientOptions = {}): JobRealtimeClient {
  let socket: JobSocket | null = null;
  // The socket being created (the default factory loads socket.io first); a newer connect or a disconnect makes it stale.
  let pending: Promise<JobSocket | null> | null = null;
  let generation = 0;

  const parsed =
    <S extends z.ZodMiniType>(schema: S, name: string, handle: (value: z.infer<S>) => void) =>
    (payload: unknown) => {
      const result = schema.safeParse(payload);
      if (result.success) handle(result.data);
      else log(`Ignoring a malformed ${name} event`, result.error);
    };

  return {
    connect(token, handlers) {
      socket?.off();
      socket?.disconnect();
      socket = null;
      const attempt = ++generation;
      const created = createSocket(url || undefined, { ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports], auth: { token } });
      if (!(created instanceof Promise)) {
        pending = null;
        wire(created, handlers);
        return;
      }
      pending = created.then(
        (current) => {
          if (attempt !== generation) {
            current.disconnect();
            return null;
          }
          pending = null;
          wire(current, handlers);
          return current;
        },
        (error: unknown) => {
          log('Loading the live connection failed', error);
          if (attempt === generation) pending = null;
          return null;
        },
      );
    },

    disconnect() {
      const current = socket;
      socket = null;
      pending = null;
      generation += 1;
      // The caller resets its own connected flag; a closing socket reports nothing more.
      current?.off();
      current?.disconnect();
    },

    async subscribe(jobId) {
      const current = socket ?? (await pending);
      // socket.io buffers an emit made while (re)connecting, so only a missing socket refuses.
      if (!current) return false;
      return current
        .timeout(SUBSCRIBE_ACK_TIMEOUT_MS)
        .emitWithAck(SOCKET_EVENTS.subscribe, jobId)
        .then(
          (ack: unknown) => {
            const result = subscribeAckSchema.safeParse(ack);
            return result.success && result.data.ok;
          },
          (error: unknown) => {
            log('Subscribing to a job got no answer', { jobId, error });
            return false;
          },
        );
    },
  };

  function wire(current: JobSocket, handlers: JobRealtimeHandlers): void {
    socket = current;
    let connectedBefore = false;
    current.on('connect', () => {
      handlers.connectionChange(true, { resumed: connectedBefore });
      connectedBefore = true;
    });
    current.on('disconnect', (reason) => {
      handlers.connectionChange(false, { resumed: false });
      // The server ends a revoked session's socket itself; the studio then re-checks who is signed in.
      if (reason === 'io server disconnect') handlers.closedByServer?.();
    });
    current.on('connect_error', (error) => log('Live connection failed', error.message));
    current.on(SOCKET_EVENTS.jobProgress, parsed(jobProgressEventSchema, SOCKET_EVENTS.jobProgress, handlers.progress));
    current.on(SOCKET_EVENTS.jobCompleted, parsed(jobCompletedEventSchema, SOCKET_EVENTS.jobCompleted, handlers.completed));
    current.on(SOCKET_EVENTS.jobFailed, parsed(jobFailedEventSchema, SOCKET_EVENTS.jobFailed, handlers.failed));
  }
}
