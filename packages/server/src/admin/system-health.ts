import {
  CRASHED_JOBS_SHOWN,
  type HealthSample,
  type HealthStatus,
  type SystemHealth,
  type SystemHealthComponent,
  type WorkerHeartbeat,
} from '@reelsmith/contracts';
import { resolveFfmpegBinaries } from '@reelsmith/pipeline';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { MIGRATIONS } from '../db/migrations/index.js';
import { MAX_CRASHED_RUNS } from '../jobs/job-worker.js';
import { HEARTBEAT_STALE_MS } from '../jobs/worker-heartbeat.js';

const run = promisify(execFile);
const HOUR_MS = 60 * 60_000;
/** Below this much free space on DATA_DIR a render may fail: degraded; below a tenth of it: down. */
export const DISK_LOW_BYTES = 2 * 1024 ** 3;
/** A job waiting longer than this means the workers cannot keep up. */
const QUEUE_SLOW_SECONDS = 10 * 60;

/** The last hour of each component's checks, in this process (sampled at each check, at most one per 20 s). */
export class HealthHistory {
  private readonly samples = new Map<SystemHealthComponent, HealthSample[]>();
  private lastRecordedAt = 0;

  constructor(private readonly minIntervalMs = 20_000) {}

  record(values: Record<SystemHealthComponent, { status: HealthStatus; value: number }>, now = Date.now()): void {
    if (now - this.lastRecordedAt < this.minIntervalMs) return;
    this.lastRecordedAt = now;
    const at = new Date(now).toISOString();
    for (const [name, { status, value }] of Object.entries(values) as Array<
      [SystemHealthComponent, { status: HealthStatus; value: number }]
    >) {
      const list = this.samples.get(name) ?? [];
      list.push({ at, status, value });
      while (list.length > 0 && now - Date.parse(list[0]!.at) > HOUR_MS) list.shift();
      this.samples.set(name, list);
    }
  }

  of(name: SystemHealthComponent): HealthSample[] {
    return [...(this.samples.get(name) ?? [])];
  }
}

let ffmpegVersion: Promise<string | null> | null = null;

/** `ffmpeg -version`'s first line, read once per process (the binary does not change while it runs). */
function readFfmpegVersion(path: string): Promise<string | null> {
  ffmpegVersion ??= run(path, ['-version'], { timeout: 5000 })
    .then(({ stdout }) => /ffmpeg version (\S+)/.exec(stdout)?.[1] ?? stdout.split('\n')[0] ?? null)
    .catch(() => null);
  return ffmpegVersion;
}

const worst = (statuses: HealthStatus[]): HealthStatus =>
  statuses.includes('down') ? 'down' : statuses.includes('degraded') ? 'degraded' : 'healthy';
const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;

/**
 * GET /api/admin/system-health: every part the service depends on, checked now, with a status, a
 * one-line summary and the last hour's samples for the small charts.
 */
