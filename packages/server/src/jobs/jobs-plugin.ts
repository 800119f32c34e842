import { API, MESSAGES, type GenerationParams, type VideoJob } from '@reelsmith/contracts';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AuthUser } from '../http/auth-user.js';
import fp from 'fastify-plugin';
import { badRequest, forbidden, notFound } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { BullmqJobQueue, type BullmqJobQueueOptions } from './bullmq-queue.js';
import { EmbeddedJobQueue } from './embedded-queue.js';
import type { JobEventBus } from '../events/job-events.js';
import type { JobQueue } from './job-queue.js';
import {
  createJobWithinQuota,
  findUserJob,
  hasActiveJobs,
  jobCounts,
  listUserJobs,
  retryFailedUserJob,
  RETRY_CRASHED,
  RETRY_ONLY_FAILED,
  submissionTime,
  userStorage,
} from '../video-jobs/video-job-repository.js';
import type { ProviderSwitchboard } from '../providers/provider-switchboard.js';
import { createJobRuntime } from './job-runtime.js';
import type { JobLifecycle } from './job-lifecycle.js';
import type { JobWorker, GenerationRunner, ProvidersForJob } from './job-worker.js';
import { toVideoJob } from '../video-jobs/video-job-view.js';
import { findSessionBrand } from '../brand/brand-store.js';
import type { WebhookDispatcher, WebhookTimings } from '../webhooks/webhook-dispatcher.js';
import { resolveSource } from '../sources/resolve-source.js';
import { SourceGate } from '../sources/source-gate.js';
import { checkCanGenerate } from '../payments/can-generate.js';

export const STORAGE_TIER_DESCRIPTION = 'Local storage · videos kept until you delete them';
export const GENERATION_STARTED_MESSAGE = 'Video generation started';
export const VIDEO_DELETED_MESSAGE = 'Video deleted';
export const RETRY_STARTED_MESSAGE = 'Retrying the video from where it stopped';
/** Submits per user per minute: far above any real use, low enough that a script cannot flood the queue. */
const SUBMITS_PER_MINUTE = 30;

export interface JobsPluginOptions {
  /** Replaces the pipeline's runGeneration (tests). */
  runner?: GenerationRunner;
  /** Replaces the providers built from the environment by the pipeline's config (tests). */
  providersFor?: ProvidersForJob;
  /** Where the pipeline's configuration is read from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Replaces the embedded queue (e.g. a BullMQ queue); it must run jobs through `worker`. */
  createQueue?: (context: { worker: JobWorker; events: JobEventBus }) => JobQueue;
  /** Start running jobs once the app is ready (default true). */
  autoStart?: boolean;
  /** Webhook retry schedule, poll interval and delivery limits (tests change them). */
  webhooks?: WebhookTimings;
  /** Scale mode's sweeper of lapsed job claims (tests shorten it). */
  claimSweep?: BullmqJobQueueOptions['claimSweep'];
  /** Deadline and size cap of a source link's fetch (tests shorten them). */
  sourceFetch?: { timeoutMs?: number; maxBytes?: number };
}

export interface VideoSubmissions {
  /**
   * `readLinkLater`: a link source is not fetched here but by the job when it starts (a batch's url
   * rows: the batch is accepted at once and each row fails on its own with its page's reason).
   */
  prepare(user: AuthUser, submitted: GenerationParams, options?: { readLinkLater?: boolean }): Promise<GenerationParams>;
  partnerBrandOf(user: AuthUser): Promise<string | null>;
  cancel(userId: string, jobId: string): Promise<boolean>;
  /** The submit rate limit (per user per minute), as a preHandler. */
  limitSubmits: preHandlerAsyncHookHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobQueue: JobQueue;
    /** Progress, completion and failure of every job, for the realtime plugin and other listeners. */
    jobEvents: JobEventBus;
    jobWorker: JobWorker;
    /** Cancel, suspend, complete, fail and delete of jobs, each with its webhooks, events, runs and workspaces. */
    jobLifecycle: JobLifecycle;
    /** The generate route's steps, shared with the batches plugin so a batch's rows take exactly the same path. */
    videoSubmissions: VideoSubmissions;
    webhookDispatcher: WebhookDispatcher;
    /**
     * The providers new jobs use and the admin's switch between them (admin plugin). Null when a
     * test replaces both the runner and the providers.
     */
    providerSwitchboard: ProviderSwitchboard | null;
  }
}

