import {
  JOB_STATUSES,
  PIPELINE_STEPS,
  PLATFORMS,
  PUBLICATION_STATUSES,
  SERVICE_UNAVAILABLE_MESSAGES,
  MESSAGES,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobProgressEvent,
  type PipelineStep,
} from '@reelsmith/contracts';
import {
  KNOWN_PROVIDER_NAMES,
  PROVIDER_CALL_ERROR_CODES,
  PROVIDER_CALL_KINDS,
  type ProviderCall,
  type ProviderCallKind,
} from '@reelsmith/pipeline';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Kysely } from 'kysely';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../db/schema.js';

/** The Prometheus text format's content type (version 0.0.4), what every scraper reads. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Steps and jobs take seconds to minutes. Between 5 s and 2 minutes (a render's range) each bucket is
 * at most 10% wider than the one before, so histogram_quantile's interpolation inside a bucket is off
 * by less than 10% there; below and above, a few coarse buckets.
 */
export const DURATION_BUCKETS: readonly number[] = (() => {
  const buckets = [0.1, 0.25, 0.5, 1, 2, 3, 4];
  for (let bound = 5; bound < 120; bound = Math.round(bound * 1.1 * 100) / 100) buckets.push(bound);
  buckets.push(120, 150, 200, 300, 450, 600, 900);
  return buckets;
})();
const STEP_BUCKETS = DURATION_BUCKETS;
const JOB_BUCKETS = DURATION_BUCKETS;
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RENDER_RATIO_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5];
/**
 * A provider call takes from milliseconds (an offline writer, a cached look-up) to minutes (a model
 * writing a long story, a publication's upload and the platform's processing).
 */
export const PROVIDER_CALL_BUCKETS: readonly number[] = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200];

/** What calls out of the service: the pipeline's providers, and publishing to the platforms. */
export type ServiceProviderKind = ProviderCallKind | 'publishing';
export interface ServiceProviderCall extends Omit<ProviderCall, 'kind'> {
  kind: ServiceProviderKind;
}

/** Every provider of every kind that may be called, for the series created at 0 (the registry's ids and the platforms). */
export const KNOWN_SERVICE_PROVIDERS: Readonly<Record<ServiceProviderKind, readonly string[]>> = {
  ...KNOWN_PROVIDER_NAMES,
  publishing: PLATFORMS,
};
const SERVICE_PROVIDER_KINDS: readonly ServiceProviderKind[] = [...PROVIDER_CALL_KINDS, 'publishing'];

/** What a scale-mode worker's BullMQ worker saw happen to a job's attempt (reelsmith_queue_*_total). */
export type QueueAttemptEvent = 'stalled' | 'retried';

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
  /**
   * The steps of a job already timed by an earlier run (a resumed job's checkpointed steps pass by
   * in moments and must not be counted again); by default read from job_step_timings.
   */
  stepsTimedBefore?: (jobId: string) => Promise<ReadonlySet<string>>;
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
  timedBefore: Promise<ReadonlySet<string>>;
}

/** The database's figures are read at most this often, whatever the number of scrapers. */
export const DATABASE_GAUGES_CACHE_MS = 2_000;
/** A scrape waits this long for the database, then answers without its figures. */
export const DATABASE_GAUGES_TIMEOUT_MS = 1_000;

const JOB_OUTCOMES = ['completed', 'failed', 'cancelled'] as const;
const FAILURE_REASONS: readonly FailureReason[] = ['service_unavailable', 'internal', 'other'];

interface DatabaseFigures {
  jobs: Map<string, number>;
  queueDepth: number;
  oldestQueuedAt: number | null;
  webhooks: { delivered: number; rejected: number; error: number };
  /** Publications by platform and state (`youtube/failed` → 2). */
  publications: Map<string, number>;
}

/** The version and commit this process runs (reelsmith_build_info). */
export function buildInfo(): { version: string; commit: string } {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    // Not beside its repository: left unknown.
  }
  return { version, commit: process.env.REELSMITH_COMMIT ?? gitCommit(join(root, '.git')) ?? 'unknown' };
}

