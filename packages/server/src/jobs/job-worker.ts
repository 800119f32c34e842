import {
  MESSAGES,
  SERVICE_UNAVAILABLE_MESSAGES,
  sourceCredit,
  type GenerationParams,
  type PipelineStep,
  type RenderStats,
  type VideoResult,
} from '@reelsmith/contracts';
import { ProviderError } from '@reelsmith/pipeline';
import { GenerationError } from '@reelsmith/pipeline';
import type { GenerationOutput, GenerationRun, Providers } from '@reelsmith/pipeline';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { mkdir } from 'node:fs/promises';
import type { Database, VideoJobRow } from '../db/schema.js';
import { publishOutput, removeOutput } from '../output/output-files.js';
import { StorageWriteError, type ObjectStorage } from '../storage/object-storage.js';
import type { JobEventBus } from '../events/job-events.js';
import { JobProgressTracker } from './job-progress.js';
import { claimState, markRequeued, recordProgress, type ProgressWrite } from '../video-jobs/video-job-repository.js';
import type { JobLifecycle } from './job-lifecycle.js';
import type { JobWorkspaces } from './job-workspaces.js';
import type { StoryboardRuns } from '../storyboard/storyboard-runs.js';
import { MAX_CRASHED_RUNS, parseParams, parseResult } from '../video-jobs/video-job-view.js';

/** The pipeline entry point (`runGeneration` of @reelsmith/pipeline), injectable for tests. */
export type GenerationRunner = (run: GenerationRun) => Promise<GenerationOutput>;
/** The providers a job runs with; may depend on its parameters (e.g. the chosen voice provider). */
export type ProvidersForJob = (params: GenerationParams) => Providers;

/** The abort reason when the server stops: the job is put back in the queue, not cancelled. */
/**
 * Scale mode: this worker stalled past its lock and another worker now owns the job. The run stops
 * and touches nothing (no event, no status, and not the workspace the new owner resumes from).
 */
export class JobClaimLostError extends Error {
  override name = 'JobClaimLostError';
  constructor() {
    super('Another worker took over this job');
  }
}

export class QueueShutdownError extends Error {
  override name = 'QueueShutdownError';
  constructor() {
    super('The server is stopping; the job will resume on the next start');
  }
}

/** The abort reason when a progress write finds the row no longer running (cancelled from elsewhere). */
export class JobNoLongerActiveError extends Error {
  override name = 'JobNoLongerActiveError';
  constructor() {
    super('The job is no longer active');
  }
}

export interface JobWorkerOptions {
  db: Kysely<Database>;
  events: JobEventBus;
  runner: GenerationRunner;
  providersFor: ProvidersForJob;
  /** Where finished videos and posters are published (DATA_DIR/output or the S3 bucket). */
  storage: ObjectStorage;
  /** DATA_DIR/jobs: one workspace per job, holding the pipeline's per-step checkpoints. */
  workspaces: JobWorkspaces;
  /** Completes and fails the jobs this worker runs (with their webhooks, events and workspaces). */
  lifecycle: JobLifecycle;
  log: FastifyBaseLogger;
  /** Storyboard renders and versions; absent, every run is a plain first render. */
  storyboards?: StoryboardRuns;
  /**
   * Fetches and reads a job's link source (a batch's url row, accepted before its page was read):
   * the params with the page's article, or a ProviderError (status 400) saying why the page is refused.
   */
  readLink?: (job: VideoJobRow, params: GenerationParams, signal: AbortSignal) => Promise<GenerationParams>;
}

/**
 * What the video says it is based on: the Wikipedia article research found or the creator chose
 * (with its address), else the job's own source.
 */
function videoSource(params: GenerationParams, output: GenerationOutput): Pick<VideoResult, 'source'> {
  if (output.research) return { source: { kind: 'wikipedia', title: output.research.title, url: output.research.url } };
  return params.source ? { source: sourceCredit(params.source) } : {};
}

