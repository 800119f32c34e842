import { describe, expect, it } from 'vitest';
import { extensionHandoffCodeSchema } from '@reelsmith/contracts';
import { MemoryHandoffCodeStore } from './extension-handoff-store.js';

describe('MemoryHandoffCodeStore', () => {
  it('issues a random code that redeems once for its user', () => {
    let now = 1_000;
    const store = new MemoryHandoffCodeStore({ now: () => now });
    const first = store.issue('user-1');
    const second = store.issue('user-1');
    expect(first.code).not.toBe(second.code);
    expect(extensionHandoffCodeSchema.safeParse(first.code).success).toBe(true);
    expect(first.expiresAt.getTime()).toBe(61_000);
    now = 60_999;
    expect(store.redeem(first.code)).toEqual({ userId: 'user-1' });
    expect(store.redeem(first.code)).toBeNull();
  });

  it('refuses an expired code and forgets it', () => {
    let now = 0;
    const store = new MemoryHandoffCodeStore({ now: () => now, ttlMs: 60_000 });
    const { code } = store.issue('user-2');
    now = 60_000;
    expect(store.redeem(code)).toBeNull();
    expect(store.size).toBe(0);
  });

  it('keeps only hashes, never the code itself', () => {
    const store = new MemoryHandoffCodeStore();
    const { code } = store.issue('user-3');
    const held = [...(store as unknown as { codes: Map<string, unknown> }).codes.keys()];
    expect(held).toHaveLength(1);
    expect(held[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(held[0]).not.toContain(code);
  });

  it('sweeps expired codes and bounds how many it holds', () => {
    let now = 0;
    const store = new MemoryHandoffCodeStore({ now: () => now, ttlMs: 10, maxCodes: 2 });
    store.issue('a');
    now = 20;
    const b = store.issue('b');
    expect(store.size).toBe(1);
    const c = store.issue('c');
    const d = store.issue('d');
    expect(store.size).toBe(2);
    expect(store.redeem(b.code)).toBeNull();
    expect(store.redeem(c.code)).toEqual({ userId: 'c' });
    expect(store.redeem(d.code)).toEqual({ userId: 'd' });
  });
});
