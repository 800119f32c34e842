import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { join } from 'node:path';
import { ProviderSettings } from '../providers/provider-settings.js';
import type { AppSettings } from '../app-settings.js';
import { ProviderSwitchboard } from '../providers/provider-switchboard.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { createStorage } from '../storage/create-storage.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import { defaultVoiceProvider, VoiceSettings } from '../voices/voice-settings.js';
import { WebhookDispatcher, type WebhookTimings } from '../webhooks/webhook-dispatcher.js';
import { JobEventBus } from '../events/job-events.js';
import { JobWorker, type GenerationRunner, type ProvidersForJob } from './job-worker.js';
import { JobLifecycle } from './job-lifecycle.js';
import { JobWorkspaces } from './job-workspaces.js';
import { createDefaultPipeline, type DefaultPipeline } from './pipeline-defaults.js';
import { StoryboardRuns } from '../storyboard/storyboard-runs.js';
import { UploadFiles } from '../uploads/upload-files.js';
import { jobLinkReader } from '../sources/read-link-in-job.js';

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
  /** Webhook retry schedule, poll interval and delivery limits (tests change them). */
  webhooks?: WebhookTimings;
  /** Where finished files go; default: the one the config names (S3_BUCKET or DATA_DIR). */
  storage?: ObjectStorage;
  /** The admin's provider choices (started); needed unless a test replaces runner and providers. */
  settings?: AppSettings;
}

/** What runs jobs, shared by the API server (embedded queue) and the scale mode's worker processes. */
export interface JobRuntime {
  events: JobEventBus;
  worker: JobWorker;
  /** Cancel, suspend, complete, fail and delete: every job transition with its side effects (the API's queue is attached by the jobs plugin). */
  lifecycle: JobLifecycle;
  /** Null when a test replaces both the runner and the providers. */
  pipeline: DefaultPipeline | null;
  /** The admin's provider choice (the shared app settings), read each time a job starts. */
  switchboard: ProviderSwitchboard | null;
  /** Sends the webhook outbox (written by the lifecycle's transitions); start() it where jobs run or are reported. */
  webhooks: WebhookDispatcher;
  /** Storyboard renders, versions and the per-video artefact folders. */
  storyboards: StoryboardRuns;
}

export function createJobRuntime({
  config,
  db,
  log,
  env = process.env,
  runner,
  providersFor,
  webhooks: webhookOptions,
  storage = createStorage(config),
  settings,
}: JobRuntimeOptions): JobRuntime {
  const events = new JobEventBus();
  let switchboard: ProviderSwitchboard | null = null;
  // The natural voices' model lives in this server's DATA_DIR/models, whatever the environment passed says.
  const pipelineEnv = { ...env, DATA_DIR: config.paths.dataDir };
  const pipeline = runner && providersFor ? null : createDefaultPipeline(pipelineEnv, () => switchboard?.choice() ?? {}, log);
  if (pipeline) {
    if (!settings)
      throw new Error("createJobRuntime: the default pipeline reads the admin's provider choice, so pass the started AppSettings");
    switchboard = new ProviderSwitchboard({
      registry: pipeline.registry,
      settings: new ProviderSettings(settings),
      voiceSettings: new VoiceSettings(settings, defaultVoiceProvider(env)),
    });
  }
  const storyboards = new StoryboardRuns({
    db,
    artefactsDir: join(config.paths.dataDir, 'artefacts'),
    storage,
    uploads: new UploadFiles(storage),
  });
  const webhooks = new WebhookDispatcher({
    db,
    encryptionKey: config.encryption.key,
    allowPrivate: config.webhookAllowPrivate,
    publicUrl: config.publicUrl,
    log: log.child({ module: 'webhooks' }),
    ...webhookOptions,
  });
  const jobsLog = log.child({ module: 'jobs' });
  const workspaces = new JobWorkspaces(join(config.paths.dataDir, 'jobs'), jobsLog);
  const lifecycle = new JobLifecycle({ db, events, webhooks, workspaces, storage, storyboards });
  const worker = new JobWorker({
    storyboards,
    db,
    events,
    runner: runner ?? pipeline!.runner,
    providersFor: providersFor ?? pipeline!.providersFor,
    storage,
    workspaces,
    lifecycle,
    log: jobsLog,
    // A batch's url rows are read by their jobs (only a story model can translate a page).
    readLink: jobLinkReader({
      allowPrivate: config.sourceAllowPrivate,
      storyModel: (params) => (switchboard?.current('story') ?? providersFor?.(params).story?.name ?? 'offline') !== 'offline',
    }),
  });
  return { events, worker, lifecycle, pipeline, switchboard, webhooks, storyboards };
}
