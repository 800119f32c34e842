import { readWorkerHeartbeats, startWorkerHeartbeat } from './worker-heartbeat.js';
import type { WorkerHeartbeat } from '@reelsmith/contracts';
import {
  jobCancelReplySchema,
  jobCancelRequestSchema,
  relayedJobEventSchema,
  videoJobPayloadSchema,
  type JobCancelReply,
  type JobCancelRequest,
  type RelayedJobEvent,
  type VideoJobPayload,
} from '@reelsmith/contracts';
import { DelayedError, Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type * as z from 'zod/mini';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { JobEventBus, JobEventName } from '../events/job-events.js';
import type { JobQueue, QueueStatus } from './job-queue.js';
import {
  claimJobWithToken,
  jobCounts,
  renewJobClaim,
  requeueLapsedClaims,
  unfinishedJobCount,
  unfinishedJobs,
} from '../video-jobs/video-job-repository.js';
import { JobClaimLostError, QueueShutdownError, type JobWorker } from './job-worker.js';
import type { JobRuntime } from './job-runtime.js';

/**
 * The scale mode's queue (QUEUE_BACKEND=bullmq): API processes put jobs on a BullMQ queue in Redis and
 * worker processes (`npm run worker`) run them. The database row stays the source of truth for a job's
 * status, exactly as with the embedded queue; Redis only carries which job to run next, the job
 * events on their way from the worker to the sockets of every API process, and cancellations.
 */

export const VIDEO_QUEUE_NAME = 'video-jobs';
const JOB_NAME = 'generate-video';
/** BullMQ's highest priority number (the lowest priority). */
const MAX_PRIORITY = 2_097_151;
/** How long DELETE waits for the worker running a job to confirm it stopped. */
export const CANCEL_REPLY_TIMEOUT_MS = 20_000;
/**
 * A worker that stops mid-job hands it back by failing the attempt; the next attempt (on any worker)
 * resumes from the job's checkpoints. Pipeline failures never fail an attempt (they are recorded on the
 * row), so attempts are only spent on shutdowns and crashes.
 */
const JOB_OPTIONS: JobsOptions = {
  attempts: 25,
  backoff: { type: 'fixed', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: true,
};

export interface RedisQueueSettings {
  /** redis:// or rediss:// URL (REDIS_URL). */
  url: string;
  /** Key prefix shared by every process of one deployment (QUEUE_PREFIX). */
  prefix: string;
}

export function redisChannels(prefix: string) {
  return {
    events: `${prefix}:job-events`,
    cancelRequests: `${prefix}:job-cancel`,
    cancelReplies: `${prefix}:job-cancelled`,
  };
}

const connectionOptions = (settings: RedisQueueSettings) => ({ url: settings.url, maxRetriesPerRequest: null });

/** A message from another process: parsed with its contract, or null (and logged) when malformed. */
function parseMessage<S extends z.ZodMiniType>(schema: S, message: string, log: FastifyBaseLogger): z.infer<S> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(message));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON; reported below.
  }
  log.warn('ignoring a malformed message from the job queue');
  return null;
}

/**
 * BullMQ runs lower numbers first. A user's n-th unfinished job gets priority n, so one user's burst
 * of ten waits behind everyone else's first job: the same fairness the embedded queue gets from its
 * round-robin claim.
 */
function fairPriority(unfinishedOfUser: number): number {
  return Math.min(MAX_PRIORITY, Math.max(1, unfinishedOfUser));
}

export interface BullmqJobQueueOptions {
  db: Kysely<Database>;
  /** This API process's bus: relayed worker events are re-emitted on it for the sockets. */
  events: JobEventBus;
  redis: RedisQueueSettings;
  /** Jobs each worker process runs at once (QUEUE_CONCURRENCY), for the status figures. */
  workerConcurrency: number;
  log: FastifyBaseLogger;
  cancelReplyTimeoutMs?: number;
  /**
   * The sweeper: how often it looks for running jobs whose claim lapsed, and how long past its
   * expiry a claim may stay before the job goes back to the queue (tests shorten both).
   */
  claimSweep?: { intervalMs?: number; graceMs?: number };
}

/** How often the API looks for running jobs nobody holds. */
export const DEFAULT_CLAIM_SWEEP_MS = 15_000;