export const STORAGE_WRITE_FAILED_MESSAGE = 'The finished video could not be saved to storage. Please try again in a few minutes.';
/** HTTP statuses that mean the server's provider set-up is wrong (key, address, model), not the creator's input. */
const OPERATOR_STATUSES = new Set([401, 403, 404]);

/**
 * A provider failure nobody but the operator or the provider can fix: unreachable, timed out, rate
 * limited, 5xx, a rejected key or address, or a local engine failure (no HTTP status). A refusal of
 * the creator's input (a 400 content refusal, an unknown voice) is not one: its message says what to change.
 */
function isServiceFailure(error: ProviderError): boolean {
  return error.retryable || error.status === undefined || OPERATOR_STATUSES.has(error.status);
}

/** What a creator can do something about; anything else is logged and shown as the generic failure. */
export function userFacingError(error: unknown): string {
  const cause =
    error instanceof GenerationError && error.cause instanceof ProviderError ? error.cause : error instanceof ProviderError ? error : null;
  if (cause && isServiceFailure(cause)) {
    const step = error instanceof GenerationError ? error.step : null;
    return step === 'voice' || step === 'story' || step === 'images'
      ? SERVICE_UNAVAILABLE_MESSAGES[step]
      : SERVICE_UNAVAILABLE_MESSAGES.other;
  }
  if ((error instanceof GenerationError || error instanceof ProviderError) && error.message.trim() !== '') return error.message;
  if ((error as NodeJS.ErrnoException | null)?.code === 'ENOSPC') return 'The server ran out of disk space. Please try again later.';
  if (error instanceof StorageWriteError) return STORAGE_WRITE_FAILED_MESSAGE;
  return MESSAGES.generationUnexpectedError;
}

/**
 * Writes progress rows one at a time; the reports that arrive while a write runs go together into
 * the next one (only the newest state is stored, every report is announced once it is).
 */
class ProgressWriter {
  private pending: ProgressWrite[] = [];
  private running: Promise<void> | null = null;
  private last: string | null = null;

  constructor(
    private readonly write: (updates: readonly ProgressWrite[]) => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  push(update: ProgressWrite): void {
    // A report that moves nothing (a resumed run reporting less than stored) is no transition.
    const key = `${update.currentStep}:${update.stepProgress}:${update.progress}`;
    if (key === this.last) return;
    this.last = key;
    this.pending.push(update);
    this.running ??= this.drain();
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.write(batch);
        } catch (error) {
          this.log.warn({ err: error }, 'could not record job progress');
        }
      }
    } finally {
      this.running = null;
    }
  }
}

/**
 * The new render's post kit, unless the creator edited the one before: their words outlive a
 * re-render (the story's changes rarely change what the post should say).
 */
async function postKitOf(db: Kysely<Database>, output: GenerationOutput, job: VideoJobRow): Promise<Pick<VideoResult, 'post'>> {
  if (job.version > 1) {
    // Read now, not at the claim: the creator may have edited it while this version rendered.
    const row = await db.selectFrom('video_jobs').select('result').where('id', '=', job.id).executeTakeFirst();
    const previous = parseResult(row?.result ?? null)?.post;
    if (previous?.editedAt) return { post: previous };
  }
  return output.post ? { post: output.post } : {};
}

export { MAX_CRASHED_RUNS };
/** Why a job that crashed its runs twice was failed, and what to try instead: a topic's words differ from a source's. */
export const CRASHED_RUNS_MESSAGES = {
  text: 'This video stopped the server twice while it was being made, so it was not tried again. Its source may be too long or unusual: try a shorter text, or a topic. It does not count against your plan.',
  page: 'This video stopped the server twice while it was being made, so it was not tried again. Its page may be too long or unusual: try another article, or a topic. It does not count against your plan.',
  topic:
    'This video stopped the server twice while it was being made, so it was not tried again. Make a new video: the topic in other words, or another style or length. It does not count against your plan.',
} as const;

