import { Redis } from 'ioredis';

/**
 * The scale-mode suites (BullMQ, cross-process revocation, webhooks on workers) skip when no Redis
 * is given, which is right on a laptop and wrong in CI: there a missing Redis must fail the run, not
 * quietly drop the tests that prove scale mode works.
 */
export async function checkScaleServices(env: NodeJS.ProcessEnv, ping: (url: string) => Promise<boolean> = pingRedis): Promise<void> {
  if (!env.CI) return;
  const url = env.TEST_REDIS_URL;
  const howTo =
    'Start one (redis-server --daemonize yes --port 6379) and set TEST_REDIS_URL=redis://127.0.0.1:6379; ' +
    '.ci/run exports it when `redis-cli ping` answers.';
  if (!url) throw new Error(`CI is set but TEST_REDIS_URL is not: the BullMQ scale-mode tests would be skipped. ${howTo}`);
  if (!(await ping(url))) throw new Error(`CI is set but no Redis answers at TEST_REDIS_URL (${url}). ${howTo}`);
}

async function pingRedis(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** vitest globalSetup. */
export default async function setup(): Promise<void> {
  await checkScaleServices(process.env);
}
