import type { QueueStatus } from '@reelsmith/contracts';

export type { QueueStatus };

/**
 * Runs video jobs stored in video_jobs. The row is created (status 'queued') before `enqueue` is
 * called, and the database stays the source of truth for a job's status: implementations only
 * decide when and where a queued job runs. The embedded queue (embedded-queue.ts) runs jobs in this
 * process; a BullMQ queue on Redis can implement the same interface.
 */
export interface JobQueue {
  readonly backend: QueueStatus['backend'];
  /** Makes a freshly inserted 'queued' job eligible to run. */
  enqueue(jobId: string, userId: string): Promise<void>;
  /**
   * Makes a batch's freshly inserted jobs (one user's, in row order) eligible to run, fairly: each
   * takes its turn among every user's jobs as if submitted one after the other, so one creator's
   * batch never makes another creator's single video wait behind all of it.
   */
  enqueueBatch(jobIds: readonly string[], userId: string): Promise<void>;
  /**
   * Stops a job whose row was already marked 'cancelled': aborts it if it is running (which kills its
   * ffmpeg) and resolves once it has stopped. True when it was running: its worker then reported the
   * cancellation on the event bus; false (at once) for a job that was not running.
   */
  cancel(jobId: string): Promise<boolean>;
  /** Resumes interrupted jobs and begins taking queued ones. */
  start(): Promise<void>;
  /** Stops taking jobs and interrupts running ones so that the next start resumes them. */
  stop(): Promise<void>;
  status(): Promise<QueueStatus>;
}
