/**
 * A process that runs jobs and is killed (SIGKILL) by the test in the middle of a step: the crash a
 * poison source caused before the sandbox. CRASH_MODE `embedded` is a whole server with the
 * embedded queue (it resumes interrupted jobs at start); `bullmq` is a scale-mode worker. Its
 * pipeline reports the story step, prints "in-step" with the job's id and waits to be killed. It
 * prints "ready" once it takes jobs.
 */
import { buildApp, BullmqJobWorkers, createDatabase, createJobRuntime, createLogger, loadConfig } from '@reelsmith/server/testing';
import type { GenerationOutput, GenerationRun } from '@reelsmith/pipeline';

const say = (word: string) => process.stdout.write(`${word}\n`);
const config = loadConfig(process.env);

const runner = async (run: GenerationRun): Promise<GenerationOutput> => {
  run.onProgress?.({ step: 'story', stepProgress: 10, progress: 5 });
  // After the progress write, so the run is visibly under way when the test kills the process.
  await new Promise((resolve) => setTimeout(resolve, 300));
  say(`in-step ${run.jobId}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (run.signal?.aborted) throw run.signal.reason;
  }
};
const providersFor = () => ({}) as never;

if (process.env.CRASH_MODE === 'embedded') {
  const app = await buildApp(config, { voices: { autoGenerateOfflineSamples: false }, jobs: { runner, providersFor } });
  await app.ready();
} else {
  if (config.queue.backend !== 'bullmq') throw new Error('CRASH_MODE=bullmq needs QUEUE_BACKEND=bullmq');
  const handle = createDatabase(config.database);
  const log = createLogger('silent');
  const runtime = createJobRuntime({ config, db: handle.db, log, runner, providersFor });
  const workers = new BullmqJobWorkers({
    db: handle.db,
    worker: runtime.worker,
    events: runtime.events,
    redis: { url: config.queue.redisUrl, prefix: config.queue.prefix },
    concurrency: 1,
    log,
    lockDurationMs: Number(process.env.LOCK_MS),
  });
  await workers.start();
}
say('ready');
