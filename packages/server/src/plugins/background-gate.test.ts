import { describe, expect, it } from 'vitest';
import { BackgroundGate } from './background-gate.js';

function clockedGate(options: { jobs?: () => Promise<number> } = {}) {
  let now = 0;
  const gate = new BackgroundGate({ quietMs: 1000, jobCountMaxAgeMs: 1000, pollMs: 5, now: () => now });
  let counted = 0;
  if (options.jobs) {
    const jobs = options.jobs;
    gate.watchJobs(() => {
      counted += 1;
      return jobs();
    });
  }
  return { gate, advance: (ms: number) => (now += ms), counted: () => counted };
}

describe('the background gate', () => {
  it('holds background work while a request is answered and for a quiet second after it', async () => {
    const { gate, advance } = clockedGate();
    expect(await gate.busyReason()).toBeNull();
    gate.requestStarted();
    gate.requestStarted();
    expect(await gate.busyReason()).toBe('request');
    gate.requestEnded();
    advance(5000);
    // One of the two is still being answered.
    expect(await gate.busyReason()).toBe('request');
    gate.requestEnded();
    advance(999);
    expect(await gate.busyReason()).toBe('request');
    advance(1);
    expect(await gate.busyReason()).toBeNull();
  });

  it('holds it while a creator job is queued or running, counting at most once a second, and a failed count as busy', async () => {
    let active = 1;
    let failing = false;
    const { gate, advance, counted } = clockedGate({
      jobs: () => (failing ? Promise.reject(new Error('closed')) : Promise.resolve(active)),
    });
    expect(await gate.busyReason()).toBe('job');
    active = 0;
    // The count is a second old at most: still the last one.
    expect(await gate.busyReason()).toBe('job');
    expect(counted()).toBe(1);
    advance(1000);
    expect(await gate.busyReason()).toBeNull();
    expect(counted()).toBe(2);
    failing = true;
    advance(1000);
    expect(await gate.busyReason()).toBe('job');
  });

  it('lets waiting work go once the job ends, and stops the wait when it is cancelled', async () => {
    let active = 1;
    const gate = new BackgroundGate({ quietMs: 0, jobCountMaxAgeMs: 0, pollMs: 5 });
    gate.watchJobs(async () => active);
    let letGo = false;
    const waiting = gate.whenIdle().then(() => (letGo = true));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(letGo).toBe(false);
    active = 0;
    await waiting;
    expect(letGo).toBe(true);

    active = 1;
    const controller = new AbortController();
    const cancelled = gate.whenIdle(controller.signal);
    controller.abort(new Error('server closing'));
    await expect(cancelled).rejects.toThrow('server closing');
  });

  it('lets work held by requests that never stop go once it has waited maxWait, then holds the next step again (issue 49)', async () => {
    let now = 0;
    const gate = new BackgroundGate({ quietMs: 1000, jobCountMaxAgeMs: 0, pollMs: 5, maxWaitMs: 200, now: () => now });
    // A request every few milliseconds: never a quiet second.
    gate.requestStarted();
    gate.requestEnded();
    const traffic = setInterval(() => {
      now += 5;
      gate.requestStarted();
      gate.requestEnded();
    }, 2);
    try {
      const started = now;
      await gate.whenIdle();
      expect(now - started).toBeGreaterThanOrEqual(200);
      expect(gate.shares).toBe(1);
      expect(await gate.busyReason()).toBe('request');
      await gate.whenIdle();
      expect(gate.shares).toBe(2);
    } finally {
      clearInterval(traffic);
    }
  });
});
