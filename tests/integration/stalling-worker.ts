/**
 * A worker process (QUEUE_BACKEND=bullmq) whose pipeline blocks its event loop for STALL_MS in the
 * setup step, far past the lock. It prints what it lived through, one word a line: "stalling",
 * "woke", then "aborted" (it noticed another worker took the job) or "continued" (it would run the
 * job a second time).
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

const runner = async (run: GenerationRun) => {
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
