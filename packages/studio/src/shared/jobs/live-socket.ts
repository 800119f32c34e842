/**
 * The studio's live job channel without socket.io-client: the Socket.IO v5 protocol (Engine.IO v4)
 * over one WebSocket, in about 1 KB. socket.io-client (about 12 KB on the wire) was the largest part
 * of a signed-in first load that the first screen did not need for its own sake; the connection
 * itself is needed from the start (the Live mark, jobs started elsewhere, a suspension signing the
 * studio out at once). Where no WebSocket opens, job-realtime.ts falls back to socket.io-client,
 * which also long-polls.
 *
 * Only what the studio uses: the default namespace, JSON events from the server, emits with an
 * acknowledgement, the server's heartbeat, and socket.io's reconnection with backoff.
 */

/** The part of a socket.io client socket the studio uses (socket.io-client's Socket has it too). */
export interface LiveSocket {
  on(event: 'connect', listener: () => void): unknown;
  on(event: 'disconnect', listener: (reason: string) => void): unknown;
  on(event: 'connect_error', listener: (error: Error) => void): unknown;
  /** A server event: its one payload, parsed by the listener. */
  on(event: string, listener: (payload: unknown) => void): unknown;
  /** Removes every listener. */
  off(): unknown;
  disconnect(): unknown;
  timeout(ms: number): { emitWithAck(event: string, ...args: unknown[]): Promise<unknown> };
}

export interface LiveSocketOptions {
  path: string;
  auth: Record<string, string>;
  reconnection: boolean;
  reconnectionAttempts: number;
  reconnectionDelay: number;
  reconnectionDelayMax: number;
  /** How long a connection may take before it counts as failed (and is retried). */
  timeout: number;
}

// Each event's own listener type is checked by LiveSocket.on's overloads.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;
type WebSocketConstructor = new (url: string) => WebSocket;

/**
 * Connects at once, like io(url, options). `opened` says whether the first WebSocket opened at all
 * (false: the network or a proxy refuses WebSockets, or the server is not there).
 */
export function createLiveSocket(
  url: string | undefined,
  options: LiveSocketOptions,
  WebSocketImpl: WebSocketConstructor = WebSocket,
): LiveSocket & { opened: Promise<boolean> } {
  const listeners = new Map<string, Listener[]>();
  const acks = new Map<number, (args: unknown[]) => void>();
  let queued: string[] = [];
  let ws: WebSocket | null = null;
  let connected = false;
  let ended = false;
  let attempts = 0;
  let nextAckId = 0;
  let connectTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setTimeout> | undefined;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let reportOpened: (opened: boolean) => void = () => undefined;
  const opened = new Promise<boolean>((resolve) => (reportOpened = resolve));

  const fire = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args);
  };

  const address = () => {
    const target = new URL(url || globalThis.location.href);
    target.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
    target.pathname = options.path;
    target.search = '?EIO=4&transport=websocket';
    target.hash = '';
    return target.href;
  };

  // socket.io buffers what is emitted while (re)connecting and sends it once connected.
  const send = (packet: string) => (connected ? ws?.send(packet) : queued.push(packet));

  const stop = (socket: WebSocket) => {
    clearTimeout(connectTimer);
    clearTimeout(heartbeat);
    socket.onopen = socket.onmessage = socket.onclose = null;
    // Closing one still connecting reports an error too; it says nothing new.
    socket.onerror = () => undefined;
    socket.close();
    if (ws === socket) ws = null;
  };

  /** The transport was lost (closed, silent past the heartbeat, too slow to connect): retry with backoff. */
  const lost = (socket: WebSocket) => {
    if (ws !== socket) return;
    reportOpened(false);
    stop(socket);
    if (connected) {
      connected = false;
      fire('disconnect', 'transport close');
    }
    if (ended || !options.reconnection || attempts >= options.reconnectionAttempts) return;
    // socket.io's backoff: doubling from reconnectionDelay up to reconnectionDelayMax, ±50 % jitter.
    const delay = Math.min(options.reconnectionDelay * 2 ** attempts++, options.reconnectionDelayMax);
    reopenTimer = setTimeout(open, Math.min(delay * (0.5 + Math.random()), options.reconnectionDelayMax));
  };

  /** The session is over (refused, or ended by either side): no reconnection. */
  const end = () => {
    ended = true;
    connected = false;
    clearTimeout(reopenTimer);
    if (ws) stop(ws);
  };

  const onPacket = (socket: WebSocket, text: string) => {
    const [, kind, id, body] = /^(\d)(\d*)([^]*)$/.exec(text) ?? [];
    const data: unknown = body ? JSON.parse(body) : undefined;
    if (kind === '0') {
      clearTimeout(connectTimer);
      connected = true;
      attempts = 0;
      fire('connect');
      const waiting = queued;
      queued = [];
      for (const packet of waiting) socket.send(packet);
    } else if (kind === '2' && Array.isArray(data)) {
      fire(String(data[0]), ...data.slice(1));
    } else if (kind === '3' && Array.isArray(data)) {
      acks.get(Number(id))?.(data);
    } else if (kind === '4') {
      // The server's middleware refused the handshake (e.g. a revoked token): socket.io does not retry.
      end();
      fire('connect_error', new Error((data as { message?: string } | undefined)?.message ?? 'Connection refused'));
    } else if (kind === '1') {
      end();
      fire('disconnect', 'io server disconnect');
    }
  };

  function open() {
    const socket = new WebSocketImpl(address());
    ws = socket;
    let pingWindow = 0;
    const expectPing = () => {
      clearTimeout(heartbeat);
      heartbeat = setTimeout(() => lost(socket), pingWindow);
    };
    connectTimer = setTimeout(() => {
      fire('connect_error', new Error('timeout'));
      lost(socket);
    }, options.timeout);
    socket.onopen = () => reportOpened(true);
    socket.onclose = () => lost(socket);
    // A failed WebSocket also closes: the close handler deals with it.
    socket.onerror = () => undefined;
    socket.onmessage = (message: MessageEvent) => {
      const text = String(message.data);
      if (text[0] === '0') {
        // Engine.IO's handshake: the server pings every pingInterval and waits pingTimeout for the pong.
        const handshake = JSON.parse(text.slice(1)) as { pingInterval: number; pingTimeout: number };
        pingWindow = handshake.pingInterval + handshake.pingTimeout;
        expectPing();
        socket.send(`40${JSON.stringify(options.auth)}`);
      } else if (text[0] === '2') {
        expectPing();
        socket.send('3');
      } else if (text[0] === '1') lost(socket);
      else if (text[0] === '4') onPacket(socket, text.slice(1));
    };
  }

  open();

  return {
    opened,
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    off() {
      listeners.clear();
    },
    disconnect() {
      if (connected) ws?.send('41');
      end();
    },
    timeout: (ms) => ({
      emitWithAck: (event, ...args) =>
        new Promise((resolve, reject) => {
          const id = nextAckId++;
          const timer = setTimeout(() => {
            acks.delete(id);
            reject(new Error('operation has timed out'));
          }, ms);
          acks.set(id, (answer) => {
            clearTimeout(timer);
            acks.delete(id);
            resolve(answer[0]);
          });
          send(`42${id}${JSON.stringify([event, ...args])}`);
        }),
    }),
  };
}
