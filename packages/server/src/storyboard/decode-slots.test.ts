import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { DecodeSlots, UPLOADS_BUSY_MESSAGE } from './decode-slots.js';

/** A unit of work that runs until released, recording how many ran at once. */
function gatedWork(log: { now: number; most: number; mostOf: Map<string, number>; of: Map<string, number> }, userId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  const work = async () => {
    started = true;
    log.now += 1;
    log.of.set(userId, (log.of.get(userId) ?? 0) + 1);
    log.most = Math.max(log.most, log.now);
    log.mostOf.set(userId, Math.max(log.mostOf.get(userId) ?? 0, log.of.get(userId)!));
    await released;
    log.now -= 1;
    log.of.set(userId, log.of.get(userId)! - 1);
    return userId;
  };
  return { work, release, started: () => started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('upload decode slots', () => {
  it('runs at most `total` at once and `perUser` per user, and lets another user past a busy one', async () => {
    const slots = new DecodeSlots({ total: 2, perUser: 1, waitingPerUser: 3 });
    const log = { now: 0, most: 0, mostOf: new Map<string, number>(), of: new Map<string, number>() };
    const a = [gatedWork(log, 'a'), gatedWork(log, 'a'), gatedWork(log, 'a')];
    const b = gatedWork(log, 'b');
    const c = gatedWork(log, 'c');
    const runs = [...a.map((item) => slots.run('a', item.work)), slots.run('b', b.work), slots.run('c', c.work)];
    await tick();
    // a's first and b run; a's others wait for a, c waits for a free slot.
    expect([a[0]!.started(), a[1]!.started(), b.started(), c.started()]).toEqual([true, false, true, false]);
    b.release();
    await tick();
    await tick();
    // b's slot goes to c, not to a's second upload (a is at its own limit).
    expect([a[1]!.started(), c.started()]).toEqual([false, true]);
    for (const item of [a[0]!, c, a[1]!, a[2]!]) {
      item.release();
      await tick();
      await tick();
    }
    expect(await Promise.all(runs)).toEqual(['a', 'a', 'a', 'b', 'c']);
    expect(log.most).toBe(2);
    expect(log.mostOf.get('a')).toBe(1);
    expect(slots.active).toBe(0);
  });

  it("refuses a user's upload with a 429 once their line is full, and frees the slot when work throws", async () => {
    const slots = new DecodeSlots({ total: 2, perUser: 1, waitingPerUser: 1 });
    const log = { now: 0, most: 0, mostOf: new Map<string, number>(), of: new Map<string, number>() };
    const first = gatedWork(log, 'a');
    const second = gatedWork(log, 'a');
    const running = slots.run('a', first.work);
    const waiting = slots.run('a', second.work);
    const refused = await slots.run('a', async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 429, message: UPLOADS_BUSY_MESSAGE });
    first.release();
    second.release();
    await Promise.all([running, waiting]);
    await expect(slots.run('a', async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(slots.active).toBe(0);
  });
});
