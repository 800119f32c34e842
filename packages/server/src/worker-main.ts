import { ConfigError, loadConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/connection.js';
import { bullmqWorkersFor } from './jobs/bullmq-queue.js';
import { AppSettings } from './app-settings.js';
import { createJobRuntime } from './jobs/job-runtime.js';
import { join } from 'node:path';
import { createLogger } from './logger.js';
import { resealLegacySecrets } from './auth/stored-secrets.js';
import { encryptionKeyNotice } from './encryption-key.js';
import { ServiceMetrics } from './operations/service-metrics.js';
import { startWorkerMetricsServer } from './operations/worker-metrics-server.js';
import { keepStepTimings } from './operations/metrics-plugin.js';
import { handleShutdownSignals } from './operations/shutdown-signals.js';

/**
 * A scale-mode worker process (`npm run worker`): takes video jobs from the BullMQ queue and runs
 * them, QUEUE_CONCURRENCY at a time. It reads the same environment as the API server and must see the
 * same database (DATABASE_URL, where the admin's provider choice is kept too), the same Redis
 * (REDIS_URL, QUEUE_PREFIX), and either the same S3 bucket (S3_*) or the same DATA_DIR, where
 * finished videos are published.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    if (config.queue.backend !== 'bullmq')
      throw new ConfigError('QUEUE_BACKEND: must be bullmq to run a worker process (the embedded queue runs jobs inside the server)');
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Reelsmith worker cannot start.\n${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const database = createDatabase(config.database);
  await migrateToLatest(database.db);
  const notice = encryptionKeyNotice(config.encryption);
  if (notice) log[notice.level](notice.message);
  await resealLegacySecrets(database.db, { encryptionKey: config.encryption.key, jwtSecret: config.jwtSecret });
  const settings = new AppSettings(database.db, { legacyFile: join(config.paths.dataDir, 'settings.json') });
  await settings.start();
  const runtime = createJobRuntime({ config, db: database.db, log, settings });
  // This worker's jobs are timed here (the API ignores relayed events for its metrics).
  const metrics = new ServiceMetrics({ db: database.db, onStepTimed: keepStepTimings(database.db, log) });
  const workers = bullmqWorkersFor(config, database.db, runtime, log.child({ module: 'queue' }), (event) => metrics.queueAttempt(event));
  runtime.pipeline?.registry.observeCalls((call) => metrics.providerCalled(call));
  runtime.events.listen({
    job_progress: (event) => metrics.jobProgressed(event),
    job_completed: (event) => metrics.jobCompleted(event),
    job_failed: (event) => metrics.jobFailed(event),
  });
  let closing = false;
  const metricsServer =
    config.metrics.workerPort === null
      ? null
      : await startWorkerMetricsServer(config.metrics.workerPort, config.host, {
          metrics,
          db: database.db,
          queueReachable: () => workers.ping(),
          draining: () => closing,
          token: config.metrics.token,
        });
  await workers.start();
  runtime.webhooks.start();
  log.info(
    { concurrency: config.queueConcurrency, prefix: config.queue.prefix, metricsPort: config.metrics.workerPort },
    'Reelsmith worker is taking video jobs',
  );

  handleShutdownSignals({
    graceSeconds: config.shutdownGraceSeconds,
    log,
    drain: async () => {
      closing = true;
      log.info('worker stopping; running jobs go back to the queue');
      await Promise.all([workers.stop(), runtime.webhooks.stop()]);
      await settings.stop();
      await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
      await database.db.destroy();
    },
  });
}

main().catch((error: unknown) => {
  console.error('Reelsmith worker failed to start:', error);
  process.exit(1);
});