/**
 * Video jobs end to end on the HTTP side: submit (quota checked atomically with the insert),
 * list, status, details, cancel/delete, queue status and storage stats; plus the queue that runs
 * them and the event bus that reports them. A user only ever sees their own jobs: another user's
 * job is a 404, exactly like a missing one.
 */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app, options) => {
    const { events, worker, lifecycle, pipeline, switchboard, webhooks } = createJobRuntime({
      config: app.config,
      db: app.db,
      log: app.log,
      env: options.env,
      runner: options.runner,
      providersFor: options.providersFor,
      webhooks: options.webhooks,
      storage: app.storage,
      settings: app.appSettings,
    });
    app.decorate('providerSwitchboard', switchboard);
    const queueConfig = app.config.queue;
    const queueLog = app.log.child({ module: 'queue' });
    const queue =
      options.createQueue?.({ worker, events }) ??
      (queueConfig.backend === 'bullmq'
        ? // Scale mode: this process only enqueues and reports; `npm run worker` processes run the jobs.
          new BullmqJobQueue({
            db: app.db,
            events,
            redis: { url: queueConfig.redisUrl, prefix: queueConfig.prefix },
            workerConcurrency: app.config.queueConcurrency,
            log: queueLog,
            ...(options.claimSweep ? { claimSweep: options.claimSweep } : {}),
          })
        : new EmbeddedJobQueue({ db: app.db, worker, concurrency: app.config.queueConcurrency, log: queueLog }));
    lifecycle.useQueue(queue);
    app.decorate('jobQueue', queue);
    app.decorate('jobLifecycle', lifecycle);
    app.decorate('jobEvents', events);
    app.decorate('jobWorker', worker);
    app.decorate('webhookDispatcher', webhooks);
    // The server's own background work (gallery examples, voice samples) waits while any creator's
    // job is queued or running, here or in a worker process (the table is shared).
    app.background.watchJobs(async () => ((await hasActiveJobs(app.db)) ? 1 : 0));
    app.addHook('onReady', async () => webhooks.start());
    app.addHook('preClose', async () => webhooks.stop());

    if (options.autoStart !== false) app.addHook('onReady', async () => queue.start());
    // preClose: before the database closes, so interrupted jobs are put back in the queue.
    app.addHook('preClose', async () => queue.stop());

    /** The story writer a job starting now would get: only a model can translate a source. */
    const storyProviderFor = (params: Parameters<ProvidersForJob>[0]): string =>
      switchboard?.current('story') ?? options.providersFor?.(params).story?.name ?? 'offline';

    // Links being fetched and read now, per process and per user (see source-gate.ts).
    const sourceGate = new SourceGate();

    const limitSubmits = app.createRateLimiter({
      name: 'video-submit',
      max: SUBMITS_PER_MINUTE,
      timeWindowMs: 60_000,
      key: (request) => request.user?.id ?? request.ip,
    });

    /**
     * What every new video goes through before its job is inserted, the single generate route's and
     * each row of a batch's alike: the voice provider, the plan checked before a link is fetched, the
     * source resolved (a link fetched, through the per-user source gate).
     */
    async function prepareSubmission(
      user: AuthUser,
      submitted: GenerationParams,
      { readLinkLater = false }: { readLinkLater?: boolean } = {},
    ): Promise<GenerationParams> {
      const body = { ...submitted, voiceProvider: submitted.voiceProvider ?? app.currentVoiceProvider() };
      if (pipeline && !pipeline.availableVoiceProviders().includes(body.voiceProvider)) {
        throw badRequest(
          `The ${body.voiceProvider} voice provider is not configured on this server. Choose another voice.`,
          'voiceProvider',
        );
      }
      // The plan is checked before a link is fetched or a page parsed: an account with no videos
      // left gets its 403 without costing the server a fetch (the insert checks again, atomically).
      if (body.source) {
        const verdict = await checkCanGenerate(app.db, user.id, body.duration, new Date());
        if (!verdict.canGenerate) throw forbidden(verdict.reason ?? MESSAGES.subscriptionRequired);
      }
      // Read by the job (JobWorker's readLink): nothing is fetched inside the request.
      if (readLinkLater && body.source?.kind === 'url') return body;
      // A source is checked (and a link fetched) before the job exists, so a refusal costs no quota.
      return resolveSource(body, {
        storyModel: Boolean(body.source) && storyProviderFor(body) !== 'offline',
        allowPrivate: app.config.sourceAllowPrivate,
        user: user.id,
        gate: sourceGate,
        ...(options.sourceFetch ? { fetchOptions: options.sourceFetch } : {}),
      });
    }

    /** A partner's embed session may carry its own brand: the video keeps it, re-renders included. */
    async function partnerBrandOf(user: AuthUser): Promise<string | null> {
      const brand = user.scope === 'embed' && user.sessionId ? await findSessionBrand(app.db, user.sessionId) : null;
      return brand ? JSON.stringify(brand) : null;
    }

    /** Stops one of the user's active jobs (a batch's cancel); false when it was not active. */
    const cancelJob = (userId: string, jobId: string): Promise<boolean> => lifecycle.cancel(userId, jobId);

    app.decorate('videoSubmissions', { prepare: prepareSubmission, partnerBrandOf, cancel: cancelJob, limitSubmits });

    registerRoute(
      app,
      API.generateVideo,
      async (request) => {
        const params = await prepareSubmission(request.user, request.body);
        const outcome = await createJobWithinQuota(app.db, request.user.id, params, submissionTime(), await partnerBrandOf(request.user));
        if (!outcome.created) throw forbidden(outcome.reason ?? MESSAGES.subscriptionRequired);
        await queue.enqueue(outcome.job.id, request.user.id);
        request.log.info({ jobId: outcome.job.id }, 'video job queued');
        return { jobId: outcome.job.id, status: outcome.job.status, message: GENERATION_STARTED_MESSAGE };
      },
      { preHandler: limitSubmits },
    );

    /** Research look-ups per account a minute (GET /api/research/articles). */
    const RESEARCH_LOOKUPS_PER_MINUTE = 60;
    /** The studio's look-up is a person waiting on a form: it gets the same 8 s as a job's research. */
    const RESEARCH_LOOKUP_MS = 8_000;
    // Research being off or Wikipedia not answering is an answer (`unavailable`), not an error: the
    // studio asks as the creator types, and each topic would otherwise be a 503 in the browser's
    // console and an error in this log. The video is told from the topic alone, and the studio says so.
    // Each look-up may ask Wikipedia twice and keep its answers: a person typing asks far fewer.
    const limitResearch = app.createRateLimiter({
      name: 'research',
      max: RESEARCH_LOOKUPS_PER_MINUTE,
      timeWindowMs: 60_000,
      key: (request) => request.user?.id ?? request.ip,
    });
    registerRoute(
      app,
      API.researchArticles,
      async (request) => {
        // Switched off by the admin or the environment: nothing is sent to Wikimedia.
        const research = switchboard?.choice().research === 'off' ? null : (pipeline?.registry.research() ?? null);
        if (!research) return { unavailable: 'off' as const, articles: [] };
        try {
          const { q, language } = request.query;
          const signal = AbortSignal.timeout(RESEARCH_LOOKUP_MS);
          const articles = await research.findArticles(q, language, signal);
          // The article a topic-only job would be told from, by the job's own rule (a title match, or the
          // search's top hit whose lead sentence defines the topic's subject; never a disambiguation page
          // or a stub), so the studio names the one the video will use. The job then finds the search
          // and the article in the cache.
          const match = articles.length > 0 ? await research.findArticle(q, language, signal).catch(() => null) : null;
          return { articles, ...(match ? { match: match.title } : {}) };
        } catch (error) {
          // One line, no stack: Wikipedia being down is the outside world's state, not a fault of this server.
          request.log.info(
            { reason: error instanceof Error ? error.message : String(error) },
            'Wikipedia look-up: no answer, the studio says the video is told from the topic alone',
          );
          return { unavailable: 'unreachable' as const, articles: [] };
        }
      },
      { preHandler: limitResearch },
    );

    registerRoute(app, API.listVideos, async (request) => {
      const rows = await listUserJobs(app.db, request.user.id, request.query.limit);
      return { jobs: rows.map(toVideoJob) };
    });

    async function ownJob(userId: string, jobId: string): Promise<VideoJob> {
      const row = await findUserJob(app.db, userId, jobId);
      if (!row) throw notFound(MESSAGES.notFound);
      return toVideoJob(row);
    }

    registerRoute(app, API.videoStatus, async (request) => ownJob(request.user.id, request.params.id));

    registerRoute(app, API.video, async (request) => {
      const job = await ownJob(request.user.id, request.params.id);
      return { job, result: job.result };
    });

    registerRoute(
      app,
      API.retryVideo,
      async (request) => {
        const outcome = await retryFailedUserJob(app.db, request.user.id, request.params.id);
        if (!outcome) throw notFound(MESSAGES.notFound);
        if (!outcome.retried) {
          const refused = outcome.reason === RETRY_ONLY_FAILED || outcome.reason === RETRY_CRASHED;
          throw refused ? badRequest(outcome.reason) : forbidden(outcome.reason);
        }
        await queue.enqueue(outcome.job.id, request.user.id);
        request.log.info({ jobId: outcome.job.id }, 'video job retried');
        return { jobId: outcome.job.id, status: outcome.job.status, message: RETRY_STARTED_MESSAGE };
      },
      { preHandler: limitSubmits },
    );

    registerRoute(app, API.deleteVideo, async (request) => {
      const userId = request.user.id;
      const job = await ownJob(userId, request.params.id);
      const outcome = await lifecycle.cancelOrDelete(userId, job.id);
      if (outcome === 'cancelled') return { success: true as const, status: 'cancelled' as const, message: MESSAGES.jobCancelled };
      if (!outcome) throw notFound(MESSAGES.notFound);
      return { success: true as const, status: 'deleted' as const, message: VIDEO_DELETED_MESSAGE };
    });

    registerRoute(app, API.queueStatus, async (request) => {
      const status = await queue.status();
      if (request.user.role === 'admin') return status;
      // A creator sees the queue's state and their own jobs, never other users' counts.
      const own = await jobCounts(app.db, request.user.id);
      return {
        ...status,
        pending: own.queued,
        processing: own.processing,
        jobs: { total: own.total, completed: own.completed, failed: own.failed, cancelled: own.cancelled },
      };
    });

    registerRoute(app, API.storageStats, async (request) => ({
      ...(await userStorage(app.db, request.user.id)),
      tierConfig: { description: STORAGE_TIER_DESCRIPTION },
    }));
  },
  {
    name: 'jobs',
    fastify: '5.x',
    dependencies: ['config', 'database', 'storage', 'app-settings', 'auth', 'rate-limit', 'error-handler', 'voices', 'background'],
  },
);
