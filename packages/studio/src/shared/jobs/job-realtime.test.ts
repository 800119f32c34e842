import { SOCKET_OPTIONS } from '@reelsmith/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeSocketServers, startSocketServer } from '../../testing/socket-test-server.js';
import { createSocketIoJobClient, type JobRealtimeHandlers, type SocketFactory } from './job-realtime.js';

afterEach(closeSocketServers);

/** A real socket.io server that acknowledges every subscription but to 'forbidden', noting each. */
async function startServer() {
  const subscribed: string[] = [];
  const started = await startSocketServer((jobId) => {
    subscribed.push(jobId);
    return { ok: jobId !== 'forbidden' };
  });
  return { ...started, subscribed };
}

function recordingHandlers() {
  const seen: { type: string; payload: unknown }[] = [];
  const connections: { connected: boolean; resumed: boolean }[] = [];
  const handlers: JobRealtimeHandlers = {
    progress: (e) => seen.push({ type: 'progress', payload: e }),
    completed: (e) => seen.push({ type: 'completed', payload: e }),
    failed: (e) => seen.push({ type: 'failed', payload: e }),
    connectionChange: (connected, { resumed }) => connections.push({ connected, resumed }),
  };
  return { handlers, seen, connections };
}

describe('socket.io job client', () => {
  it('connects with the contract options and the token, subscribes with an ack, and parses events', async () => {
    const { server, url, subscribed } = await startServer();
    const options: unknown[] = [];
    let clientSocket: Socket | null = null;
    const createSocket: SocketFactory = (target, opts) => {
      options.push(opts);
      clientSocket = target ? io(target, opts) : io(opts);
      return clientSocket;
    };
    const log = vi.fn();
    const client = createSocketIoJobClient({ url, createSocket, log });
    const { handlers, seen, connections } = recordingHandlers();
    client.connect('good', handlers);
    await vi.waitFor(() => expect(connections).toEqual([{ connected: true, resumed: false }]));
    expect(options[0]).toMatchObject({ ...SOCKET_OPTIONS, auth: { token: 'good' } });

    expect(await client.subscribe('job-1')).toBe(true);
    expect(await client.subscribe('forbidden')).toBe(false);
    expect(subscribed).toEqual(['job-1', 'forbidden']);

    server.emit('job_progress', { jobId: 'job-1', progress: 42, step: 'voice', stepProgress: 10, status: 'processing' });
    // Malformed: progress out of range, unknown step. Dropped and logged.
    server.emit('job_progress', { jobId: 'job-1', progress: 420, step: 'dance', stepProgress: 0, status: 'processing' } as never);
    server.emit('job_completed', { jobId: 'job-1', result: { videoUrl: '/output/job-1/a.mp4', filename: 'a.mp4' } });
    server.emit('job_failed', { jobId: 'job-2', error: 'Voice failed' });
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen.map((e) => e.type)).toEqual(['progress', 'completed', 'failed']);
    expect(seen[0]?.payload).toEqual({ jobId: 'job-1', progress: 42, step: 'voice', stepProgress: 10, status: 'processing' });
    expect(log).toHaveBeenCalledWith('Ignoring a malformed job_progress event', expect.anything());

    // A dropped transport reconnects by itself and reports the connect as resumed.
    (clientSocket as unknown as Socket).io.engine.close();
    await vi.waitFor(
      () =>
        expect(connections).toEqual([
          { connected: true, resumed: false },
          { connected: false, resumed: false },
          { connected: true, resumed: true },
        ]),
      { timeout: 8000 },
    );

    client.disconnect();
    expect(await client.subscribe('job-3')).toBe(false);
  });

  it('reports nothing connected when the server refuses the token', async () => {
    const { url } = await startServer();
    const log = vi.fn();
    const client = createSocketIoJobClient({ url, log });
    const { handlers, connections } = recordingHandlers();
    client.connect('bad', handlers);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('Live connection failed', 'Sign in to continue'));
    expect(connections).toEqual([]);
    client.disconnect();
  });

  it('connects with the default factory, which loads socket.io on demand, and a subscribe made meanwhile waits for the socket', async () => {
    const { url, subscribed } = await startServer();
    const client = createSocketIoJobClient({ url, log: vi.fn() });
    const { handlers, connections } = recordingHandlers();
    client.connect('good', handlers);
    // Asked before the socket exists: answered once it does.
    await expect(client.subscribe('job-early')).resolves.toBe(true);
    expect(subscribed).toEqual(['job-early']);
    await vi.waitFor(() => expect(connections).toContainEqual({ connected: true, resumed: false }));
    client.disconnect();
    await expect(client.subscribe('job-after')).resolves.toBe(false);
  });

  it('drops a socket still loading when disconnect comes first', async () => {
    const { url, server } = await startServer();
    let resolveSocket: (socket: Socket) => void = () => undefined;
    const created: Socket[] = [];
    const createSocket: SocketFactory = (target, opts) =>
      new Promise((resolve) => {
        resolveSocket = (socket) => resolve(socket);
        created.push(io(target ?? url, { ...opts, autoConnect: false }));
      });
    const client = createSocketIoJobClient({ url, createSocket, log: vi.fn() });
    client.connect('good', recordingHandlers().handlers);
    client.disconnect();
    const stale = created[0]!;
    const disconnect = vi.spyOn(stale, 'disconnect');
    resolveSocket(stale);
    await vi.waitFor(() => expect(disconnect).toHaveBeenCalled());
    await expect(client.subscribe('job-1')).resolves.toBe(false);
    expect(server.engine.clientsCount).toBe(0);
  });
});
