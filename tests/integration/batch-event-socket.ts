import {
  batchCompletedEventSchema,
  batchProgressEventSchema,
  type BatchCompletedEvent,
  type BatchProgressEvent,
} from '@reelsmith/contracts';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { TestUser } from './server-jobs-fakes.js';

/**
 * A socket of `user` on the API at `url`, connected, with every batch event it hears (parsed with the
 * contracts' schemas). The socket is added to `sockets`, for the suite to disconnect at its end.
 */
export async function listenToBatchEvents(
  url: string,
  user: TestUser,
  sockets: Socket[],
): Promise<{ progress: BatchProgressEvent[]; completed: BatchCompletedEvent[] }> {
  const socket = connectSocket(url, { path: '/socket.io/', transports: ['websocket'], auth: { token: user.token }, reconnection: false });
  sockets.push(socket);
  const progress: BatchProgressEvent[] = [];
  const completed: BatchCompletedEvent[] = [];
  socket.on('batch_progress', (event: unknown) => progress.push(batchProgressEventSchema.parse(event)));
  socket.on('batch_completed', (event: unknown) => completed.push(batchCompletedEventSchema.parse(event)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { progress, completed };
}
