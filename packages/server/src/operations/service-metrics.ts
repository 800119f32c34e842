import {
  JOB_STATUSES,
  PIPELINE_STEPS,
  SERVICE_UNAVAILABLE_MESSAGES,
  MESSAGES,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type PipelineStep,
} from '@reelsmith/contracts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The Prometheus text format's content type (version 0.0.4), what every scraper reads. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Steps are seconds to a minute or two; a whole job up to several minutes on a loaded machine. */
const STEP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
const JOB_BUCKETS = [1, 2.5, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RENDER_RATIO_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5];

/**
 * Why a job failed, as a label: a fixed set (labels never carry free text or user ids). The job's own
 * error is written for the creator; these are the classes an operator alerts on.
 */
export type FailureReason = 'service_unavailable' | 'internal' | 'other';

export function failureReasonOf(error: string): FailureReason {
  if ((Object.values(SERVICE_UNAVAILABLE_MESSAGES) as string[]).includes(error)) return 'service_unavailable';
  if (error === MESSAGES.generationUnexpectedError) return 'internal';
  return 'other';
}

/** What one scrape reads from the database, the queue and the socket server (absent parts are left out). */
export interface MetricsSources {
  db: Kysely<Database>;
  /** Open socket.io connections (the API only). */
  activeSockets?: () => number;
  /** Each finished step's time, to keep (job_step_timings: the admin's throughput charts). */
  onStepTimed?: (timing: StepTiming) => void;
}

export interface StepTiming {
  jobId: string;
  step: PipelineStep;
  seconds: number;
  finishedAt: Date;
}

interface TrackedJob {
  startedAt: number;
  step: PipelineStep;
  stepStartedAt: number;
  stepSeconds: Partial<Record<PipelineStep, number>>;
}

