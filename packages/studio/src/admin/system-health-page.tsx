import {
  SYSTEM_HEALTH_COMPONENTS,
  type HealthSample,
  type HealthStatus,
  type SystemHealth,
  type SystemHealthComponent,
} from '@reelsmith/contracts';
import { lazy, Suspense, type ReactNode } from 'react';
import { PageHeader } from '../ui/page-header.js';
import { LoadFailure } from './load-failure.js';
import { useSystemHealthDetail } from './admin-users-queries.js';
import { formatDateTime } from '../ui/date-format.js';
import { stepName } from './step-names.js';
import './admin.css';
import './admin-users.css';

// The charts (and uPlot) load with the page's first look at them, not with the admin bundle.
const ThroughputCharts = lazy(() => import('./throughput-charts.js').then((module) => ({ default: module.ThroughputCharts })));

const TITLES: Record<SystemHealthComponent, string> = {
  database: 'Database',
  queue: 'Queue',
  workers: 'Workers',
  ffmpeg: 'ffmpeg',
  disk: 'Disk (DATA_DIR)',
  storage: 'Storage',
  providers: 'Providers',
};

/** What each small chart draws. */
const CHART_LABELS: Record<SystemHealthComponent, string> = {
  database: 'latency, ms',
  queue: 'jobs waiting',
  workers: 'workers alive (jobs running when embedded)',
  ffmpeg: 'runs (1) or not (0)',
  disk: 'free, MB',
  storage: 'latency, ms',
  providers: 'healthy providers',
};

const STATUS_TEXT: Record<HealthStatus, string> = { healthy: 'Healthy', degraded: 'Degraded', down: 'Down' };
const STATUS_TONE: Record<HealthStatus, string> = { healthy: 'success', degraded: 'warning', down: 'error' };

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
const formatAge = (seconds: number | null) =>
  seconds === null
    ? 'none waiting'
    : seconds < 90
      ? `${seconds} s`
      : seconds < 5400
        ? `${Math.round(seconds / 60)} min`
        : `${Math.round(seconds / 3600)} h`;

