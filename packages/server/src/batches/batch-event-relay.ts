import {
  BATCH_SOCKET_EVENTS,
  batchCompletedEventSchema,
  batchProgressEventSchema,
  type BatchCompletedEvent,
  type BatchProgressEvent,
} from '@reelsmith/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';

/** One batch event for one creator's sockets, as it travels between API processes. */
export type BatchSocketEvent =
  | { name: typeof BATCH_SOCKET_EVENTS.batchProgress; userId: string; event: BatchProgressEvent }
  | { name: typeof BATCH_SOCKET_EVENTS.batchCompleted; userId: string; event: BatchCompletedEvent };

const userId = z.string().check(z.minLength(1));
const relayedBatchEventSchema = z.object({
  /** The process that sent it: it delivered the event to its own sockets already. */
  origin: z.string(),
  batch: z.discriminatedUnion('name', [
    z.object({ name: z.literal(BATCH_SOCKET_EVENTS.batchProgress), userId, event: batchProgressEventSchema }),
    z.object({ name: z.literal(BATCH_SOCKET_EVENTS.batchCompleted), userId, event: batchCompletedEventSchema }),
  ]),
});

export const batchEventChannel = (prefix: string): string => `${prefix}:batch-events`;

export interface BatchEventRelay {
  /** To the creator's sockets on this process at once and, in scale mode, on every other API process. */
  publish(batch: BatchSocketEvent): Promise<void>;
  close(): Promise<void>;
}

export interface BatchEventRelayOptions {
  /** Scale mode's Redis (the queue's URL and prefix); null with the embedded queue (one process). */
  redis: { url: string; prefix: string } | null;
  /** Hands an event to this process's sockets. */
  deliver(batch: BatchSocketEvent): void;
  log: FastifyBaseLogger;
}

/**
 * Carries a batch's socket events to every API process, the way session revocations travel
 * (Redis pub/sub in scale mode, tagged with the sender so it does not deliver twice). Needed because
 * what a batch event says is decided once, by one process: the one that marked the batch completed,
 * or the one whose route cancelled its rows; the creator's sockets may be held by any process.
 */
export async function createBatchEventRelay({ redis, deliver, log }: BatchEventRelayOptions): Promise<BatchEventRelay> {
  if (!redis) {
    return {
      async publish(batch) {
        deliver(batch);
      },
      async close() {},
    };
  }
  const origin = randomUUID();
  const channel = batchEventChannel(redis.prefix);
  const publisher = new Redis(redis.url, { maxRetriesPerRequest: null, lazyConnect: true });
  const subscriber = new Redis(redis.url, { maxRetriesPerRequest: null, lazyConnect: true });
  for (const client of [publisher, subscriber])
    client.on('error', (error) => log.warn({ err: error }, 'batch event relay connection error'));
  subscriber.on('message', (received, text) => {
    if (received !== channel) return;
    let parsed: z.infer<typeof relayedBatchEventSchema> | null = null;
    try {
      const result = relayedBatchEventSchema.safeParse(JSON.parse(text));
      if (result.success) parsed = result.data;
    } catch {
      // Not JSON; reported below.
    }
    if (!parsed) return log.warn('malformed batch event from another process dropped');
    if (parsed.origin !== origin) deliver(parsed.batch as BatchSocketEvent);
  });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(channel);
  return {
    async publish(batch) {
      deliver(batch);
      await publisher.publish(channel, JSON.stringify({ origin, batch }));
    },
    async close() {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