export async function checkSystemHealth(app: FastifyInstance, history: HealthHistory): Promise<SystemHealth> {
  const now = Date.now();

  const database = await (async () => {
    const started = performance.now();
    try {
      await sql`select 1`.execute(app.db);
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      const applied = await app.db
        .selectFrom('kysely_migration' as never)
        .select(sql<string>`name`.as('name'))
        .orderBy(sql`name`, 'desc')
        .execute()
        .then((rows) => (rows as Array<{ name: string }>).map((row) => row.name))
        .catch(() => [] as string[]);
      const known = Object.keys(MIGRATIONS).length;
      const status: HealthStatus = applied.length < known ? 'degraded' : latencyMs > 250 ? 'degraded' : 'healthy';
      return {
        status,
        summary: `${app.dbDialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} · ${latencyMs} ms · ${applied.length}/${known} migrations`,
        kind: app.dbDialect,
        latencyMs,
        migrations: { applied: applied.length, known, latest: applied[0] ?? null },
        value: latencyMs,
      };
    } catch (error) {
      app.log.error({ err: error }, 'system health: database check failed');
      return {
        status: 'down' as const,
        summary: 'The database does not answer',
        kind: app.dbDialect,
        latencyMs: performance.now() - started,
        migrations: { applied: 0, known: Object.keys(MIGRATIONS).length, latest: null },
        value: 0,
      };
    }
  })();

  const queue = await (async () => {
    const backend = app.jobQueue.backend;
    try {
      const hourAgo = new Date(now - HOUR_MS).toISOString();
      const [waiting, active, oldest, failed, crashed] = await Promise.all([
        app.db
          .selectFrom('video_jobs')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('c'))
          .where('status', 'in', ['pending', 'queued'])
          .executeTakeFirstOrThrow(),
        app.db
          .selectFrom('video_jobs')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('c'))
          .where('status', '=', 'processing')
          .executeTakeFirstOrThrow(),
        app.db
          .selectFrom('video_jobs')
          .select((eb) => eb.fn.min('created_at').as('oldest'))
          .where('status', 'in', ['pending', 'queued'])
          .executeTakeFirst(),
        app.db
          .selectFrom('video_jobs')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('c'))
          .where('status', '=', 'failed')
          .where('updated_at', '>=', hourAgo)
          .executeTakeFirstOrThrow(),
        // Failed (or, for a re-render, put back at its previous version) after crashing its runs:
        // only that path leaves a finished job with its runs still counted past the bound.
        app.db
          .selectFrom('video_jobs')
          .innerJoin('users', 'users.id', 'video_jobs.user_id')
          .select(['video_jobs.id', 'users.email', 'video_jobs.current_step', 'video_jobs.updated_at'])
          .where('video_jobs.unfinished_runs', '>', MAX_CRASHED_RUNS)
          .where('video_jobs.status', 'in', ['failed', 'completed'])
          .where('video_jobs.updated_at', '>=', new Date(now - 24 * HOUR_MS).toISOString())
          .orderBy('video_jobs.updated_at', 'desc')
          .limit(CRASHED_JOBS_SHOWN)
          .execute(),
      ]);
      const oldestWaitingSeconds = oldest?.oldest ? Math.max(0, Math.round((now - Date.parse(String(oldest.oldest))) / 1000)) : null;
      const failedLastHour = Number(failed.c);
      const waitingCount = Number(waiting.c);
      const status: HealthStatus = (oldestWaitingSeconds ?? 0) > QUEUE_SLOW_SECONDS || failedLastHour >= 5 ? 'degraded' : 'healthy';
      return {
        status,
        summary:
          `${waitingCount} waiting · ${Number(active.c)} running · ${failedLastHour} failed in the last hour` +
          (crashed.length > 0 ? ` · ${crashed.length} stopped after crashing twice (24 h)` : ''),
        backend,
        waiting: waitingCount,
        active: Number(active.c),
        oldestWaitingSeconds,
        failedLastHour,
        crashedJobs: crashed.map((job) => ({
          id: job.id,
          userEmail: job.email,
          step: job.current_step,
          failedAt: job.updated_at,
        })),
        value: waitingCount,
      };
    } catch (error) {
      app.log.error({ err: error }, 'system health: queue check failed');
      return {
        status: 'down' as const,
        summary: 'The queue could not be read',
        backend,
        waiting: 0,
        active: 0,
        oldestWaitingSeconds: null,
        failedLastHour: 0,
        crashedJobs: [],
        value: 0,
      };
    }
  })();

  const workers = await (async () => {
    const mode = app.jobQueue.backend;
    if (mode === 'embedded') {
      const status = await app.jobQueue.status();
      const list: WorkerHeartbeat[] = [
        { id: 'embedded', host: hostname(), jobsRunning: status.processing, lastHeartbeatAt: new Date(now).toISOString() },
      ];
      return {
        status: status.running ? ('healthy' as const) : ('down' as const),
        summary: `Jobs run inside the API server (${status.concurrency} at a time)`,
        mode,
        workers: list,
        value: status.processing,
      };
    }
    const source = app.jobQueue as unknown as { workerHeartbeats?: () => Promise<WorkerHeartbeat[]> };
    try {
      // Only the workers alive: one killed without a clean stop leaves the card once its heartbeat lapses.
      const list = (await source.workerHeartbeats?.()) ?? [];
      const alive = list.filter((worker) => now - Date.parse(worker.lastHeartbeatAt) <= HEARTBEAT_STALE_MS);
      const status: HealthStatus = alive.length === 0 ? 'down' : 'healthy';
      return {
        status,
        summary:
          alive.length === 0
            ? 'No worker process is running: start one with npm run worker'
            : `${alive.length} worker${alive.length === 1 ? '' : 's'} alive`,
        mode,
        workers: alive,
        value: alive.length,
      };
    } catch (error) {
      app.log.error({ err: error }, 'system health: worker heartbeats could not be read');
      return { status: 'down' as const, summary: 'Worker heartbeats could not be read from Redis', mode, workers: [], value: 0 };
    }
  })();

  const ffmpeg = await (async () => {
    try {
      const binaries = resolveFfmpegBinaries();
      const version = await readFfmpegVersion(binaries.ffmpegPath);
      return {
        status: version ? ('healthy' as const) : ('down' as const),
        summary: version ? `ffmpeg ${version} (${binaries.ffmpegSource})` : `ffmpeg at ${binaries.ffmpegPath} does not run`,
        path: binaries.ffmpegPath,
        version,
        source: binaries.ffmpegSource,
        value: version ? 1 : 0,
      };
    } catch (error) {
      return { status: 'down' as const, summary: (error as Error).message, path: null, version: null, source: null, value: 0 };
    }
  })();

  const disk = await (async () => {
    const path = app.config.paths.dataDir;
    try {
      const fs = await statfs(path);
      const freeBytes = fs.bavail * fs.bsize;
      const totalBytes = fs.blocks * fs.bsize;
      const status: HealthStatus = freeBytes < DISK_LOW_BYTES / 10 ? 'down' : freeBytes < DISK_LOW_BYTES ? 'degraded' : 'healthy';
      return {
        status,
        summary: `${formatBytes(freeBytes)} free of ${formatBytes(totalBytes)}`,
        path,
        freeBytes,
        totalBytes,
        value: Math.round(freeBytes / 1024 ** 2),
      };
    } catch (error) {
      return {
        status: 'down' as const,
        summary: `DATA_DIR cannot be read: ${(error as Error).message}`,
        path,
        freeBytes: 0,
        totalBytes: 0,
        value: 0,
      };
    }
  })();

  const storage = await (async () => {
    const check = await app.storage.check();
    const latencyMs = Math.round(check.latencyMs * 10) / 10;
    return {
      status: check.reachable ? ('healthy' as const) : ('down' as const),
      summary: check.kind === 's3' ? check.details : `Local files under DATA_DIR${check.reachable ? '' : ` (${check.details})`}`,
      kind: check.kind,
      reachable: check.reachable,
      bucket: check.bucket,
      latencyMs,
      value: latencyMs,
    };
  })();

  const providers = await (async () => {
    const list = await app.checkProviderHealth().catch(() => []);
    const failing = list.filter((provider) => provider.status !== 'healthy').length;
    const status: HealthStatus = list.length === 0 ? 'healthy' : failing === 0 ? 'healthy' : failing === list.length ? 'down' : 'degraded';
    return {
      status,
      summary:
        list.length === 0
          ? 'No provider reports health on this server'
          : list.map((provider) => `${provider.type}: ${provider.name}`).join(' · '),
      providers: list,
      value: list.length - failing,
    };
  })();

  const parts = { database, queue, workers, ffmpeg, disk, storage, providers };
  history.record(
    Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, { status: part.status, value: part.value }])) as Record<
      SystemHealthComponent,
      { status: HealthStatus; value: number }
    >,
    now,
  );
  const withHistory = <K extends SystemHealthComponent>(name: K) => {
    const { value: _value, ...rest } = parts[name];
    return { ...rest, history: history.of(name) };
  };
  return {
    status: worst(Object.values(parts).map((part) => part.status)),
    checkedAt: new Date(now).toISOString(),
    database: withHistory('database'),
    queue: withHistory('queue'),
    workers: withHistory('workers'),
    ffmpeg: withHistory('ffmpeg'),
    disk: withHistory('disk'),
    storage: withHistory('storage'),
    providers: withHistory('providers'),
  } as SystemHealth;
}
