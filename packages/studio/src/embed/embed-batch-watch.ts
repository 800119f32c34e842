import { BATCH_SOCKET_EVENTS, batchCompletedEventSchema } from '@reelsmith/contracts';
import type { EmbedBatches } from './embed-batches.js';

export interface BatchWatchOptions {
  /** The API origin; '' connects to the page's own. */
  url: string;
  token: string;
  /** socket.io's client, fetched when the first batch is queued here (tests pass a fake). */
  connect?: () => Promise<(url: string | undefined, options: Record<string, unknown>) => WatchSocket>;
}

/** What the watch uses of a socket.io client socket. */
export interface WatchSocket {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(): unknown;
  disconnect(): unknown;
}

/**
 * The contracts' SOCKET_OPTIONS, written out: importing that constant here would add an export to the
 * chunk the web app's first load shares, for a view only the embed has. A test holds them equal.
 */
export const WATCH_SOCKET_OPTIONS = {
  path: '/socket.io/',
  transports: ['websocket', 'polling'],
  reconnection: true,
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  timeout: 20000,
};

const watching = new WeakMap<EmbedBatches, () => void>();

const socketIo: NonNullable<BatchWatchOptions['connect']> = async () => {
  const { io } = await import('socket.io-client');
  return (url, options) => (url ? io(url, options) : io(options));
};

/**
 * While batches queued in this embed are running, a socket of the embed's own hears the account's
 * `batch_completed` (its user room; the server sends it to every API process's sockets) and, on each
 * (re)connect, reads those batches again, so an end that came while it was away or before it joined
 * is not lost. Closed when the last one has ended or the server ends the session. A socket apart from
 * the job list's, so the web studio's shared job client (on its first load) carries nothing of it.
 */
export function watchEmbedBatches(batches: EmbedBatches, { url, token, connect = socketIo }: BatchWatchOptions): void {
  if (watching.has(batches) || batches.runningCount() === 0) return;
  let socket: WatchSocket | null = null;
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    watching.delete(batches);
    stopEnded();
    socket?.off();
    socket?.disconnect();
  };
  watching.set(batches, stop);
  const stopEnded = batches.onEnded(() => {
    if (batches.runningCount() === 0) stop();
  });
  connect().then(
    (open) => {
      if (closed) return;
      socket = open(url || undefined, { ...WATCH_SOCKET_OPTIONS, transports: [...WATCH_SOCKET_OPTIONS.transports], auth: { token } });
      socket.on('connect', () => void batches.catchUp());
      socket.on(BATCH_SOCKET_EVENTS.batchCompleted, (payload: unknown) => {
        const parsed = batchCompletedEventSchema.safeParse(payload);
        if (parsed.success) batches.heard(parsed.data);
      });
      // The session was revoked or expired: nothing more will come on it.
      socket.on('disconnect', (reason: string) => {
        if (reason === 'io server disconnect') stop();
      });
    },
    () => stop(),
  );
}