/** The API side: enqueue, cancel, status, and the relay of worker events to this process's sockets. */
export class BullmqJobQueue implements JobQueue {
  readonly backend = 'bullmq' as const;
  private readonly queue: Queue<VideoJobPayload>;
  private subscriber: Redis | null = null;
  private publisher: Redis | null = null;
  private started = false;
  private readonly pendingCancels = new Map<string, () => void>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(private readonly options: BullmqJobQueueOptions) {
    this.queue = new Queue<VideoJobPayload>(VIDEO_QUEUE_NAME, {
      connection: connectionOptions(options.redis),
      prefix: options.redis.prefix,
    });
    // Without a listener an unreachable Redis would surface as an unhandled 'error' event.
    this.queue.on('error', (error) => options.log.warn({ err: error }, 'job queue connection error'));
  }

  async start(): Promise<void> {
    if (this.started) return;
    const { redis, log } = this.options;
    const channels = redisChannels(redis.prefix);
    this.publisher = new Redis(redis.url, { maxRetriesPerRequest: null });
    this.subscriber = new Redis(redis.url, { maxRetriesPerRequest: null });
    for (const client of [this.publisher, this.subscriber])
      client.on('error', (error) => log.warn({ err: error }, 'job queue connection error'));
    this.subscriber.on('message', (channel, message) => {
      if (channel === channels.events) {
        const relayed = parseMessage(relayedJobEventSchema, message, log);
        if (relayed) this.emitRelayed(relayed);
      } else if (channel === channels.cancelReplies) {
        const reply = parseMessage(jobCancelReplySchema, message, log);
        if (reply) this.pendingCancels.get(reply.requestId)?.();
      }
    });
    await this.subscriber.subscribe(channels.events, channels.cancelReplies);
    await this.queue.waitUntilReady();
    await this.reconcile();
    this.started = true;
    this.sweepTimer = setInterval(() => {
      this.sweeping ??= this.sweepLapsedClaims()
        .then(() => undefined)
        .catch((error: unknown) => log.warn({ err: error }, 'could not sweep lapsed job claims'))
        .finally(() => (this.sweeping = null));
    }, this.options.claimSweep?.intervalMs ?? DEFAULT_CLAIM_SWEEP_MS);
    this.sweepTimer.unref();
  }

  /**
   * No job stays 'processing' without a live claim: one whose claim lapsed (its worker died, stalled
   * or ended its attempt without handing it back) goes back to 'queued', unclaimed, and onto the
   * queue unless BullMQ still holds it waiting or running (its stalled-job check then re-offers it).
   */
  async sweepLapsedClaims(): Promise<number> {
    const lapsed = await requeueLapsedClaims(this.options.db, this.options.claimSweep?.graceMs ?? DEFAULT_JOB_LOCK_MS);
    for (const row of lapsed) {
      const held = await this.queue.getJob(row.id);
      const state = held ? await held.getState() : null;
      if (state === 'completed' || state === 'failed') await held!.remove().catch(() => undefined);
      else if (held && state !== 'unknown') continue;
      await this.add({ jobId: row.id, userId: row.user_id }, fairPriority(await unfinishedJobCount(this.options.db, row.user_id)));
    }
    if (lapsed.length > 0)
      this.options.log.warn({ jobs: lapsed.map((row) => row.id) }, 'put running jobs whose claim lapsed back on the queue');
    return lapsed.length;
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.sweeping;
    for (const resolve of this.pendingCancels.values()) resolve();
    await Promise.allSettled([this.queue.close(), this.subscriber?.quit(), this.publisher?.quit()]);
    this.subscriber = null;
    this.publisher = null;
  }

  async enqueue(jobId: string, userId: string): Promise<void> {
    const priority = fairPriority(await unfinishedJobCount(this.options.db, userId));
    await this.add({ jobId, userId }, priority);
  }

  /**
   * The rows were inserted before this, so the user's unfinished count includes them: the first row
   * takes the position after the user's earlier jobs, the next one after it, and so on (one addBulk).
   */
  async enqueueBatch(jobIds: readonly string[], userId: string): Promise<void> {
    if (jobIds.length === 0) return;
    const before = Math.max(0, (await unfinishedJobCount(this.options.db, userId)) - jobIds.length);
    await this.queue.addBulk(
      jobIds.map((jobId, index) => ({
        name: JOB_NAME,
        data: videoJobPayloadSchema.parse({ jobId, userId }),
        opts: { ...JOB_OPTIONS, jobId, priority: fairPriority(before + index + 1) },
      })),
    );
  }

