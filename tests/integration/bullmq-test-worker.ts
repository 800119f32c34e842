import {
  bullmqWorkersFor,
  type BullmqJobWorkers,
  createDatabase,
  createJobRuntime,
  createLogger,
  type Config,
  type DatabaseHandle,
  type JobRuntime,
} from '@reelsmith/server/testing';

/** What a test chooses of a worker's runtime: the fake pipeline, and webhook timings or storage where it needs them. */
type RuntimeChoices = Omit<Parameters<typeof createJobRuntime>[0], 'config' | 'db' | 'log'>;

/** A scale-mode worker process inside a test. */
export interface TestWorker {
  workers: BullmqJobWorkers;
  runtime: JobRuntime;
  handle: DatabaseHandle;
  /** Stops taking jobs (a running one is handed back), then closes the worker's own database pool. */
  stop(): Promise<void>;
}

/**
 * A worker wired as worker-main.ts wires one (bullmqWorkersFor): its own database pool and Redis connections, and the
 * queue settings of `config` (REDIS_URL, QUEUE_PREFIX, QUEUE_CONCURRENCY), so it shares the API's queue
 * exactly as a separate process would.
 */
export async function startTestWorker(config: Config, choices: RuntimeChoices): Promise<TestWorker> {
  const handle = createDatabase(config.database);
  const log = createLogger('silent');
  const runtime = createJobRuntime({ ...choices, config, db: handle.db, log });
  const workers = bullmqWorkersFor(config, handle.db, runtime, log);
  await workers.start();
  return {
    workers,
    runtime,
    handle,
    async stop() {
      await workers.stop();
      await handle.db.destroy();
    },
  };
}