function crashedRunsMessage(params: string): string {
  let kind: string | undefined;
  try {
    kind = parseParams(params).source?.kind;
  } catch {
    // Unreadable params: the topic's message is the one that blames nothing in particular.
  }
  if (kind === 'script' || kind === 'article') return CRASHED_RUNS_MESSAGES.text;
  if (kind) return CRASHED_RUNS_MESSAGES.page;
  return CRASHED_RUNS_MESSAGES.topic;
}

/**
 * Runs one claimed job (status 'processing') through the pipeline and records the outcome: progress
 * rows and events while it runs, then completed (files published under /output), failed (a message
 * the user can act on), or, when aborted, nothing (a cancelled row is already final) or back to
 * 'queued' (shutdown, keeping the workspace so the next run resumes from its checkpoints).
 */
export class JobWorker {
  constructor(private readonly options: JobWorkerOptions) {}

  workspaceFor(jobId: string): string {
    return this.options.workspaces.pathOf(jobId);
  }

  async run(job: VideoJobRow, queueSignal: AbortSignal): Promise<void> {
    const { db, events, storage } = this.options;
    const log = this.options.log.child({ jobId: job.id });
    const tracker = new JobProgressTracker(job);
    // Aborted by the queue (cancel, shutdown) or by the worker itself when the row stops being ours.
    const controller = new AbortController();
    const signal = controller.signal;
    if (queueSignal.aborted) controller.abort(queueSignal.reason);
    else queueSignal.addEventListener('abort', () => controller.abort(queueSignal.reason), { once: true });
    // Every write of this run is fenced by the claim it was started under.
    const claimToken = job.claim_token;
    // Clients hear a progress step once it is stored, never one the database refused.
    const writer = new ProgressWriter(async (updates) => {
      const { outcome, events: written } = await recordProgress(db, job, updates, claimToken);
      if (!signal.aborted) events.publish(written);
      if (outcome === 'written' || signal.aborted) return;
      controller.abort(outcome === 'claim-lost' ? new JobClaimLostError() : new JobNoLongerActiveError());
    }, log);
    const workspaceDir = this.workspaceFor(job.id);

    if (job.unfinished_runs > MAX_CRASHED_RUNS) {
      // Its last runs ended the process (or their worker) mid-step: a third run would crash it again.
      log.error({ runs: job.unfinished_runs - 1 }, 'job crashed its runs twice; failed instead of resumed');
      await this.options.lifecycle.fail(
        job,
        crashedRunsMessage(job.params),
        tracker.fail((job.current_step as PipelineStep | null) ?? undefined),
        claimToken,
        false,
      );
      return;
    }

    let output: GenerationOutput;
    let renderStats: RenderStats;
    let params = parseParams(job.params);
    try {
      const prepared = await this.options.storyboards?.prepare(job, params);
      if (prepared) params = prepared.params;
      if (params.source?.kind === 'url' && this.options.readLink) params = await this.options.readLink(job, params, signal);
      // Also confirms the row is still ours: a job cancelled just as it was claimed stops here.
      writer.push(tracker.snapshot());
      await mkdir(workspaceDir, { recursive: true });
      log.info('job started');
      output = await this.options.runner({
        jobId: job.id,
        params,
        workspaceDir,
        providers: this.options.providersFor(params),
        signal,
        ...(prepared ? { artefactDir: prepared.artefactDir } : {}),
        ...(prepared?.storyboard ? { storyboard: prepared.storyboard } : {}),
        ...(prepared?.music ? { music: prepared.music } : {}),
        ...(prepared?.brand ? { brand: prepared.brand } : {}),
        onProgress: (update) => {
          writer.push(tracker.apply(update));
        },
      });
      renderStats = output.renderStats;
      await writer.flush();
      if (signal.aborted) throw signal.reason;
    } catch (error) {
      await writer.flush();
      await this.handleFailure(job, error, signal, tracker, log);
      return;
    }

    try {
      // Each version's file is named for it (…-v2.mp4), so downloads of two versions never collide.
      const published = await publishOutput(storage, output, signal, job.version > 1 ? `-v${job.version}` : '');
      const result: VideoResult = {
        videoUrl: published.videoUrl,
        posterUrl: published.posterUrl,
        filename: published.filename,
        title: output.title,
        durationSeconds: output.durationSeconds,
        width: output.width,
        height: output.height,
        sizeBytes: published.videoBytes,
        version: job.version,
        ...(output.credits?.length ? { credits: output.credits } : {}),
        ...videoSource(params, output),
        ...(output.artwork?.length ? { artwork: output.artwork } : {}),
        ...(await postKitOf(db, output, job)),
        // How the video was made where it differs from what was asked (a natural voice spoken by espeak while its model downloads).
        ...(output.notes?.length ? { notes: output.notes } : {}),
        ...(output.attributions?.length ? { attributions: output.attributions } : {}),
        ...(output.researchOutcome ? { research: output.researchOutcome } : {}),
      };
      // Told without Wikipedia: said once per job, with why (off, declined, unreachable, no article).
      if (output.researchOutcome && !output.researchOutcome.used)
        log.info({ research: output.researchOutcome.reason }, `video told from the topic alone: ${output.researchOutcome.reason}`);
      const steps = tracker.complete();
      const storyboards = this.options.storyboards;
      const scenePictures = storyboards ? await storyboards.publishScenePictures(output, published.token) : [];
      // The version and the storyboard are written with the completion, so whoever sees 'completed' can open them.
      const recorded = await this.options.lifecycle.complete(
        job,
        { result, outputToken: published.token, sizeBytes: published.sizeBytes, steps },
        job.claim_token,
        storyboards ? (trx) => storyboards.record(trx, job, params, output, published, result, scenePictures, renderStats) : undefined,
      );
      if (!recorded) {
        await removeOutput(storage, published.token);
        if ((await claimState(db, job.id, job.claim_token)) === 'claim-lost') {
          // Another worker holds the job now: its run, its workspace, its outcome.
          log.warn('job taken over by another worker while this one finished; output discarded');
          return;
        }
        // Cancelled (or deleted) while finishing: the user asked for no video.
        log.info('job finished after it was cancelled; output discarded');
        await this.options.workspaces.remove(job.id, log);
      } else {
        log.info({ videoUrl: result.videoUrl, sizeBytes: result.sizeBytes, version: job.version, renderStats }, 'job completed');
      }
    } catch (error) {
      // A cancel during the upload is a cancel; anything else (the store unreachable) fails the video step.
      await this.handleFailure(job, error, signal.aborted ? signal : new AbortController().signal, tracker, log, 'video');
    }
  }

