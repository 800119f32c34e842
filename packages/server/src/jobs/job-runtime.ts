import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { join } from 'node:path';
import { ProviderSettingsFile } from '../admin/provider-settings.js';
import { ProviderSwitchboard } from '../admin/provider-switchboard.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { createStorage } from '../storage/create-storage.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import { SettingsFile } from '../voices/voice-settings.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { JobEventBus } from './job-events.js';
import { JobWorker, type GenerationRunner, type ProvidersForJob } from './job-worker.js';
import { createDefaultPipeline, type DefaultPipeline } from './pipeline-defaults.js';
import { StoryboardRuns } from '../storyboard/storyboard-runs.js';
import { UploadFiles } from '../storyboard/upload-files.js';

export interface JobRuntimeOptions {
  config: Config;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Where the pipeline's configuration is read from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Replaces the pipeline's runGeneration (tests). */
  runner?: GenerationRunner;
  /** Replaces the providers built from the environment (tests). */
  providersFor?: ProvidersForJob;
  /** Webhook retry schedule and poll interval (tests shorten them). */
  webhooks?: { retryDelaysMs?: number[]; pollIntervalMs?: number };
  /** Where finished files go; default: the one the config names (S3_BUCKET or DATA_DIR). */
  storage?: ObjectStorage;
}

/** What runs jobs, shared by the API server (embedded queue) and the scale mode's worker processes. */
export interface JobRuntime {
  events: JobEventBus;
  worker: JobWorker;
  /** Null when a test replaces both the runner and the providers. */
  pipeline: DefaultPipeline | null;
  /** The admin's provider choice, read from DATA_DIR/settings.json each time a job starts. */
  switchboard: ProviderSwitchboard | null;
  /** Enqueues webhook deliveries for job outcomes and sends them; start() it where jobs run or are reported. */
  webhooks: WebhookDispatcher;
  /** Storyboard renders, versions and the per-video artefact folders. */
  storyboards: StoryboardRuns;
}

export function createJobRuntime({ config, db, log, env = process.env, runner, providersFor, webhooks: webhookOptions, storage = createStorage(config) }: JobRuntimeOptions): JobRuntime {
  const events = new JobEventBus();
  const settingsFile = join(config.paths.dataDir, 'settings.json');
  let switchboard: ProviderSwitchboard | null = null;
  const pipeline = runner && providersFor ? null : createDefaultPipeline(env, () => switchboard?.choice() ?? {});
  if (pipeline) {
    switchboard = new ProviderSwitchboard({
      registry: pipeline.registry,
      settings: new ProviderSettingsFile(settingsFile),
      voiceSettings: new SettingsFile(settingsFile),
    });
  }
  const storyboards = new StoryboardRuns({
    db,
    artefactsDir: join(config.paths.dataDir, 'artefacts'),
    storage,
    uploads: new UploadFiles(join(config.paths.dataDir, 'uploads')),
  });
  const worker = new JobWorker({
    storyboards,
    db,
    events,
    runner: runner ?? pipeline!.runner,
    providersFor: providersFor ?? pipeline!.providersFor,
    storage,
    jobsDir: join(config.paths.dataDir, 'jobs'),
    log: log.child({ module: 'jobs' }),
  });
  const webhooks = new WebhookDispatcher({
    db,
    jwtSecret: config.jwtSecret,
    allowPrivate: config.webhookAllowPrivate,
    log: log.child({ module: 'webhooks' }),
    ...webhookOptions,
  });
  webhooks.listen(events);
  return { events, worker, pipeline, switchboard, webhooks, storyboards };
}
