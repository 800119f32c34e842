import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GALLERY_RECIPES } from './gallery-maker.js';
import { makeExampleInChild, pauseWhileBusy } from './gallery-child-process.js';

const dir = mkdtempSync(join(tmpdir(), 'gallery-child-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gate the test flips (busy is a creator's job; `reason` says what else may hold it), counting how often it was asked. */
function switchGate(busy: boolean) {
  const gate = {
    busy: false,
    reason: 'job' as 'job' | 'request',
    asked: 0,
    async busyNow() {
      gate.asked += 1;
      return gate.busy;
    },
  };
  gate.busy = busy;
  return {
    state: gate,
    busyReason: async () => ((await gate.busyNow()) ? gate.reason : null),
    async whenIdle() {
      while (await gate.busyNow()) await sleep(10);
    },
  };
}

/** A process group whose grandchild (as the example's process starts ffmpeg) writes a tick every 20 ms to `ticks`. */
function tickingGroup(ticks: string) {
  const grandchild = `setInterval(() => require('node:fs').appendFileSync(${JSON.stringify(ticks)}, 'x'), 20)`;
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' }); setInterval(() => {}, 1000)`,
    ],
    { detached: true, stdio: 'ignore' },
  );
  const size = () => {
    try {
      return statSync(ticks).size;
    } catch {
      return 0;
    }
  };
  return { child, size };
}

describe('the gallery example process', () => {
  it('is stopped, with the processes it started, while the gate is busy, and continues where it stopped', async () => {
    const { child, size } = tickingGroup(join(dir, 'ticks'));
    const gate = switchGate(false);
    const pausing = pauseWhileBusy(child.pid!, gate, { pollMs: 20 });
    try {
      await expect.poll(size, { timeout: 10_000 }).toBeGreaterThan(3);
      gate.state.busy = true;
      await expect.poll(() => pausing.paused()).toBe(true);
      await sleep(100);
      const held = size();
      await sleep(400);
      // Stopped: not one tick while a creator's work waits.
      expect(size()).toBe(held);
      gate.state.busy = false;
      await expect.poll(() => pausing.paused()).toBe(false);
      await expect.poll(size, { timeout: 5_000 }).toBeGreaterThan(held + 3);
    } finally {
      pausing.stop();
      process.kill(-child.pid!, 'SIGKILL');
    }
  }, 30_000);

  it('runs on at its low priority while only requests hold the gate, and gets a slice after a long pause (issue 49)', async () => {
    const { child, size } = tickingGroup(join(dir, 'ticks-share'));
    const gate = switchGate(true);
    gate.state.reason = 'request';
    const pausing = pauseWhileBusy(child.pid!, gate, { pollMs: 20, maxPauseMs: 600, shareMs: 300 });
    try {
      // Requests being answered: not stopped.
      await expect.poll(size, { timeout: 10_000 }).toBeGreaterThan(3);
      await sleep(200);
      expect(pausing.paused()).toBe(false);
      // A creator's job that never ends: stopped, then a slice of running once the pause is long.
      gate.state.reason = 'job';
      await expect.poll(() => pausing.paused()).toBe(true);
      const held = size();
      await expect.poll(() => pausing.paused(), { timeout: 5_000 }).toBe(false);
      await expect.poll(size, { timeout: 5_000 }).toBeGreaterThan(held + 2);
      await expect.poll(() => pausing.paused(), { timeout: 5_000 }).toBe(true);
    } finally {
      pausing.stop();
      process.kill(-child.pid!, 'SIGKILL');
    }
  }, 30_000);

  it('starts only once the gate is idle, and reports what went wrong in it', async () => {
    const gate = switchGate(true);
    const recipe = { ...GALLERY_RECIPES[0]!, slug: 'nonexistent' } as (typeof GALLERY_RECIPES)[number];
    let settled = false;
    const making = makeExampleInChild(dir, recipe, { gate }).finally(() => (settled = true));
    making.catch(() => undefined);
    await sleep(300);
    expect(settled).toBe(false);
    expect(gate.state.asked).toBeGreaterThan(3);
    gate.state.busy = false;
    // The process ran (under the tsx loader, as the server does) and said why it made nothing.
    await expect(making).rejects.toThrow('No gallery recipe "nonexistent"');
  }, 60_000);
});