/**
 * Every metric Reelsmith exposes on GET /metrics, in one registry per process. Counters and
 * histograms move with what this process does (HTTP requests it answers, jobs it runs); gauges are
 * read from the database at scrape time, so every API process and worker reports the same job
 * states and queue depth. Names follow Prometheus conventions: `reelsmith_` prefix, base units
 * (seconds), `_total` for counters.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly jobDuration: Histogram<'outcome'>;
  readonly stepDuration: Histogram<'step'>;
  readonly renderSecondsPerVideoSecond: Histogram;
  readonly jobFailures: Counter<'step' | 'reason'>;
  private readonly jobs = new Map<string, TrackedJob>();

  constructor(
    private readonly sources: MetricsSources,
    private readonly now: () => number = Date.now,
  ) {
    const registers = [this.registry];
    // Node's own process metrics (CPU, memory, event-loop lag, GC), under the service's prefix.
    collectDefaultMetrics({ register: this.registry, prefix: 'reelsmith_' });
    this.httpRequestDuration = new Histogram({
      name: 'reelsmith_http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'reelsmith_job_duration_seconds',
      help: 'Time from a job starting to run in this process to its end, by outcome (completed, failed, cancelled).',
      labelNames: ['outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.stepDuration = new Histogram({
      name: 'reelsmith_job_step_duration_seconds',
      help: 'Time each pipeline step of a job took in this process (setup, story, voice, images, video).',
      labelNames: ['step'],
      buckets: STEP_BUCKETS,
      registers,
    });
    this.renderSecondsPerVideoSecond = new Histogram({
      name: 'reelsmith_render_seconds_per_video_second',
      help: "Seconds of the video step per second of finished video (the render's cost; below 1 is faster than real time).",
      buckets: RENDER_RATIO_BUCKETS,
      registers,
    });
    this.jobFailures = new Counter({
      name: 'reelsmith_job_failures_total',
      help: 'Jobs that failed, by the step that was running and the class of reason.',
      labelNames: ['step', 'reason'],
      registers,
    });
    for (const step of PIPELINE_STEPS) this.stepDuration.zero({ step });

    const db = () => this.sources.db;
    new Gauge({
      name: 'reelsmith_jobs',
      help: 'Video jobs in the database, by state.',
      labelNames: ['state'],
      registers,
      async collect() {
        const rows = await db()
          .selectFrom('video_jobs')
          .select(['status', (eb) => eb.fn.countAll<string | number>().as('count')])
          .groupBy('status')
          .execute();
        this.reset();
        for (const state of JOB_STATUSES) this.set({ state }, 0);
        for (const row of rows) this.set({ state: row.status }, Number(row.count));
      },
    });
    const clock = this.now;
    // The depth and the oldest job's age come from one query, shared by both gauges of a scrape
    // (prom-client collects every metric of a scrape at once).
    let queueRead: { at: number; result: Promise<{ depth: number; oldest: number | null }> } | null = null;
    const readQueue = () => {
      if (!queueRead || clock() - queueRead.at > 500) {
        const result = db()
          .selectFrom('video_jobs')
          .where('status', '=', 'queued')
          .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('created_at').as('oldest')])
          .executeTakeFirstOrThrow()
          .then((row) => ({ depth: Number(row.count), oldest: row.oldest ? Date.parse(String(row.oldest)) : null }));
        queueRead = { at: clock(), result };
        result.catch(() => (queueRead = null));
      }
      return queueRead.result;
    };
    new Gauge({
      name: 'reelsmith_queue_depth',
      help: 'Jobs waiting to run (queued).',
      registers,
      async collect() {
        this.set((await readQueue()).depth);
      },
    });
    new Gauge({
      name: 'reelsmith_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting to run (0 when none waits).',
      registers,
      async collect() {
        const { oldest } = await readQueue();
        this.set(oldest === null || Number.isNaN(oldest) ? 0 : Math.max(0, (clock() - oldest) / 1000));
      },
    });
    new Counter({
      name: 'reelsmith_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome (delivered: a 2xx answer; rejected: another status; error: no answer).',
      labelNames: ['outcome'],
      registers,
      async collect() {
        // Read from the attempts table, which every process (API and workers) writes, so the
        // figure is the service's, not one process's.
        const rows = await db()
          .selectFrom('webhook_attempts')
          .select(['status_code', (eb) => eb.fn.countAll<string | number>().as('count')])
          .groupBy('status_code')
          .execute();
        const counts = { delivered: 0, rejected: 0, error: 0 };
        for (const row of rows) {
          const outcome = row.status_code === null ? 'error' : row.status_code >= 200 && row.status_code < 300 ? 'delivered' : 'rejected';
          counts[outcome] += Number(row.count);
        }
        this.reset();
        for (const [outcome, count] of Object.entries(counts)) this.inc({ outcome }, count);
      },
    });
    const activeSockets = this.sources.activeSockets;
    if (activeSockets) {
      new Gauge({
        name: 'reelsmith_active_sockets',
        help: 'Open socket.io connections (live progress) to this API process.',
        registers,
        collect() {
          this.set(activeSockets());
        },
      });
    }
  }

  /** One answered HTTP request; `route` is the route's template (`/api/videos/:id`), never the raw URL. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpRequestDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  /** A job's progress in this process: a change of step closes the previous step's time. */
  jobProgressed(event: JobProgressEvent): void {
    const at = this.now();
    if (event.status === 'cancelled') {
      this.finish(event.jobId, 'cancelled', at);
      return;
    }
    const tracked = this.jobs.get(event.jobId);
    if (!tracked) {
      this.jobs.set(event.jobId, { startedAt: at, step: event.step, stepStartedAt: at, stepSeconds: {} });
      return;
    }
    if (tracked.step !== event.step) {
      this.closeStep(event.jobId, tracked, at);
      tracked.step = event.step;
      tracked.stepStartedAt = at;
    }
  }

  jobCompleted(event: JobCompletedEvent): void {
    const tracked = this.finish(event.jobId, 'completed', this.now());
    const videoSeconds = event.result.durationSeconds;
    const renderSeconds = tracked?.stepSeconds.video;
    if (renderSeconds !== undefined && videoSeconds && videoSeconds > 0)
      this.renderSecondsPerVideoSecond.observe(renderSeconds / videoSeconds);
  }

  jobFailed(event: JobFailedEvent): void {
    const step = this.jobs.get(event.jobId)?.step ?? 'setup';
    this.jobFailures.inc({ step, reason: failureReasonOf(event.error) });
    this.finish(event.jobId, 'failed', this.now());
  }

  /** The Prometheus text of every metric (gauges read the database now). */
  async render(): Promise<string> {
    return this.registry.metrics();
  }

  private closeStep(jobId: string, tracked: TrackedJob, at: number): void {
    const seconds = (at - tracked.stepStartedAt) / 1000;
    tracked.stepSeconds[tracked.step] = (tracked.stepSeconds[tracked.step] ?? 0) + seconds;
    this.stepDuration.observe({ step: tracked.step }, seconds);
    this.sources.onStepTimed?.({ jobId, step: tracked.step, seconds, finishedAt: new Date(at) });
  }

  private finish(jobId: string, outcome: 'completed' | 'failed' | 'cancelled', at: number): TrackedJob | undefined {
    const tracked = this.jobs.get(jobId);
    if (!tracked) return undefined;
    this.jobs.delete(jobId);
    if (outcome === 'completed') this.closeStep(jobId, tracked, at);
    this.jobDuration.observe({ outcome }, (at - tracked.startedAt) / 1000);
    return tracked;
  }
}