  async cancel(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state !== 'active') {
      // Not started: drop it. Should a worker take it at this very moment, it finds the row cancelled.
      await job.remove().catch(() => undefined);
      return false;
    }
    return this.askWorkerToStop(jobId);
  }

  /** The worker processes' heartbeats (System Health). */
  async workerHeartbeats(): Promise<WorkerHeartbeat[]> {
    if (!this.publisher) return [];
    return readWorkerHeartbeats(this.publisher, this.options.redis.prefix);
  }

  async status(): Promise<QueueStatus> {
    const [counts, bullCounts, workers] = await Promise.all([
      jobCounts(this.options.db),
      this.queue.getJobCounts('active'),
      // CLIENT LIST may be disabled on managed Redis; the figure is informative only.
      this.queue.getWorkersCount().catch(() => 0),
    ]);
    return {
      running: this.started && workers > 0,
      concurrency: Math.max(1, workers) * this.options.workerConcurrency,
      pending: counts.queued,
      processing: bullCounts.active ?? 0,
      backend: this.backend,
      jobs: { total: counts.total, completed: counts.completed, failed: counts.failed, cancelled: counts.cancelled },
    };
  }

  /**
   * Jobs whose row is unfinished but which Redis does not hold (the API stopped between the insert
   * and the add, or Redis lost its data) are put back; BullMQ ignores an add for a job id it holds.
   */
  private async reconcile(): Promise<void> {
    const perUser = new Map<string, number>();
    let added = 0;
    for (const row of await unfinishedJobs(this.options.db)) {
      const position = (perUser.get(row.user_id) ?? 0) + 1;
      perUser.set(row.user_id, position);
      if (!(await this.queue.getJob(row.id))) {
        await this.add({ jobId: row.id, userId: row.user_id }, fairPriority(position));
        added++;
      }
    }
    if (added > 0) this.options.log.info({ jobs: added }, 'put unfinished jobs back on the queue');
  }

  private async add(payload: VideoJobPayload, priority: number): Promise<void> {
    await this.queue.add(JOB_NAME, videoJobPayloadSchema.parse(payload), { ...JOB_OPTIONS, jobId: payload.jobId, priority });
  }

  private emitRelayed(relayed: RelayedJobEvent): void {
    this.options.events.publish([relayed], 'relayed');
  }

  /** True when a worker confirmed it stopped the job (its events are relayed); false on timeout. */
  private askWorkerToStop(jobId: string): Promise<boolean> {
    const publisher = this.publisher;
    if (!publisher) return Promise.resolve(false);
    const request: JobCancelRequest = { requestId: randomUUID(), jobId };
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => finish(false), this.options.cancelReplyTimeoutMs ?? CANCEL_REPLY_TIMEOUT_MS);
      const finish = (stopped: boolean) => {
        clearTimeout(timer);
        this.pendingCancels.delete(request.requestId);
        resolve(stopped);
      };
      this.pendingCancels.set(request.requestId, () => finish(true));
      publisher.publish(redisChannels(this.options.redis.prefix).cancelRequests, JSON.stringify(request)).catch((error: unknown) => {
        this.options.log.warn({ err: error, jobId }, 'could not ask the workers to stop a cancelled job');
        finish(false);
      });
    });
  }
}

export interface BullmqJobWorkersOptions {
  db: Kysely<Database>;
  /** Runs one claimed job; its events arrive on `events`. */
  worker: JobWorker;
  /** This worker process's bus; everything emitted on it is relayed to the API processes. */
  events: JobEventBus;
  redis: RedisQueueSettings;
  /** Jobs this process runs at once (QUEUE_CONCURRENCY). */
  concurrency: number;
  log: FastifyBaseLogger;
  /** BullMQ's lock on a running job, renewed while it runs (tests shorten it). Default 30 s. */
  lockDurationMs?: number;
  /**
   * Hears what happens to attempts on this worker's queue (the metrics): `stalled`, a running job this
   * worker's stalled check put back because its lock lapsed (its worker died or blocked); `retried`, an
   * attempt that ended here without finishing the job and that BullMQ runs again.
   */
  onAttempt?: (event: 'stalled' | 'retried') => void;
}

