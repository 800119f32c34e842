import { SOCKET_OPTIONS } from '@reelsmith/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { closeSocketServers, startSocketServer } from '../../testing/socket-test-server.js';
import { createLiveSocket } from './live-socket.js';

// Node 20 has no global WebSocket; `ws` speaks the same protocol (the browser's is used in the studio).
const WebSocketImpl = NodeWebSocket as unknown as new (url: string) => WebSocket;

afterEach(closeSocketServers);

/** The answer names the job, so a test sees which emit it answers. */
const startServer = () => startSocketServer((jobId) => ({ ok: jobId !== 'forbidden', jobId }));

const options = (token: string) => ({ ...SOCKET_OPTIONS, reconnectionDelay: 50, reconnectionDelayMax: 100, auth: { token } });

function record(socket: ReturnType<typeof createLiveSocket>) {
  const events: string[] = [];
  socket.on('connect', () => events.push('connect'));
  socket.on('disconnect', (reason) => events.push(`disconnect: ${reason}`));
  socket.on('connect_error', (error) => events.push(`error: ${error.message}`));
  socket.on('job_progress', (payload) => events.push(`progress: ${JSON.stringify(payload)}`));
  return events;
}

describe('live socket (socket.io over a WebSocket)', () => {
  it('signs in with the token, answers an emit made while connecting, hears events, and reconnects after a dropped transport', async () => {
    const { server, url } = await startServer();
    const socket = createLiveSocket(url, options('good'), WebSocketImpl);
    const events = record(socket);
    // Emitted before the handshake: sent once connected, like socket.io's buffer.
    const early = socket.timeout(2000).emitWithAck('subscribe', 'job-1');
    await expect(socket.opened).resolves.toBe(true);
    await expect(early).resolves.toEqual({ ok: true, jobId: 'job-1' });
    await expect(socket.timeout(2000).emitWithAck('subscribe', 'forbidden')).resolves.toEqual({ ok: false, jobId: 'forbidden' });
    expect(events).toEqual(['connect']);

    server.emit('job_progress', { jobId: 'job-1', progress: 42 });
    await vi.waitFor(() => expect(events).toContain('progress: {"jobId":"job-1","progress":42}'));

    // The transport drops (not a server decision): reported, then reconnected with the same token.
    for (const client of await server.fetchSockets()) (client as unknown as { conn: { close(): void } }).conn.close();
    await vi.waitFor(() => expect(events.slice(-2)).toEqual(['disconnect: transport close', 'connect']), { timeout: 5000 });

    socket.disconnect();
    await vi.waitFor(async () => expect(await server.fetchSockets()).toHaveLength(0));
  });

  it('reports a refused token as a connect error and does not retry', async () => {
    const { server, url } = await startServer();
    const connections = vi.fn();
    server.engine.on('connection', connections);
    const socket = createLiveSocket(url, options('bad'), WebSocketImpl);
    const events = record(socket);
    await vi.waitFor(() => expect(events).toEqual(['error: Sign in to continue']));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(connections).toHaveBeenCalledTimes(1);
  });

  it('stays closed when the server ends the session (a suspended account)', async () => {
    const { server, url } = await startServer();
    const socket = createLiveSocket(url, options('good'), WebSocketImpl);
    const events = record(socket);
    await vi.waitFor(() => expect(events).toEqual(['connect']));
    server.disconnectSockets();
    await vi.waitFor(() => expect(events).toEqual(['connect', 'disconnect: io server disconnect']));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toHaveLength(2);
  });

  it('says the WebSocket never opened where nothing listens, and an emit made meanwhile times out', async () => {
    const { url } = await startServer();
    await closeSocketServers();
    const socket = createLiveSocket(url, { ...options('good'), reconnectionAttempts: 1 }, WebSocketImpl);
    await expect(socket.opened).resolves.toBe(false);
    const ack = socket.timeout(300).emitWithAck('subscribe', 'job-1');
    await expect(ack).rejects.toThrow('operation has timed out');
    socket.disconnect();
  });
});