  private async handleFailure(
    job: VideoJobRow,
    error: unknown,
    signal: AbortSignal,
    tracker: JobProgressTracker,
    log: FastifyBaseLogger,
    failingStep?: PipelineStep,
  ): Promise<void> {
    if (signal.aborted && signal.reason instanceof JobClaimLostError) {
      log.warn('job taken over by another worker after this one stalled past its lock; stopped here');
      return;
    }
    if (signal.aborted && signal.reason instanceof QueueShutdownError) {
      await markRequeued(this.options.db, job.id, job.claim_token);
      log.info('job interrupted by shutdown; it resumes on the next start');
      return;
    }
    if (signal.aborted) {
      // Whoever cancelled wrote the row and announces it; the run only cleans up.
      log.info('job cancelled');
      await this.options.workspaces.remove(job.id, log);
      return;
    }
    const message = userFacingError(error);
    log.error({ err: error }, 'job failed');
    // A failed re-render leaves the video as it was (its previous version), saying what went wrong.
    // The workspace stays: Retry (POST /api/videos/:id/retry) resumes from its checkpoints; deleting the job removes it.
    if (await this.options.lifecycle.fail(job, message, tracker.fail(failingStep), job.claim_token)) return;
    if ((await claimState(this.options.db, job.id, job.claim_token)) === 'claim-lost') {
      log.warn('job taken over by another worker; this stale run records nothing');
      return;
    }
    // No longer active (cancelled or deleted meanwhile): nothing will resume it.
    await this.options.workspaces.remove(job.id, log);
  }
}
