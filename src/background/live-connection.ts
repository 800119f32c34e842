import {
  jobCompletedEventSchema,
  jobFailedEventSchema,
  jobProgressEventSchema,
  SOCKET_EVENTS,
  SOCKET_OPTIONS,
  SOCKET_PATH,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
} from '@reelsmith/contracts';

/** The part of a socket.io client socket this module uses (tests pass a fake). */
export interface SocketLike {
  connected: boolean;
  /** socket.io: false once the socket was closed on purpose (by either side). */
  active?: boolean;
  /** socket.io's Manager: it says 'reconnect_failed' when it stops retrying, while `active` stays true. */
  io?: { on(event: string, listener: (...args: never[]) => void): unknown };
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  disconnect(): unknown;
}

export interface SocketOptions {
  path: string;
  transports: string[];
  auth: { token: string };
  reconnection: boolean;
  reconnectionAttempts: number;
  reconnectionDelay: number;
  reconnectionDelayMax: number;
  timeout: number;
}

export type SocketFactory = (url: string, options: SocketOptions) => SocketLike;

export interface LiveConnectionHandlers {
  progress(event: JobProgressEvent): void;
  completed(event: JobCompletedEvent): void;
  failed(event: JobFailedEvent): void;
  /** Follows connect and disconnect (the spec's connected flag); reconnects re-read the jobs. */
  connectionChanged(connected: boolean): void;
  /** The handshake was refused or dropped; the owner checks the session over REST. */
  connectError(error: Error): void;
}

/**
 * The extension's one socket.io connection, owned by the service worker. WebSocket only: a
 * service worker has no XHR for the polling transport, and the server's 20 s pings keep the
 * worker (idle limit 30 s) awake while it is connected.
 */
export class LiveConnection {
  private socket: SocketLike | null = null;
  private target: { url: string; token: string } | null = null;
  /** The current socket's Manager gave up retrying; socket.io leaves such a socket `active`. */
  private gaveUp = false;

  constructor(
    private readonly createSocket: SocketFactory,
    private readonly handlers: LiveConnectionHandlers,
    private readonly log: (message: string, detail?: unknown) => void = () => undefined,
  ) {}

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /**
   * Opens the connection, unless one to the same server with the same token is up or still
   * retrying; one that gave up (socket.io stops after 5 attempts, about 15 s of outage) is
   * replaced on the next wake.
   */
  connect(url: string, token: string): void {
    const live = this.socket && (this.socket.connected || (this.socket.active !== false && !this.gaveUp));
    if (live && this.target?.url === url && this.target.token === token) return;
    this.disconnect();
    this.target = { url, token };
    const socket = this.createSocket(url, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token },
      reconnection: SOCKET_OPTIONS.reconnection,
      reconnectionAttempts: SOCKET_OPTIONS.reconnectionAttempts,
      reconnectionDelay: SOCKET_OPTIONS.reconnectionDelay,
      reconnectionDelayMax: SOCKET_OPTIONS.reconnectionDelayMax,
      timeout: SOCKET_OPTIONS.timeout,
    });
    this.socket = socket;
    this.gaveUp = false;
    socket.io?.on('reconnect_failed', () => {
      if (socket !== this.socket) return;
      this.gaveUp = true;
      this.log('live connection gave up retrying; the next wake reconnects');
    });
    socket.on('connect', () => this.handlers.connectionChanged(true));
    socket.on('disconnect', () => this.handlers.connectionChanged(false));
    socket.on('connect_error', (error: Error) => this.handlers.connectError(error));
    this.listen(socket, SOCKET_EVENTS.jobProgress, jobProgressEventSchema, (event) => this.handlers.progress(event));
    this.listen(socket, SOCKET_EVENTS.jobCompleted, jobCompletedEventSchema, (event) => this.handlers.completed(event));
    this.listen(socket, SOCKET_EVENTS.jobFailed, jobFailedEventSchema, (event) => this.handlers.failed(event));
  }

  subscribe(jobId: string): void {
    this.socket?.emit(SOCKET_EVENTS.subscribe, jobId);
  }

  disconnect(): void {
    const socket = this.socket;
    this.socket = null;
    this.target = null;
    if (socket) {
      socket.disconnect();
      this.handlers.connectionChanged(false);
    }
  }

  private listen<T>(
    socket: SocketLike,
    event: string,
    schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
    handle: (value: T) => void,
  ): void {
    socket.on(event, (payload: unknown) => {
      // Only the live socket's events count; a replaced socket may still deliver a late one.
      if (socket !== this.socket) return;
      const parsed = schema.safeParse(payload);
      if (parsed.success) handle(parsed.data);
      else this.log(`ignored a malformed ${event} event`);
    });
  }
}
