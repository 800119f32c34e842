import type { JobStatus, JobSteps, VideoResult } from '@reelsmith/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database, VideoJobRow } from '../db/schema.js';
import type { JobEvent, JobEventBus } from '../events/job-events.js';
import { removeOutput } from '../output/output-files.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import type { StoryboardRuns } from '../storyboard/storyboard-runs.js';
import { versionTokens } from '../storyboard/storyboard-store.js';
import { UploadFiles } from '../uploads/upload-files.js';
import { removeUploads, uploadsOnlyUsedBy } from '../uploads/upload-retention.js';
import {
  cancelActiveUserJobs,
  cancelUserJob,
  deleteFinishedUserJob,
  markCompleted,
  markFailed,
} from '../video-jobs/video-job-repository.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import type { JobQueue } from './job-queue.js';
import type { JobWorkspaces } from './job-workspaces.js';

type Trx = Transaction<Database>;

/** What a committed transition sets off, always in the order of `settle`. */
interface Aftermath {
  events: JobEvent[];
  /** Runs to stop: their rows are final already, so a stopped run records nothing more. */
  stop: string[];
  /** Workspaces to remove, once their runs have stopped. */
  removeWorkspaces: string[];
}

/** A job the suspension cancelled: what it was, so the audit entry can say how many ran. */
export interface CancelledJob {
  id: string;
  status: JobStatus;
  version: number;
}

export interface JobLifecycleOptions {
  db: Kysely<Database>;
  events: JobEventBus;
  /** Its outbox takes a transition's webhook deliveries in the transition's transaction. */
  webhooks: WebhookDispatcher;
  workspaces: JobWorkspaces;
  /** Where finished videos live (a deleted video's files are removed from it). */
  storage: ObjectStorage;
  storyboards: StoryboardRuns;
}

/**
 * The one way a job ends (cancel, suspend, complete, fail) or goes (delete). Each call makes the
 * repository's transition and writes the webhook deliveries of its events in ONE transaction (so a
 * crash after the commit loses no webhook), then, once committed, in this order: stops the runs whose
 * rows it finalised, publishes the events (what clients hear is what was stored), wakes the webhook
 * dispatcher, and removes the workspaces. Handlers and the worker call only this.
 */
export class JobLifecycle {
  private queue: Pick<JobQueue, 'cancel'> | null = null;
  private readonly uploadFiles: UploadFiles;

  constructor(private readonly options: JobLifecycleOptions) {
    this.uploadFiles = new UploadFiles(options.storage);
  }

  /** The queue whose runs a cancel stops; it is built after the worker this lifecycle serves. */
  useQueue(queue: Pick<JobQueue, 'cancel'>): void {
    this.queue = queue;
  }

  /** Inside a transition's transaction: the webhook deliveries its events imply. */
  private async alongside(trx: Trx, events: JobEvent[]): Promise<void> {
    await this.options.webhooks.outbox.recordJobEvents(trx, events);
  }

  /** After the commit. */
  private async settle({ events, stop, removeWorkspaces }: Aftermath): Promise<void> {
    if (stop.length > 0) {
      const queue = this.queue;
      if (!queue) throw new Error('JobLifecycle: no queue to stop the cancelled runs (call useQueue first)');
      // Before the events: a stopped run publishes nothing more, so 'cancelled' is the last word clients hear.
      await Promise.all(stop.map((jobId) => queue.cancel(jobId)));
    }
    this.options.events.publish(events);
    if (events.some((item) => item.name !== 'job_progress')) this.options.webhooks.kick();
    // After the runs stopped; a cancelled job requeued after a restart may have a workspace though nothing ran it.
    await Promise.all(removeWorkspaces.map((jobId) => this.options.workspaces.remove(jobId)));
  }