/** The last hour as a small line, one dot per sample coloured by its status. */
export function HealthSparkline({ samples, label }: { samples: HealthSample[]; label: string }) {
  const width = 240;
  const height = 44;
  if (samples.length === 0) return <p className="rs-health__nochart">No samples yet</p>;
  const values = samples.map((sample) => sample.value);
  const max = Math.max(...values);
  const min = Math.min(...values);
  const span = max - min || 1;
  const hourAgo = Date.parse(samples[samples.length - 1]!.at) - 3600_000;
  const x = (at: string) => Math.max(0, Math.min(width, ((Date.parse(at) - hourAgo) / 3600_000) * width));
  const y = (value: number) => height - 6 - ((value - min) / span) * (height - 12);
  const points = samples.map((sample) => `${x(sample.at).toFixed(1)},${y(sample.value).toFixed(1)}`).join(' ');
  const last = samples[samples.length - 1]!;
  return (
    <figure className="rs-health__chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        role="img"
        aria-label={`Last hour: ${label}, now ${last.value}`}
        preserveAspectRatio="none"
      >
        <line x1="0" x2={width} y1={height - 1} y2={height - 1} className="rs-health__axis" />
        {samples.length > 1 ? <polyline points={points} className="rs-health__line" /> : null}
        {samples.map((sample) => (
          <circle
            key={sample.at}
            cx={x(sample.at)}
            cy={y(sample.value)}
            r="2.5"
            className={`rs-health__dot rs-health__dot--${sample.status}`}
          />
        ))}
      </svg>
      <figcaption>
        Last hour · {label} · {samples.length} sample{samples.length === 1 ? '' : 's'}
      </figcaption>
    </figure>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rs-health__fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function facts(name: SystemHealthComponent, health: SystemHealth): ReactNode {
  switch (name) {
    case 'database': {
      const part = health.database;
      return (
        <>
          <Fact label="Kind">{part.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}</Fact>
          <Fact label="Latency">{part.latencyMs} ms</Fact>
          <Fact label="Migrations">
            {part.migrations.applied} of {part.migrations.known}
          </Fact>
        </>
      );
    }
    case 'queue': {
      const part = health.queue;
      return (
        <>
          <Fact label="Backend">{part.backend === 'bullmq' ? 'BullMQ (Redis)' : 'Embedded'}</Fact>
          <Fact label="Waiting">{part.waiting}</Fact>
          <Fact label="Running">{part.active}</Fact>
          <Fact label="Oldest waiting">{formatAge(part.oldestWaitingSeconds)}</Fact>
          <Fact label="Failed, last hour">{part.failedLastHour}</Fact>
          {/* A job that crashed the server twice is failed instead of resumed: the admin sees which,
              whose and in which step, since its source may crash the server again. */}
          {part.crashedJobs.map((job) => (
            <Fact key={job.id} label="Stopped after crashing twice">
              <code>{job.id}</code> · {job.userEmail} · {job.step ? `in its ${stepName(job.step)} step` : 'before its first step'} ·{' '}
              {formatDateTime(job.failedAt)}
            </Fact>
          ))}
        </>
      );
    }
    case 'workers':
      return health.workers.workers.length === 0 ? (
        <Fact label="Workers">none</Fact>
      ) : (
        health.workers.workers.map((worker) => (
          <Fact key={worker.id} label={worker.id}>
            {worker.host} · {worker.jobsRunning} running · beat {formatDateTime(worker.lastHeartbeatAt)}
          </Fact>
        ))
      );
    case 'ffmpeg': {
      const part = health.ffmpeg;
      return (
        <>
          <Fact label="Version">{part.version ?? 'not found'}</Fact>
          <Fact label="Source">{part.source ?? '—'}</Fact>
          <Fact label="Path">
            <code>{part.path ?? '—'}</code>
          </Fact>
        </>
      );
    }
    case 'disk': {
      const part = health.disk;
      return (
        <>
          <Fact label="Free">{formatBytes(part.freeBytes)}</Fact>
          <Fact label="Size">{formatBytes(part.totalBytes)}</Fact>
          <Fact label="Path">
            <code>{part.path}</code>
          </Fact>
        </>
      );
    }
    case 'storage': {
      const part = health.storage;
      return (
        <>
          <Fact label="Kind">{part.kind === 's3' ? 'S3-compatible' : 'Local files'}</Fact>
          <Fact label="Reachable">{part.reachable ? 'Yes' : 'No'}</Fact>
          <Fact label="Bucket">{part.bucket ?? '—'}</Fact>
          <Fact label="Latency">{part.latencyMs} ms</Fact>
        </>
      );
    }
    case 'providers':
      return health.providers.providers.length === 0 ? (
        <Fact label="Providers">none report health</Fact>
      ) : (
        health.providers.providers.map((provider) => (
          <Fact key={provider.type} label={provider.type}>
            {provider.name} · {provider.status === 'healthy' ? 'healthy' : 'error'}
          </Fact>
        ))
      );
  }
}

/** /admin/health: each part Reelsmith depends on, with its status and last hour; refreshed every 30 s. */
export function SystemHealthPage() {
  const health = useSystemHealthDetail();
  const data = health.data;
  return (
    <div className="rs-page rs-admin rs-health">
      <PageHeader
        title="System Health"
        subtitle={data ? `Checked ${formatDateTime(data.checkedAt)} · refreshed every 30 s` : 'Checking every part of the service…'}
        actions={
          data ? (
            <span className={`rs-chip rs-health__overall rs-health__overall--${data.status}`}>Overall: {STATUS_TEXT[data.status]}</span>
          ) : undefined
        }
      />
      <LoadFailure query={health} fallback="Failed to load admin data" />
      <div className="rs-health__grid">
        {data
          ? SYSTEM_HEALTH_COMPONENTS.map((name) => {
              const part = data[name];
              return (
                <section
                  key={name}
                  className={`rs-card rs-admin-card rs-admin-card--${STATUS_TONE[part.status]} rs-health__card`}
                  aria-label={TITLES[name]}
                >
                  <header className="rs-health__header">
                    <h2>{TITLES[name]}</h2>
                    <span className={`rs-chip rs-health__status rs-health__status--${part.status}`} data-status={part.status}>
                      {STATUS_TEXT[part.status]}
                    </span>
                  </header>
                  <p className="rs-health__summary">{part.summary}</p>
                  <dl className="rs-health__facts">{facts(name, data)}</dl>
                  <HealthSparkline samples={part.history} label={CHART_LABELS[name]} />
                </section>
              );
            })
          : null}
      </div>
      <Suspense fallback={<p className="rs-health__nochart">Loading the last 24 hours…</p>}>
        <ThroughputCharts />
      </Suspense>
    </div>
  );
}