export const DEFAULT_JOB_LOCK_MS = 30_000;

/**
 * A worker process's BullmqJobWorkers for `runtime`, on the config's queue (REDIS_URL, QUEUE_PREFIX)
 * and QUEUE_CONCURRENCY: `npm run worker` and the tests' in-process workers are wired by this one call.
 */
export function bullmqWorkersFor(
  config: Pick<Config, 'queue' | 'queueConcurrency'>,
  db: Kysely<Database>,
  runtime: Pick<JobRuntime, 'worker' | 'events'>,
  log: FastifyBaseLogger,
  onAttempt?: BullmqJobWorkersOptions['onAttempt'],
): BullmqJobWorkers {
  if (config.queue.backend !== 'bullmq') throw new Error('QUEUE_BACKEND must be bullmq for a worker process');
  return new BullmqJobWorkers({
    db,
    worker: runtime.worker,
    events: runtime.events,
    redis: { url: config.queue.redisUrl, prefix: config.queue.prefix },
    concurrency: config.queueConcurrency,
    log,
    ...(onAttempt ? { onAttempt } : {}),
  });
}

interface RunningJob {
  controller: AbortController;
  settled: Promise<void>;
}

const RELAYED_EVENTS: JobEventName[] = ['job_progress', 'job_completed', 'job_failed'];

/** The worker side (`npm run worker`): takes jobs from the BullMQ queue and runs them through JobWorker. */
export class BullmqJobWorkers {
  private bullWorker: Worker<VideoJobPayload> | null = null;
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private readonly running = new Map<string, RunningJob>();
  private readonly relays: Array<() => void> = [];
  private heartbeat: { stop(): Promise<void> } | null = null;

  constructor(private readonly options: BullmqJobWorkersOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error('Queue concurrency must be a positive integer');
  }

  /** Jobs running in this process right now. */
  get activeJobIds(): string[] {
    return [...this.running.keys()];
  }

  /** Whether Redis answers this worker (its readiness); false before start and after stop. */
  async ping(): Promise<boolean> {
    if (!this.publisher) return false;
    return (await this.publisher.ping()) === 'PONG';
  }

