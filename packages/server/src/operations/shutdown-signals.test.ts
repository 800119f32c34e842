import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DUPLICATE_SIGNAL_MS, handleShutdownSignals, type ShutdownProcess } from './shutdown-signals.js';

class FakeProcess extends EventEmitter {
  connected = false;
  exits: number[] = [];
  exit = ((code: number) => {
    this.exits.push(code);
  }) as unknown as ShutdownProcess['exit'];
}

const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };

describe('handleShutdownSignals', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1_000_000;
  });
  afterEach(() => vi.useRealTimers());

  function setUp(options: { interactive?: boolean; connected?: boolean } = {}) {
    const proc = new FakeProcess();
    proc.connected = options.connected ?? false;
    let finish!: () => void;
    const drain = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    handleShutdownSignals({
      graceSeconds: 30,
      log,
      drain,
      interactive: options.interactive ?? false,
      process: proc as unknown as ShutdownProcess,
      now: () => clock,
    });
    return { proc, drain, finish: () => finish() };
  }

  it('drains once for the copies of one SIGTERM (group, npm, wrapper), then exits 0', async () => {
    const { proc, drain, finish } = setUp();
    proc.emit('SIGTERM', 'SIGTERM');
    clock += 26;
    proc.emit('SIGTERM', 'SIGTERM');
    proc.emit('SIGTERM', 'SIGTERM');
    clock += 5_000;
    proc.emit('SIGINT', 'SIGINT');
    expect(drain).toHaveBeenCalledTimes(1);
    expect(proc.exits).toEqual([]);
    finish();
    await vi.runAllTicks();
    await Promise.resolve();
    expect(proc.exits).toEqual([0]);
  });

  it('a signal after the grace exits at once', () => {
    const { proc } = setUp();
    proc.emit('SIGTERM', 'SIGTERM');
    clock += 30_000;
    proc.emit('SIGTERM', 'SIGTERM');
    expect(proc.exits).toEqual([1]);
  });

  it('exits 1 when the grace runs out', () => {
    const { proc } = setUp();
    proc.emit('SIGTERM', 'SIGTERM');
    vi.advanceTimersByTime(29_999);
    expect(proc.exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(proc.exits).toEqual([1]);
  });

  it('SIGINT pressed twice at a terminal exits, its copies do not', () => {
    const { proc } = setUp({ interactive: true });
    proc.emit('SIGINT', 'SIGINT');
    clock += 20;
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exits).toEqual([]);
    clock += DUPLICATE_SIGNAL_MS + 500;
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exits).toEqual([1]);
  });

  it('SIGINT twice without a terminal is ignored like any copy', () => {
    const { proc } = setUp({ interactive: false });
    proc.emit('SIGINT', 'SIGINT');
    clock += 5_000;
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exits).toEqual([]);
  });

  it('drains when the IPC channel to the wrapper closes', () => {
    const { proc, drain } = setUp({ connected: true });
    proc.emit('disconnect');
    expect(drain).toHaveBeenCalledWith('parent-exited');
  });
});
