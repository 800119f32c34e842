import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobQueue, QueueStatus } from './job-queue.js';
import { claimNextJob, jobCounts, requeueInterruptedJobs } from '../video-jobs/video-job-repository.js';
import { QueueShutdownError, type JobWorker } from './job-worker.js';

export interface EmbeddedQueueOptions {
  db: Kysely<Database>;
  worker: JobWorker;
  /** Jobs run at the same time (QUEUE_CONCURRENCY). */
  concurrency: number;
  log: FastifyBaseLogger;
}

const PUMP_RETRY_MS = 5_000;

interface RunningJob {
  controller: AbortController;
  settled: Promise<void>;
}

/**
 * The default queue: jobs live in video_jobs and run in this process. Durable because the table is
 * the queue (a restart puts interrupted jobs back and runs whatever is queued), fair because the
 * next job is chosen round-robin across users (see claimNextJob).
 */
export class EmbeddedJobQueue implements JobQueue {
  readonly backend = 'embedded' as const;
  private readonly running = new Map<string, RunningJob>();
  private started = false;
  private stopping = false;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;

  constructor(private readonly options: EmbeddedQueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error('Queue concurrency must be a positive integer');
  }

  async start(): Promise<void> {
    if (this.started) return;
    const resumed = await requeueInterruptedJobs(this.options.db);
    if (resumed > 0) this.options.log.info({ jobs: resumed }, 'resuming jobs interrupted by the last shutdown');
    this.started = true;
    this.stopping = false;
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    // A claim under way may still start one more job; let it, then interrupt everything running.
    await this.pumping;
    const running = [...this.running.values()];
    for (const job of running) job.controller.abort(new QueueShutdownError());
    await Promise.allSettled(running.map((job) => job.settled));
    this.started = false;
  }

  async enqueue(): Promise<void> {
    this.pump();
  }

  /** The claim already takes turns across users (claimNextJob), a batch's rows in row order. */
  async enqueueBatch(): Promise<void> {
    this.pump();
  }

  async cancel(jobId: string): Promise<boolean> {
    const job = this.running.get(jobId);
    if (!job) return false;
    job.controller.abort(new Error('Job cancelled'));
    await job.settled;
    return true;
  }

  async status(): Promise<QueueStatus> {
    const counts = await jobCounts(this.options.db);
    return {
      running: this.started && !this.stopping,
      concurrency: this.options.concurrency,
      pending: counts.queued,
      processing: this.running.size,
      backend: this.backend,
      jobs: { total: counts.total, completed: counts.completed, failed: counts.failed, cancelled: counts.cancelled },
    };
  }

  /** Fills free slots with claimed jobs; a call while a fill is under way makes it look again when done. */
  private pump(): void {
    if (!this.started || this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumpAgain = false;
    const filling = this.fillSlots();
    this.pumping = filling;
    void filling.finally(() => {
      this.pumping = null;
      if (this.pumpAgain) this.pump();
    });
  }

  private async fillSlots(): Promise<void> {
    try {
      while (!this.stopping && this.running.size < this.options.concurrency) {
        const job = await claimNextJob(this.options.db);
        if (!job) return;
        const controller = new AbortController();
        const settled = this.options.worker
          .run(job, controller.signal)
          .catch((error: unknown) => this.options.log.error({ err: error, jobId: job.id }, 'job worker crashed'))
          .finally(() => {
            this.running.delete(job.id);
            this.pump();
          });
        this.running.set(job.id, { controller, settled });
      }
    } catch (error) {
      this.options.log.error({ err: error }, 'could not take the next job from the queue');
      // The database may be briefly unavailable; queued jobs must not wait for the next submit.
      setTimeout(() => this.pump(), PUMP_RETRY_MS).unref();
    }
  }
}
