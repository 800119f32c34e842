import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { z } from 'zod';

/** Which live sockets of one user to end. */
export const socketRevocationSchema = z.object({
  userId: z.string(),
  /** Only the sockets of this session (logout). */
  sessionId: z.string().optional(),
  /** Every session socket except this one's (a password change keeps the session that made it). */
  exceptSessionId: z.string().nullable().optional(),
  /** Also the sockets opened with an API key (suspension, a reset that revokes keys). */
  includeApiKeys: z.boolean().optional(),
  /** Only the sockets opened with these API keys or with embed sessions they minted (key revocation). */
  apiKeyIds: z.array(z.string()).optional(),
});
export type SocketRevocation = z.infer<typeof socketRevocationSchema>;

const messageSchema = z.object({ origin: z.string(), revocation: socketRevocationSchema });

export interface SessionRevocationBus {
  /** Tells every API process (this one at once) to disconnect the matching sockets. */
  publish(revocation: SocketRevocation): Promise<void>;
  onRevocation(listener: (revocation: SocketRevocation) => void): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionRevocations: SessionRevocationBus;
  }
}

export const sessionRevocationChannel = (prefix: string) => `${prefix}:session-revocations`;

/**
 * Carries "these sessions ended" to the socket layer. One process: an in-memory emitter. Scale mode
 * (QUEUE_BACKEND=bullmq): also Redis pub/sub, so a socket held by another API process closes too.
 */
export const sessionRevocationPlugin = fp(
  async (app) => {
    const local = new EventEmitter<{ revocation: [SocketRevocation] }>();
    local.setMaxListeners(50);
    const origin = randomUUID();
    const queue = app.config.queue;
    let publisher: Redis | null = null;
    let subscriber: Redis | null = null;
    if (queue.backend === 'bullmq') {
      const channel = sessionRevocationChannel(queue.prefix);
      publisher = new Redis(queue.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
      subscriber = new Redis(queue.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
      for (const client of [publisher, subscriber])
        client.on('error', (error) => app.log.warn({ err: error }, 'session revocation connection error'));
      subscriber.on('message', (received, text) => {
        if (received !== channel) return;
        let parsed: z.infer<typeof messageSchema> | null = null;
        try {
          parsed = messageSchema.parse(JSON.parse(text));
        } catch {
          return app.log.warn('malformed session revocation message dropped');
        }
        if (parsed.origin !== origin) local.emit('revocation', parsed.revocation);
      });
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(channel);
      app.addHook('onClose', async () => {
        await Promise.allSettled([publisher?.quit(), subscriber?.quit()]);
      });
    }

    app.decorate('sessionRevocations', {
      async publish(revocation) {
        local.emit('revocation', revocation);
        if (publisher && queue.backend === 'bullmq') {
          await publisher.publish(sessionRevocationChannel(queue.prefix), JSON.stringify({ origin, revocation }));
        }
      },
      onRevocation(listener) {
        local.on('revocation', listener);
        return () => local.off('revocation', listener);
      },
    } satisfies SessionRevocationBus);
  },
  { name: 'session-revocation', fastify: '5.x', dependencies: ['config'] },
);
