import { afterAll, describe, expect, it } from 'vitest';
import { extensionHandoffCodeSchema } from '@reelsmith/contracts';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { MemoryHandoffCodeStore, RedisHandoffCodeStore } from './extension-handoff-store.js';

describe('MemoryHandoffCodeStore', async () => {
  it('issues a random code that redeems once for its user', async () => {
    let now = 1_000;
    const store = new MemoryHandoffCodeStore({ now: () => now });
    const first = await store.issue('user-1');
    const second = await store.issue('user-1');
    expect(first.code).not.toBe(second.code);
    expect(extensionHandoffCodeSchema.safeParse(first.code).success).toBe(true);
    expect(first.expiresAt.getTime()).toBe(61_000);
    now = 60_999;
    expect(await store.redeem(first.code)).toEqual({ userId: 'user-1' });
    expect(await store.redeem(first.code)).toBeNull();
  });

  it('refuses an expired code and forgets it', async () => {
    let now = 0;
    const store = new MemoryHandoffCodeStore({ now: () => now, ttlMs: 60_000 });
    const { code } = await store.issue('user-2');
    now = 60_000;
    expect(await store.redeem(code)).toBeNull();
    expect(store.size).toBe(0);
  });

  it('keeps only hashes, never the code itself', async () => {
    const store = new MemoryHandoffCodeStore();
    const { code } = await store.issue('user-3');
    const held = [...(store as unknown as { codes: Map<string, unknown> }).codes.keys()];
    expect(held).toHaveLength(1);
    expect(held[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(held[0]).not.toContain(code);
  });

  it('sweeps expired codes and bounds how many it holds', async () => {
    let now = 0;
    const store = new MemoryHandoffCodeStore({ now: () => now, ttlMs: 10, maxCodes: 2 });
    await store.issue('a');
    now = 20;
    const b = await store.issue('b');
    expect(store.size).toBe(1);
    const c = await store.issue('c');
    const d = await store.issue('d');
    expect(store.size).toBe(2);
    expect(await store.redeem(b.code)).toBeNull();
    expect(await store.redeem(c.code)).toEqual({ userId: 'c' });
    expect(await store.redeem(d.code)).toEqual({ userId: 'd' });
  });
});

/** Against the real Redis at TEST_REDIS_URL (this machine kind runs one; .ci/run exports it). */
describe.skipIf(!process.env.TEST_REDIS_URL)('RedisHandoffCodeStore', () => {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  const prefix = `reelsmith-test-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('redeems a code once, from any store on the same Redis, and keeps only its hash', async () => {
    const issuing = new RedisHandoffCodeStore(redis, prefix);
    const redeeming = new RedisHandoffCodeStore(redis.duplicate(), prefix);
    const { code, expiresAt } = await issuing.issue('user-9');
    expect(extensionHandoffCodeSchema.safeParse(code).success).toBe(true);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 55_000);
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(code);
    expect(await redis.pttl(keys[0]!)).toBeGreaterThan(55_000);
    expect(await redeeming.redeem(code)).toEqual({ userId: 'user-9' });
    expect(await issuing.redeem(code)).toBeNull();
    expect(await redeeming.redeem('not-a-code-that-was-issued')).toBeNull();
  });

  it('lets a code expire', async () => {
    const store = new RedisHandoffCodeStore(redis, prefix, 50);
    const { code } = await store.issue('user-10');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.redeem(code)).toBeNull();
  });
});
