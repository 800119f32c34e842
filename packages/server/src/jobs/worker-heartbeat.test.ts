import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_STALE_MS, heartbeatKey, readWorkerHeartbeats } from './worker-heartbeat.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('readWorkerHeartbeats', () => {
  let redis: Redis;
  const prefix = `reelsmith-heartbeat-${randomBytes(4).toString('hex')}`;
  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });
  afterAll(async () => {
    await redis.del(heartbeatKey(prefix));
    redis.disconnect();
  });

  it('drops a worker killed without a clean stop as soon as its heartbeat lapses (three beats missed)', async () => {
    const now = Date.parse('2026-11-28T12:00:00.000Z');
    const beat = (id: string, msAgo: number) =>
      redis.hset(
        heartbeatKey(prefix),
        id,
        JSON.stringify({ id, host: 'h', jobsRunning: 1, lastHeartbeatAt: new Date(now - msAgo).toISOString() }),
      );
    await beat('alive', HEARTBEAT_INTERVAL_MS - 1_000);
    await beat('late-but-alive', HEARTBEAT_STALE_MS - 1_000);
    await beat('killed', HEARTBEAT_STALE_MS + 1_000);
    expect(HEARTBEAT_STALE_MS).toBeLessThanOrEqual(3 * HEARTBEAT_INTERVAL_MS);
    const workers = await readWorkerHeartbeats(redis, prefix, now);
    expect(workers.map((worker) => worker.id)).toEqual(['alive', 'late-but-alive']);
    expect(Object.keys(await redis.hgetall(heartbeatKey(prefix))).sort()).toEqual(['alive', 'late-but-alive']);
  });
});