  async start(): Promise<void> {
    if (this.bullWorker) return;
    const { redis, events, log } = this.options;
    const channels = redisChannels(redis.prefix);
    const publisher = new Redis(redis.url, { maxRetriesPerRequest: null });
    const subscriber = new Redis(redis.url, { maxRetriesPerRequest: null });
    this.publisher = publisher;
    this.subscriber = subscriber;
    for (const client of [publisher, subscriber]) client.on('error', (error) => log.warn({ err: error }, 'job queue connection error'));

    for (const name of RELAYED_EVENTS) {
      const relay = (event: RelayedJobEvent['event'], userId: string) => {
        const message = relayedJobEventSchema.parse({ name, event, userId });
        publisher
          .publish(channels.events, JSON.stringify(message))
          .catch((error: unknown) => log.warn({ err: error }, 'could not relay a job event'));
      };
      events.on(name, relay as never);
      this.relays.push(() => events.off(name, relay as never));
    }

    subscriber.on('message', (channel, message) => {
      if (channel !== channels.cancelRequests) return;
      const request = parseMessage(jobCancelRequestSchema, message, log);
      if (request) void this.stopCancelled(request);
    });
    await subscriber.subscribe(channels.cancelRequests);

    const lockMs = this.options.lockDurationMs ?? DEFAULT_JOB_LOCK_MS;
    this.bullWorker = new Worker<VideoJobPayload>(VIDEO_QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: connectionOptions(redis),
      prefix: redis.prefix,
      concurrency: this.options.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // A job whose worker died goes back to the queue; the next attempt resumes from its checkpoints.
      maxStalledCount: 5,
    });
    this.bullWorker.on('error', (error) => log.warn({ err: error }, 'job worker connection error'));
    const onAttempt = this.options.onAttempt;
    if (onAttempt) {
      // 'stalled' is emitted by the worker whose check moved the job, so each stall is heard once across workers.
      this.bullWorker.on('stalled', () => onAttempt('stalled'));
      // 'failed' comes for every failed attempt; one BullMQ will run again has no finishedOn and attempts left.
      this.bullWorker.on('failed', (job) => {
        if (job && !job.finishedOn && job.attemptsMade < (job.opts.attempts ?? 1)) onAttempt('retried');
      });
    }
    // BullMQ could not renew our lock (Redis trouble, or we stalled and the job moved on): stop those runs.
    this.bullWorker.on('lockRenewalFailed', (jobIds: string[]) => {
      for (const jobId of jobIds) this.running.get(jobId)?.controller.abort(new JobClaimLostError());
    });
    await this.bullWorker.waitUntilReady();
    this.heartbeat = startWorkerHeartbeat(publisher, redis.prefix, () => this.running.size, log);
  }

  /** Stops taking jobs and hands the running ones back to the queue, to resume on any worker. */
  async stop(): Promise<void> {
    const bullWorker = this.bullWorker;
    this.bullWorker = null;
    // close() stops fetching at once and waits for the running processors, which the aborts end.
    const closing = bullWorker?.close();
    for (const job of this.running.values()) job.controller.abort(new QueueShutdownError());
    await closing;
    for (const unsubscribe of this.relays.splice(0)) unsubscribe();
    await this.heartbeat?.stop();
    this.heartbeat = null;
    await Promise.allSettled([this.subscriber?.quit(), this.publisher?.quit()]);
    this.subscriber = null;
    this.publisher = null;
  }

  /**
   * Runs a job at most once at a time: the claim in the database carries BullMQ's job token and is
   * renewed (with BullMQ's own lock) while the job runs. A second claimant backs off while another
   * token's claim is fresh; the owner stops at once when it finds its claim taken (it stalled past
   * the lock, say with a blocked event loop, and another worker resumed the job from its checkpoints).
   */
  private async process(job: Job<VideoJobPayload>, token: string | undefined): Promise<string> {
    const { jobId } = videoJobPayloadSchema.parse(job.data);
    const lockMs = this.options.lockDurationMs ?? DEFAULT_JOB_LOCK_MS;
    const claimToken = token ?? job.token ?? randomUUID();
    const claim = await claimJobWithToken(this.options.db, jobId, claimToken, lockMs);
    if (!claim.claimed) {
      // Cancelled, deleted or already finished: nothing to run.
      if (claim.heldUntil === null) return 'skipped';
      this.options.log.warn({ jobId, heldUntil: claim.heldUntil }, 'job still claimed by another worker; backing off');
      await job.moveToDelayed(Math.max(Date.now() + 100, Date.parse(claim.heldUntil) + 100), claimToken);
      throw new DelayedError();
    }
    const controller = new AbortController();
    const settled = this.options.worker.run(claim.job, controller.signal);
    this.running.set(jobId, { controller, settled: settled.catch(() => undefined) });
    const renewal = setInterval(
      () => {
        renewJobClaim(this.options.db, jobId, claimToken, lockMs).then(
          (ours) => {
            if (!ours && !controller.signal.aborted) controller.abort(new JobClaimLostError());
          },
          (error: unknown) => this.options.log.warn({ err: error, jobId }, 'could not renew the job claim'),
        );
      },
      Math.max(50, Math.floor(lockMs / 3)),
    );
    try {
      await settled;
    } finally {
      clearInterval(renewal);
      this.running.delete(jobId);
    }
    if (controller.signal.reason instanceof JobClaimLostError) {
      // Not ours any more: BullMQ refuses a completion under a lost lock anyway.
      throw new Error('The job was taken over by another worker');
    }
    if (controller.signal.reason instanceof QueueShutdownError) {
      // The row is 'queued' again; failing this attempt makes BullMQ offer the job to the next worker.
      throw new Error('The worker stopped; the job resumes on the next worker');
    }
    return 'done';
  }

  private async stopCancelled(request: JobCancelRequest): Promise<void> {
    const job = this.running.get(request.jobId);
    if (!job) return;
    job.controller.abort(new Error('Job cancelled'));
    await job.settled;
    const reply: JobCancelReply = { requestId: request.requestId, jobId: request.jobId };
    await this.publisher
      ?.publish(redisChannels(this.options.redis.prefix).cancelReplies, JSON.stringify(reply))
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'could not confirm a cancelled job'));
  }
}
