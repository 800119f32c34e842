/**
 * A worker process (QUEUE_BACKEND=bullmq) that stalls past its lock, one of two ways (STALL_MODE):
 * - `block` (default): its pipeline blocks the event loop for STALL_MS in the setup step. It prints
 *   "stalling", "woke", then "aborted" (it noticed another worker took the job) or "continued" (it
 *   would run the job a second time).
 * - `pause`: its pipeline reaches the video step at 60 %, prints "running" and waits to be stopped
 *   from outside (SIGSTOP); when it notices the pause (its clock jumped), it prints "resumed" and at
 *   once reports 95 %, the write a stale claimant would make, then "aborted" or "continued" as above.
 */
import { loadConfig } from '@reelsmith/server/testing';
import { createDatabase } from '@reelsmith/server/testing';
import { BullmqJobWorkers } from '@reelsmith/server/testing';
import { createJobRuntime } from '@reelsmith/server/testing';
import { createLogger } from '@reelsmith/server/testing';
import type { GenerationRun } from '@reelsmith/pipeline';

const stallMs = Number(process.env.STALL_MS);
const lockMs = Number(process.env.LOCK_MS);
const config = loadConfig(process.env);
const handle = createDatabase(config.database);
const log = createLogger('silent');
const say = (word: string) => process.stdout.write(`${word}\n`);

const pausedRunner = async (run: GenerationRun) => {
  run.onProgress?.({ step: 'setup', stepProgress: 0, progress: 0 });
  run.onProgress?.({ step: 'video', stepProgress: 10, progress: 60 });
  say('running');
  let last = Date.now();
  let resumedAt: number | null = null;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = Date.now();
    // Before looking at the signal: the stale write is made whatever the worker has noticed by now.
    if (resumedAt === null && now - last > lockMs) {
      resumedAt = now;
      say('resumed');
      run.onProgress?.({ step: 'video', stepProgress: 90, progress: 95 });
    }
    last = now;
    if (run.signal?.aborted) {
      say('aborted');
      throw run.signal.reason;
    }
    if (resumedAt !== null && now - resumedAt > 4 * lockMs) {
      say('continued');
      throw new Error('the paused worker ran on');
    }
  }
};

const blockingRunner = async (run: GenerationRun) => {
  run.onProgress?.({ step: 'setup', stepProgress: 0, progress: 0 });
  say('stalling');
  const until = Date.now() + stallMs;
  while (Date.now() < until) {
    // A synchronous render step, a runaway regex: nothing else in this process runs meanwhile.
  }
  say('woke');
  const deadline = Date.now() + 4 * lockMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (run.signal?.aborted) {
      say('aborted');
      throw run.signal.reason;
    }
  }
  say('continued');
  throw new Error('the stalled worker ran on');
};

const runner = process.env.STALL_MODE === 'pause' ? pausedRunner : blockingRunner;
const runtime = createJobRuntime({ config, db: handle.db, log, runner, providersFor: () => ({}) as never });
if (config.queue.backend !== 'bullmq') throw new Error('QUEUE_BACKEND=bullmq is required');
const workers = new BullmqJobWorkers({
  db: handle.db,
  worker: runtime.worker,
  events: runtime.events,
  redis: { url: config.queue.redisUrl, prefix: config.queue.prefix },
  concurrency: 1,
  log,
  lockDurationMs: lockMs,
});
await workers.start();
say('ready');
process.on('SIGTERM', () => {
  void workers.stop().finally(() => process.exit(0));
});
