import { SOCKET_OPTIONS, type BatchDetail } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { WATCH_SOCKET_OPTIONS, watchEmbedBatches, type WatchSocket } from './embed-batch-watch.js';
import { createEmbedBatches } from './embed-batches.js';

const counts = { total: 2, queued: 0, processing: 0, completed: 2, failed: 0, cancelled: 0 };

/** A socket.io socket as the watch sees it: the test fires its events. */
class FakeSocket implements WatchSocket {
  readonly listeners = new Map<string, Array<(...args: never[]) => void>>();
  disconnected = false;
  constructor(
    readonly url: string | undefined,
    readonly options: Record<string, unknown>,
  ) {}
  on(event: string, listener: (...args: never[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  off() {
    this.listeners.clear();
  }
  disconnect() {
    this.disconnected = true;
  }
  fire(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }
}

function setUp(read: (id: string) => BatchDetail['status'] = () => 'processing') {
  const sockets: FakeSocket[] = [];
  const batches = createEmbedBatches(async (id) => ({
    id,
    name: null,
    status: read(id),
    counts,
    percent: 100,
    createdAt: '2026-11-27T10:00:00.000Z',
    completedAt: null,
    rows: [],
  }));
  const ended: string[] = [];
  batches.onEnded((event) => ended.push(`${event.batchId}:${event.status}`));
  const connect = async () => (url: string | undefined, options: Record<string, unknown>) => {
    const socket = new FakeSocket(url, options);
    sockets.push(socket);
    return socket;
  };
  const watch = () => watchEmbedBatches(batches, { url: 'https://studio.example', token: 'tok', connect });
  return { batches, sockets, ended, watch };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('watching the embed’s batches', () => {
  it('connects with the contracts’ socket options', () => {
    expect(WATCH_SOCKET_OPTIONS).toEqual(SOCKET_OPTIONS);
  });

  it('opens one socket with the session token, reports the tracked batch it hears end, and closes after the last one', async () => {
    const { batches, sockets, ended, watch } = setUp();
    batches.track('b1');
    batches.track('b2');
    watch();
    watch();
    await settle();
    expect(sockets).toHaveLength(1);
    const socket = sockets[0]!;
    expect(socket.url).toBe('https://studio.example');
    expect(socket.options).toEqual({ ...SOCKET_OPTIONS, auth: { token: 'tok' } });
    socket.fire('batch_completed', { batchId: 'b1', name: null, status: 'completed', counts });
    socket.fire('batch_completed', { batchId: 'b1', status: 'nonsense' });
    expect(ended).toEqual(['b1:completed']);
    expect(socket.disconnected).toBe(false);
    socket.fire('batch_completed', { batchId: 'b2', name: null, status: 'cancelled', counts });
    expect(ended).toEqual(['b1:completed', 'b2:cancelled']);
    expect(socket.disconnected).toBe(true);
    // A later batch opens a new one.
    batches.track('b3');
    watch();
    await settle();
    expect(sockets).toHaveLength(2);
  });

  it('reads the batches again on every connect, so an end missed while away (or before joining) is reported', async () => {
    let status: BatchDetail['status'] = 'processing';
    const { batches, sockets, ended, watch } = setUp(() => status);
    batches.track('b1');
    watch();
    await settle();
    sockets[0]!.fire('connect');
    await settle();
    expect(ended).toEqual([]);
    status = 'completed';
    sockets[0]!.fire('connect');
    await settle();
    expect(ended).toEqual(['b1:completed']);
    expect(sockets[0]!.disconnected).toBe(true);
  });

  it('stops when the server ends the session', async () => {
    const { batches, sockets, watch } = setUp();
    batches.track('b1');
    watch();
    await settle();
    sockets[0]!.fire('disconnect', 'transport close');
    expect(sockets[0]!.disconnected).toBe(false);
    sockets[0]!.fire('disconnect', 'io server disconnect');
    expect(sockets[0]!.disconnected).toBe(true);
  });
});
