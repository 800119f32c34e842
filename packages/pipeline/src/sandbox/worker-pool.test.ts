import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { rejectionOf } from '../testing/provider-test-kit.js';
import { SandboxLimitError, SandboxPool } from './worker-pool.js';

const TASKS = new URL('./sandbox-test-tasks.ts', import.meta.url).href;
const pool = new SandboxPool({
  maxThreads: 2,
  maxQueue: 1,
  perUser: 2,
  threadsPerUser: 2,
  memoryMb: 64,
  timeoutMs: 5_000,
  idleTimeoutMs: 1_000,
});

/** Both threads started (a new worker loads its module for a second or more on a loaded machine). */
async function warm(pool: SandboxPool): Promise<void> {
  await Promise.all(['w1', 'w2'].map((user) => pool.run({ module: TASKS, name: 'wait', args: [50] }, { user })));
}
afterAll(() => pool.close());

/** A pool of its own for one test, closed when the test finishes. */
function poolForTest(options: ConstructorParameters<typeof SandboxPool>[0]): SandboxPool {
  const shared = new SandboxPool(options);
  onTestFinished(() => shared.close());
  return shared;
}

async function limitOf(promise: Promise<unknown>): Promise<string> {
  return (await rejectionOf(promise, SandboxLimitError)).limit;
}

describe('SandboxPool', () => {
  it('runs a TypeScript task module in a worker thread and returns its result', async () => {
    expect(await pool.run({ module: TASKS, name: 'echo', args: ['hi'] })).toBe('echo hi');
  }, 30_000);

  it('runs tasks in a process started with the tsx loader, as npm start and npm run worker do', () => {
    const main = fileURLToPath(new URL('./sandbox-test-main.ts', import.meta.url));
    expect(execFileSync(process.execPath, ['--import', 'tsx', main], { encoding: 'utf8', timeout: 60_000 })).toBe('echo from tsx\n');
  }, 90_000);

  it('ends a task past its wall time while the event loop keeps answering', async () => {
    const started = Date.now();
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 50);
    expect(await limitOf(pool.run({ module: TASKS, name: 'spin', args: [] }, { timeoutMs: 1_000 }))).toBe('time');
    clearInterval(ticker);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ticks).toBeGreaterThan(10);
    // The pool is still usable after the worker was ended.
    expect(await pool.run({ module: TASKS, name: 'echo', args: ['again'] })).toBe('echo again');
  }, 30_000);

  it('ends a task past its heap limit without taking the process down', async () => {
    expect(await limitOf(pool.run({ module: TASKS, name: 'hog', args: [] }, { timeoutMs: 20_000 }))).toBe('memory');
    expect(await pool.run({ module: TASKS, name: 'echo', args: ['alive'] })).toBe('echo alive');
  }, 30_000);

  it('bounds the tasks of one user and the queue of the process', async () => {
    const first = pool.run({ module: TASKS, name: 'wait', args: [300] }, { user: 'u1' });
    const second = pool.run({ module: TASKS, name: 'wait', args: [300] }, { user: 'u1' });
    expect(await limitOf(pool.run({ module: TASKS, name: 'wait', args: [10] }, { user: 'u1' }))).toBe('user-busy');
    // Both threads are taken by u1, so the next task waits; one more waiting is over the process's queue.
    const third = pool.run({ module: TASKS, name: 'wait', args: [10] }, { user: 'u2' });
    expect(await limitOf(pool.run({ module: TASKS, name: 'wait', args: [10] }, { user: 'u3' }))).toBe('busy');
    expect(await Promise.all([first, second, third])).toEqual(['waited', 'waited', 'waited']);
    // Finished tasks no longer count.
    expect(await pool.run({ module: TASKS, name: 'wait', args: [1] }, { user: 'u1' })).toBe('waited');
  }, 30_000);

  it("holds one user's tasks to their share of the threads: another user's task runs at once", async () => {
    const shared = poolForTest({ maxThreads: 2, maxQueue: 32, perUser: 3, timeoutMs: 5_000, idleTimeoutMs: 5_000 });
    // Both threads warm, so the measure below is of turns, not of workers starting.
    await warm(shared);
    const finished: string[] = [];
    const heavy = [1, 2, 3].map((index) =>
      shared.run<string>({ module: TASKS, name: 'wait', args: [1_500] }, { user: 'heavy' }).then(() => finished.push(`heavy ${index}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await shared.run({ module: TASKS, name: 'wait', args: [10] }, { user: 'light' });
    finished.push('light');
    // Before: the heavy user's tasks held both threads and the light one waited 1.5 s behind them.
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(finished).toEqual(['light']);
    await Promise.all(heavy);
  }, 30_000);

  it('gives the next thread to the user who used the threads least, and refuses a user whose tasks keep hitting the time limit', async () => {
    const shared = poolForTest({ maxThreads: 2, maxQueue: 32, perUser: 3, timeoutMs: 5_000, idleTimeoutMs: 5_000, strikesPerUser: 2 });
    await warm(shared);
    // Four users with three slow tasks each (a page that takes 800 ms to read).
    const attackers = ['a', 'b', 'c', 'd'];
    const slow = attackers.flatMap((user) => [1, 2, 3].map(() => shared.run({ module: TASKS, name: 'wait', args: [800] }, { user })));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The attackers have used the threads; a fifth user's task is next, not behind their ~8 queued tasks (about 3 s).
    const started = Date.now();
    expect(await shared.run({ module: TASKS, name: 'echo', args: ['victim'] }, { user: 'victim' })).toBe('echo victim');
    expect(Date.now() - started).toBeLessThan(1_700);
    await Promise.all(slow);
    // Two tasks of one user ended at the time limit within the window: the next is refused up front.
    for (let index = 0; index < 2; index++) {
      expect(await limitOf(shared.run({ module: TASKS, name: 'spin', args: [] }, { user: 'spinner', timeoutMs: 300 }))).toBe('time');
    }
    expect(await limitOf(shared.run({ module: TASKS, name: 'echo', args: ['again'] }, { user: 'spinner' }))).toBe('user-rate');
    // A refusal the caller counts (a page too complex to read) costs the same.
    shared.strike('e');
    shared.strike('e');
    expect(await limitOf(shared.run({ module: TASKS, name: 'echo', args: ['e'] }, { user: 'e' }))).toBe('user-rate');
  }, 60_000);

  it("lets a job's task wait for its turn however long the threads are busy, instead of failing as busy", async () => {
    const shared = poolForTest({ maxThreads: 1, maxQueue: 32, perUser: 3, timeoutMs: 5_000, waitMs: 1_000, idleTimeoutMs: 5_000 });
    await shared.run({ module: TASKS, name: 'echo', args: ['warm'] }, { waitForTurn: true });
    const first = shared.run({ module: TASKS, name: 'wait', args: [2_000] }, { user: 'u1' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const job = shared.run({ module: TASKS, name: 'echo', args: ['job'] }, { waitForTurn: true });
    expect(await limitOf(shared.run({ module: TASKS, name: 'echo', args: ['request'] }, { user: 'u2' }))).toBe('busy');
    // Before: the job's task failed as 'busy' like the request's ("The story writer is unavailable").
    expect(await job).toBe('echo job');
    await first;
    // A cancelled job's task leaves the queue.
    const blocker = shared.run({ module: TASKS, name: 'wait', args: [500] });
    const controller = new AbortController();
    const waiting = shared.run({ module: TASKS, name: 'echo', args: ['never'] }, { waitForTurn: true, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(shared.queued).toBe(0);
    await blocker;
  }, 30_000);
});
