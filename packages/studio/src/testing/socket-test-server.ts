import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const running: (() => Promise<void>)[] = [];

/**
 * A real socket.io server on 127.0.0.1 (what the Reelsmith server runs) that admits the token "good" and
 * answers each `subscribe` with what `acknowledge` makes of the job id. `closeSocketServers` ends them.
 */
export async function startSocketServer(acknowledge: (jobId: string) => unknown) {
  const http = createServer();
  const server = new Server(http, { path: '/socket.io/' });
  server.use((socket, next) => (socket.handshake.auth.token === 'good' ? next() : next(new Error('Sign in to continue'))));
  server.on('connection', (socket) => {
    socket.on('subscribe', (jobId: string, ack?: (answer: unknown) => void) => ack?.(acknowledge(jobId)));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  running.push(async () => {
    server.disconnectSockets(true);
    await server.close();
  });
  return { server, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

/** Closes every server startSocketServer started (an afterEach). */
export async function closeSocketServers(): Promise<void> {
  await Promise.all(running.splice(0).map((close) => close()));
}
