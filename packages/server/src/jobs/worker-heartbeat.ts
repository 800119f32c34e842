import { workerHeartbeatSchema, type WorkerHeartbeat } from '@reelsmith/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** How often a worker process writes its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 10_000;
/**
 * A worker whose heartbeat is older than this (three beats missed) is gone: killed (kill -9, a lost
 * machine) without the clean stop that removes it. It leaves System Health's Workers card and the hash.
 */
export const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_INTERVAL_MS;

export const heartbeatKey = (prefix: string): string => `${prefix}:worker-heartbeats`;

/**
 * A scale-mode worker's heartbeat for System Health: one field per worker in a Redis hash (id → host,
 * jobs running, time), rewritten every 10 s and removed when the worker stops cleanly.
 */
export function startWorkerHeartbeat(
  redis: Redis,
  prefix: string,
  jobsRunning: () => number,
  log: FastifyBaseLogger,
): { id: string; stop(): Promise<void> } {
  const id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const beat = () => {
    const heartbeat: WorkerHeartbeat = { id, host: hostname(), jobsRunning: jobsRunning(), lastHeartbeatAt: new Date().toISOString() };
    redis
      .hset(heartbeatKey(prefix), id, JSON.stringify(heartbeat))
      .catch((error: unknown) => log.warn({ err: error }, 'could not write the worker heartbeat'));
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    id,
    async stop() {
      clearInterval(timer);
      await redis.hdel(heartbeatKey(prefix), id).catch(() => undefined);
    },
  };
}

/** Every worker alive (heard from within HEARTBEAT_STALE_MS), newest first; forgets the others. */
export async function readWorkerHeartbeats(redis: Redis, prefix: string, now = Date.now()): Promise<WorkerHeartbeat[]> {
  const entries = await redis.hgetall(heartbeatKey(prefix));
  const heartbeats: WorkerHeartbeat[] = [];
  for (const [id, text] of Object.entries(entries)) {
    let parsed: WorkerHeartbeat | null = null;
    try {
      const result = workerHeartbeatSchema.safeParse(JSON.parse(text));
      parsed = result.success ? result.data : null;
    } catch {
      parsed = null;
    }
    if (!parsed || now - Date.parse(parsed.lastHeartbeatAt) > HEARTBEAT_STALE_MS) {
      await redis.hdel(heartbeatKey(prefix), id);
      continue;
    }
    heartbeats.push(parsed);
  }
  return heartbeats.sort((a, b) => b.lastHeartbeatAt.localeCompare(a.lastHeartbeatAt));
}