  /** Stops one of the user's active jobs (queued or running); false when it was not active. */
  async cancel(userId: string, jobId: string): Promise<boolean> {
    const cancelled = await this.options.db.transaction().execute(async (trx) => {
      const outcome = await cancelUserJob(trx, userId, jobId);
      if (outcome) await this.alongside(trx, outcome.events);
      return outcome;
    });
    if (!cancelled) return false;
    await this.settle({ events: cancelled.events, stop: [jobId], removeWorkspaces: [jobId] });
    return true;
  }

  /**
   * Cancels every active job of the user inside the suspension's own transaction: `suspendAccount`
   * runs that transaction (the account, its sessions, the audit entry) and calls `cancelJobs` in it.
   * Once it has committed, the cancelled runs are stopped like a single cancel's.
   */
  async suspend<T>(userId: string, suspendAccount: (cancelJobs: (trx: Trx) => Promise<CancelledJob[]>) => Promise<T>): Promise<T> {
    let aftermath: Aftermath | null = null;
    const value = await suspendAccount(async (trx) => {
      const { jobs, events } = await cancelActiveUserJobs(trx, userId);
      await this.alongside(trx, events);
      const ids = jobs.map((job) => job.id);
      aftermath = { events, stop: ids, removeWorkspaces: ids };
      return jobs;
    });
    if (aftermath) await this.settle(aftermath);
    return value;
  }

  /**
   * A run finished: the job completed with its result, together with `recordAlso` (the version and
   * storyboard, so whoever sees 'completed' can open them). False when the job was no longer this
   * claim's to complete (cancelled, deleted or taken over meanwhile).
   */
  async complete(
    job: Pick<VideoJobRow, 'id' | 'user_id'>,
    done: { result: VideoResult; outputToken: string; sizeBytes: number; steps: JobSteps },
    claimToken: string | null,
    recordAlso?: (trx: Trx) => Promise<void>,
  ): Promise<boolean> {
    const events = await this.options.db.transaction().execute(async (trx) => {
      const completed = await markCompleted(trx, job, done, claimToken);
      if (!completed) return null;
      await recordAlso?.(trx);
      await this.alongside(trx, completed);
      return completed;
    });
    if (!events) return false;
    await this.settle({ events, stop: [], removeWorkspaces: [job.id] });
    return true;
  }

  /**
   * A run failed (see markFailed). The workspace stays: Retry resumes from its checkpoints, and
   * deleting the video removes it. False when the job was no longer this claim's to fail.
   */
  async fail(
    job: Pick<VideoJobRow, 'id' | 'user_id' | 'version'>,
    message: string,
    steps: JobSteps,
    claimToken: string | null,
    ranToTheEnd = true,
  ): Promise<boolean> {
    const events = await this.options.db.transaction().execute(async (trx) => {
      const failed = await markFailed(trx, job, message, steps, claimToken, ranToTheEnd);
      if (failed) await this.alongside(trx, failed);
      return failed;
    });
    if (!events) return false;
    await this.settle({ events, stop: [], removeWorkspaces: [] });
    return true;
  }

  /**
   * DELETE of a video: an active one is cancelled; a finished one is deleted with every file it
   * left (each version's output, the uploads only it used, its storyboard artefacts, its workspace).
   * Null when the user has no such video.
   */
  async cancelOrDelete(userId: string, jobId: string): Promise<'cancelled' | 'deleted' | null> {
    if (await this.cancel(userId, jobId)) return 'cancelled';
    const { db, storage } = this.options;
    // Read first: the storyboard naming them goes with the video.
    const earlierVersions = await versionTokens(db, jobId);
    const uploads = await uploadsOnlyUsedBy(db, userId, jobId);
    const deleted = await deleteFinishedUserJob(db, userId, jobId);
    if (!deleted) return null;
    await removeOutput(storage, deleted.outputToken);
    for (const token of earlierVersions) await removeOutput(storage, token);
    await removeUploads(db, this.uploadFiles, uploads);
    await this.options.storyboards.removeArtefacts(jobId);
    await this.options.workspaces.remove(jobId);
    return 'deleted';
  }
}