/** HEAD's commit read from the .git folder (no git process), or null. */
function gitCommit(gitDir: string): string | null {
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return /^[0-9a-f]{40}$/.test(head) ? head.slice(0, 12) : null;
    const ref = head.slice(5);
    const loose = join(gitDir, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim().slice(0, 12);
    const packed = readFileSync(join(gitDir, 'packed-refs'), 'utf8')
      .split('\n')
      .find((line) => line.endsWith(` ${ref}`));
    return packed ? packed.slice(0, 12) : null;
  } catch {
    return null;
  }
}

/**
 * Every metric Reelsmith exposes on GET /metrics, in one registry per process. Counters and
 * histograms move with what this process does (HTTP requests it answers, jobs it runs) and exist at
 * 0 from the start for every known label value, so rate() sees the first event. Gauges of job
 * states, the queue and webhooks are read from the database, so every API process and worker
 * reports the same; the read is shared by all scrapes for DATABASE_GAUGES_CACHE_MS, and when the
 * database does not answer those gauges are left out (reelsmith_database_gauges_up 0) while the
 * process's own metrics are still served. Names follow Prometheus conventions: `reelsmith_`
 * prefix, base units (seconds), `_total` for counters.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly jobDuration: Histogram<'outcome'>;
  readonly stepDuration: Histogram<'step'>;
  readonly renderSecondsPerVideoSecond: Histogram;
  readonly jobFailures: Counter<'step' | 'reason'>;
  readonly providerCallDuration: Histogram<'kind' | 'provider'>;
  readonly providerCallErrors: Counter<'kind' | 'provider' | 'code'>;
  readonly queueStalledJobs: Counter;
  readonly queueRetriedAttempts: Counter;
  private readonly jobs = new Map<string, TrackedJob>();
  /** Step observations waiting for their job's earlier timings; a scrape waits for them. */
  private readonly pendingSteps = new Set<Promise<void>>();
  private figures: { at: number; read: Promise<DatabaseFigures | null> } | null = null;

  constructor(
    private readonly sources: MetricsSources,
    private readonly now: () => number = Date.now,
  ) {
    const registers = [this.registry];
    // Node's own process metrics (CPU, memory, event-loop lag, GC), under the service's prefix.
    collectDefaultMetrics({ register: this.registry, prefix: 'reelsmith_' });
    const info = buildInfo();
    new Gauge({
      name: 'reelsmith_build_info',
      help: 'The version and commit this process runs (always 1).',
      labelNames: ['version', 'commit'],
      registers,
    }).set(info, 1);
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
      buckets: [...JOB_BUCKETS],
      registers,
    });
    this.stepDuration = new Histogram({
      name: 'reelsmith_job_step_duration_seconds',
      help: 'Time each pipeline step of a job took in this process (setup, story, voice, images, video); a step resumed from its checkpoint is not counted again.',
      labelNames: ['step'],
      buckets: [...STEP_BUCKETS],
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
    for (const step of PIPELINE_STEPS) {
      this.stepDuration.zero({ step });
      for (const reason of FAILURE_REASONS) this.jobFailures.inc({ step, reason }, 0);
    }
    for (const outcome of JOB_OUTCOMES) this.jobDuration.zero({ outcome });
    this.providerCallDuration = new Histogram({
      name: 'reelsmith_provider_call_duration_seconds',
      help: "Calls this process made to a provider, failed ones included, by kind (story, voice, images, research, publishing) and the provider's configured name (a publishing call is one attempt to publish, upload and processing included).",
      labelNames: ['kind', 'provider'],
      buckets: [...PROVIDER_CALL_BUCKETS],
      registers,
    });
    this.providerCallErrors = new Counter({
      name: 'reelsmith_provider_call_errors_total',
      help: 'Provider calls that failed, by kind, provider and code (auth, rate_limited, unavailable, rejected, aborted: the caller stopped waiting, other).',
      labelNames: ['kind', 'provider', 'code'],
      registers,
    });
    for (const kind of SERVICE_PROVIDER_KINDS)
      for (const provider of KNOWN_SERVICE_PROVIDERS[kind]) {
        this.providerCallDuration.zero({ kind, provider });
        for (const code of PROVIDER_CALL_ERROR_CODES) this.providerCallErrors.inc({ kind, provider, code }, 0);
      }
    this.queueStalledJobs = new Counter({
      name: 'reelsmith_queue_stalled_jobs_total',
      help: "Scale mode: running jobs this worker's stalled-job check found without a live lock (their worker died or blocked) and put back on the queue.",
      registers,
    });
    this.queueRetriedAttempts = new Counter({
      name: 'reelsmith_queue_retried_attempts_total',
      help: 'Scale mode: attempts of a job that ended on this worker without finishing it (it stopped, or lost the job to another) and are retried by BullMQ.',
      registers,
    });

    const figures = () => this.databaseFigures();
    const clock = this.now;
    new Gauge({
      name: 'reelsmith_database_gauges_up',
      help: "1 when this scrape read the database's figures (jobs, queue, webhooks); 0 when the database did not answer and they are left out.",
      registers,
      async collect() {
        this.set((await figures()) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'reelsmith_jobs',
      help: 'Video jobs in the database, by state.',
      labelNames: ['state'],
      registers,
      async collect() {
        const read = await figures();
        this.reset();
        if (!read) return;
        for (const state of JOB_STATUSES) this.set({ state }, read.jobs.get(state) ?? 0);
      },
    });
    new Gauge({
      name: 'reelsmith_queue_depth',
      help: 'Jobs waiting to run (queued).',
      registers,
      async collect() {
        const read = await figures();
        if (read) this.set(read.queueDepth);
        else withoutValue(this);
      },
    });
    new Gauge({
      name: 'reelsmith_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting to run (0 when none waits).',
      registers,
      async collect() {
        const read = await figures();
        if (!read) return withoutValue(this);
        const oldest = read.oldestQueuedAt;
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
        const read = await figures();
        this.reset();
        if (!read) return;
        for (const [outcome, count] of Object.entries(read.webhooks)) this.inc({ outcome }, count);
      },
    });
    new Gauge({
      name: 'reelsmith_publications',
      help: 'Publications to the platforms in the database, by platform and state (failed ones rising is what to alert on).',
      labelNames: ['platform', 'state'],
      registers,
      async collect() {
        const read = await figures();
        this.reset();
        if (!read) return;
        for (const platform of PLATFORMS)
          for (const state of PUBLICATION_STATUSES) this.set({ platform, state }, read.publications.get(`${platform}/${state}`) ?? 0);
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

  /** One finished call to a provider (the registry's observer, the publishing runner). */
  providerCalled(call: ServiceProviderCall): void {
    const labels = { kind: call.kind, provider: call.provider };
    this.providerCallDuration.observe(labels, call.seconds);
    if (call.error) this.providerCallErrors.inc({ ...labels, code: call.error });
  }

  /** A job's attempt stalled or was retried on this worker's BullMQ queue (scale mode). */
  queueAttempt(event: QueueAttemptEvent): void {
    (event === 'stalled' ? this.queueStalledJobs : this.queueRetriedAttempts).inc();
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
      this.jobs.set(event.jobId, {
        startedAt: at,
        step: event.step,
        stepStartedAt: at,
        stepSeconds: {},
        timedBefore: this.stepsTimedBefore(event.jobId),
      });
      return;
    }
    // Steps only move forward here: a resumed run may show a later step for a moment before an
    // earlier one reports again (voice and images run at once), and a step shown twice would be
    // counted twice.
    if (PIPELINE_STEPS.indexOf(event.step) > PIPELINE_STEPS.indexOf(tracked.step)) {
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

  /** The Prometheus text of every metric (the database's figures at most DATABASE_GAUGES_CACHE_MS old). */
  async render(): Promise<string> {
    await Promise.all(this.pendingSteps);
    return this.registry.metrics();
  }

  private stepsTimedBefore(jobId: string): Promise<ReadonlySet<string>> {
    const read =
      this.sources.stepsTimedBefore?.(jobId) ??
      this.sources.db
        .selectFrom('job_step_timings')
        .select('step')
        .where('job_id', '=', jobId)
        .execute()
        .then((rows) => new Set(rows.map((row) => row.step)));
    // Unreadable: count the steps (a double count is better than none).
    return read.catch(() => new Set<string>());
  }

  private databaseFigures(): Promise<DatabaseFigures | null> {
    const at = this.now();
    if (this.figures && at >= this.figures.at && at - this.figures.at < DATABASE_GAUGES_CACHE_MS) return this.figures.read;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), DATABASE_GAUGES_TIMEOUT_MS)));
    const read = Promise.race([readDatabaseFigures(this.sources.db).catch(() => null), timeout]).finally(() => clearTimeout(timer));
    this.figures = { at, read };
    // A failed read is not kept: the next scrape tries again.
    void read.then((figures) => {
      if (!figures && this.figures?.read === read) this.figures = null;
    });
    return read;
  }

  private closeStep(jobId: string, tracked: TrackedJob, at: number): void {
    const step = tracked.step;
    const seconds = (at - tracked.stepStartedAt) / 1000;
    tracked.stepSeconds[step] = (tracked.stepSeconds[step] ?? 0) + seconds;
    const observed = tracked.timedBefore.then((timedBefore) => {
      if (timedBefore.has(step)) return;
      this.stepDuration.observe({ step }, seconds);
      this.sources.onStepTimed?.({ jobId, step, seconds, finishedAt: new Date(at) });
    });
    this.pendingSteps.add(observed);
    void observed.finally(() => this.pendingSteps.delete(observed));
  }

  private finish(jobId: string, outcome: 'completed' | 'failed' | 'cancelled', at: number): TrackedJob | undefined {
    const tracked = this.jobs.get(jobId);
    if (!tracked) return undefined;
    this.jobs.delete(jobId);
    if (outcome === 'completed') this.closeStep(jobId, tracked, at);
    this.jobDuration.observe({ outcome }, (at - tracked.startedAt) / 1000);
    // The job's state changed: the next scrape reads the database again.
    this.figures = null;
    return tracked;
  }
}

/**
 * Leaves an unlabelled gauge out of this scrape (only its HELP and TYPE lines): prom-client prints
 * one at 0 even after reset(), and a queue of 0 while the database is down would be a lie.
 */
function withoutValue(gauge: Gauge): void {
  (gauge as unknown as { hashMap: Record<string, unknown> }).hashMap = {};
}

/** Job states, the queue and webhook outcomes, in three small queries run together. */
async function readDatabaseFigures(db: Kysely<Database>): Promise<DatabaseFigures> {
  const [states, queue, webhookRows, publicationRows] = await Promise.all([
    db
      .selectFrom('video_jobs')
      .select(['status', (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('video_jobs')
      .where('status', '=', 'queued')
      .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('created_at').as('oldest')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('webhook_attempts')
      .select(['status_code', (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy('status_code')
      .execute(),
    db
      .selectFrom('publications')
      .select(['platform', 'status', (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy(['platform', 'status'])
      .execute(),
  ]);
  const webhooks = { delivered: 0, rejected: 0, error: 0 };
  for (const row of webhookRows) {
    const outcome = row.status_code === null ? 'error' : row.status_code >= 200 && row.status_code < 300 ? 'delivered' : 'rejected';
    webhooks[outcome] += Number(row.count);
  }
  return {
    jobs: new Map(states.map((row) => [row.status, Number(row.count)])),
    queueDepth: Number(queue.count),
    oldestQueuedAt: queue.oldest ? Date.parse(String(queue.oldest)) : null,
    webhooks,
    publications: new Map(publicationRows.map((row) => [`${row.platform}/${row.status}`, Number(row.count)])),
  };
}
