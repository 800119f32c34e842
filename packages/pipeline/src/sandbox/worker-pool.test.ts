import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxLimitError, SandboxPool } from './worker-pool.js';

const TASKS = new URL('./sandbox-test-tasks.ts', import.meta.url).href;
const pool = new SandboxPool({ maxThreads: 2, maxQueue: 1, perUser: 2, memoryMb: 64, timeoutMs: 5_000, idleTimeoutMs: 1_000 });
afterAll(() => pool.close());

async function limitOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SandboxLimitError);
  return (error as SandboxLimitError).limit;
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
});
