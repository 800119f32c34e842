import { describe, expect, it } from 'vitest';
import { LiveConnection, type SocketLike, type SocketOptions } from './live-connection.js';

class FakeSocket implements SocketLike {
  connected = false;
  active = true;
  readonly listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  readonly emitted: unknown[][] = [];
  disconnected = false;
  readonly managerListeners = new Map<string, Array<(...args: unknown[]) => void>>();
  readonly io = {
    on: (event: string, listener: (...args: never[]) => void) => {
      this.managerListeners.set(event, [...(this.managerListeners.get(event) ?? []), listener as (...args: unknown[]) => void]);
    },
  };
  constructor(
    readonly url: string,
    readonly options: SocketOptions,
  ) {}
  on(event: string, listener: (...args: never[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as (...args: unknown[]) => void]);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args]);
  }
  disconnect() {
    this.disconnected = true;
    this.connected = false;
  }
  /** The Manager's own events ('reconnect_failed' once it stops retrying). */
  managerEmits(event: string) {
    for (const listener of this.managerListeners.get(event) ?? []) listener();
  }
  /** Server side: deliver an event to the client's listeners. */
  deliver(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const seen: unknown[] = [];
  const connection = new LiveConnection(
    (url, options) => {
      const socket = new FakeSocket(url, options);
      sockets.push(socket);
      return socket;
    },
    {
      progress: (e) => seen.push(['progress', e]),
      completed: (e) => seen.push(['completed', e]),
      failed: (e) => seen.push(['failed', e]),
      connectionChanged: (c) => seen.push(['connected', c]),
      connectError: (e) => seen.push(['error', e.message]),
    },
  );
  return { connection, sockets, seen };
}

describe('LiveConnection', () => {
  it('connects over WebSocket only with the token in the handshake auth', () => {
    const { connection, sockets } = setup();
    connection.connect('http://api.test', 'tok');
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('http://api.test');
    expect(sockets[0]!.options).toMatchObject({
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token: 'tok' },
      reconnectionAttempts: 5,
    });
    connection.connect('http://api.test', 'tok');
    expect(sockets).toHaveLength(1);
    // After socket.io gives up retrying, the next wake opens a fresh connection.
    sockets[0]!.active = false;
    connection.connect('http://api.test', 'tok');
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.disconnected).toBe(true);
  });

  it('replaces a socket whose manager gave up retrying even though socket.io leaves it active', () => {
    const { connection, sockets } = setup();
    connection.connect('http://api.test', 'tok');
    sockets[0]!.deliver('connect');
    sockets[0]!.connected = false; // the server went away; socket.io retries
    connection.connect('http://api.test', 'tok');
    expect(sockets).toHaveLength(1);
    // After its 5 attempts the manager says 'reconnect_failed'; `active` stays true.
    sockets[0]!.managerEmits('reconnect_failed');
    expect(sockets[0]!.active).toBe(true);
    connection.connect('http://api.test', 'tok');
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.disconnected).toBe(true);
    // The fresh socket is kept while it retries; a late give-up of the old manager does not count.
    sockets[0]!.managerEmits('reconnect_failed');
    connection.connect('http://api.test', 'tok');
    expect(sockets).toHaveLength(2);
  });

  it('passes on valid job events and drops malformed ones', () => {
    const { connection, sockets, seen } = setup();
    connection.connect('http://api.test', 'tok');
    const socket = sockets[0]!;
    socket.deliver('connect');
    expect(connection.connected).toBe(true);
    socket.deliver('job_progress', { jobId: 'j', progress: 10, step: 'story', stepProgress: 50, status: 'processing' });
    socket.deliver('job_progress', { jobId: 'j', progress: 'lots' });
    socket.deliver('job_completed', { jobId: 'j', result: { videoUrl: '/output/j.mp4', filename: 'j.mp4' } });
    socket.deliver('job_failed', { jobId: 'k', error: 'nope' });
    socket.deliver('connect_error', new Error('Unauthorized'));
    expect(seen).toEqual([
      ['connected', true],
      ['progress', { jobId: 'j', progress: 10, step: 'story', stepProgress: 50, status: 'processing' }],
      ['completed', { jobId: 'j', result: { videoUrl: '/output/j.mp4', filename: 'j.mp4' } }],
      ['failed', { jobId: 'k', error: 'nope' }],
      ['error', 'Unauthorized'],
    ]);
  });

  it('replaces the socket when the token changes and ignores the old one', () => {
    const { connection, sockets, seen } = setup();
    connection.connect('http://api.test', 'old');
    connection.subscribe('j1');
    connection.connect('http://api.test', 'new');
    expect(sockets[0]!.disconnected).toBe(true);
    expect(sockets[0]!.emitted).toEqual([['subscribe', 'j1']]);
    seen.length = 0;
    sockets[0]!.deliver('job_failed', { jobId: 'x', error: 'late' });
    expect(seen).toEqual([]);
    connection.disconnect();
    expect(sockets[1]!.disconnected).toBe(true);
    expect(seen).toEqual([['connected', false]]);
  });
});
