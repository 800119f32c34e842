import {
  MESSAGES,
  PROVIDER_TYPES,
  type HealthResponse,
  type ProviderHealth,
  type ProvidersResponse,
  type ProviderType,
  type QueueStatus,
  type VoiceProviderId,
} from '@reelsmith/contracts';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { VoiceSampleMigrationCard } from '../shared/voices/voice-sample-migration-card.js';
import { VoiceSampleStatsPanel } from '../shared/voices/voice-sample-stats-panel.js';
import { useVoiceProviderConfig } from '../shared/voices/voice-queries.js';
import { useProviderCheck, useSwitchProvider, useSwitchVoiceProvider } from './admin-queries.js';
import { providerName, ProviderSwitch } from './provider-switch.js';

export const PROVIDER_TYPE_LABELS: Record<ProviderType, string> = { story: 'Story', voice: 'Voice', images: 'Image', research: 'Research' };

function HealthChip({ status }: { status: ProviderHealth['status'] | undefined }) {
  if (!status) return <span className="rs-chip">Checking…</span>;
  return (
    <span className={`rs-chip rs-admin-status rs-admin-status--${status}`} data-status={status}>
      {status === 'healthy' ? 'Healthy' : 'Error'}
    </span>
  );
}

function ProviderTypeSwitch({
  type,
  label,
  entry,
  switching,
  onConfirm,
}: {
  type: ProviderType;
  label: string;
  entry: { current: string; available: string[] };
  switching: boolean;
  onConfirm: (provider: string) => Promise<void>;
}) {
  const checkHealth = useProviderCheck(type);
  return (
    <ProviderSwitch
      subject={`${label.toLowerCase()} provider`}
      current={entry.current}
      available={entry.available}
      switching={switching}
      onConfirm={onConfirm}
      checkHealth={checkHealth}
    />
  );
}

/** One card per provider type: the current provider, its health and the switch. */
export function ProvidersTab({
  providers,
  health,
}: {
  providers: ProvidersResponse['providers'] | undefined;
  health: ProviderHealth[] | undefined;
}) {
  const switchProvider = useSwitchProvider();
  const onConfirm = (type: ProviderType) => async (provider: string) => {
    try {
      const result = await switchProvider.mutateAsync({ type, provider });
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.providerSwitchFailed));
    }
  };

  return (
    <div className="rs-admin-grid">
      {PROVIDER_TYPES.map((type) => {
        const entry = providers?.[type];
        const check = health?.find((item) => item.type === type);
        const label = PROVIDER_TYPE_LABELS[type];
        return (
          <section key={type} className="rs-card rs-admin-provider" aria-label={`${label} provider`}>
            <header className="rs-admin-provider__header">
              <h2>{label} Provider</h2>
              <HealthChip status={check?.status} />
            </header>
            <p className="rs-admin-provider__current">
              Current: <strong>{entry ? providerName(entry.current) : '…'}</strong>
            </p>
            {check ? <p className="rs-admin-provider__details">{check.details}</p> : null}
            {entry ? (
              <ProviderTypeSwitch
                type={type}
                label={label}
                entry={entry}
                switching={switchProvider.isPending}
                onConfirm={onConfirm(type)}
              />
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

/** The voice provider config, its switch, and the existing sample statistics and migration widgets. */
export function VoiceProvidersTab() {
  const config = useVoiceProviderConfig(true);
  const switchVoice = useSwitchVoiceProvider();
  const checkVoice = useProviderCheck('voice');
  const onConfirm = async (provider: string) => {
    try {
      const result = await switchVoice.mutateAsync(provider as VoiceProviderId);
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.voiceProviderSwitchFailed));
    }
  };
  const samples = config.data?.samples_status;
  const natural = config.data?.naturalVoices;

  return (
    // rs-admin-voice hides the statistics panel's language list: the migration card below has the
    // same breakdown (expandable, as its spec asks), and the tab should not show it twice.
    <div className="rs-admin-stack rs-admin-voice">
      <section className="rs-card rs-admin-provider" aria-label="Voice provider configuration">
        <header className="rs-admin-provider__header">
          <h2>Voice Provider</h2>
        </header>
        {/* Voice data failures are silent on the dashboard; the widgets below report their own. */}
        <p className="rs-admin-provider__current">
          Current: <strong>{config.data ? providerName(config.data.current) : '…'}</strong>
        </p>
        {samples ? (
          <p className="rs-admin-provider__details" aria-label="Voice sample status">
            Samples: {samples.available} / {samples.total} available, {samples.missing} missing
            {samples.generating ? ` · generating (${samples.progress}%)` : ''}
          </p>
        ) : null}
        {natural ? (
          <p className="rs-admin-provider__details" aria-label="Natural voices">
            Natural voices (Kokoro-82M): {natural.state === 'ready' ? 'ready' : natural.message}
          </p>
        ) : null}
        {config.data ? (
          <ProviderSwitch
            subject="voice provider"
            current={config.data.current}
            available={config.data.available}
            switching={switchVoice.isPending}
            onConfirm={onConfirm}
            checkHealth={checkVoice}
          />
        ) : null}
      </section>
      <VoiceSampleStatsPanel defaultExpanded />
      <VoiceSampleMigrationCard />
    </div>
  );
}

/**
 * Success rate over finished jobs (completed + failed): cancelled and still-running jobs say
 * nothing about whether generation works. Null before any job has finished.
 */
export function successRate(jobs: QueueStatus['jobs']): number | null {
  const finished = jobs.completed + jobs.failed;
  return finished === 0 ? null : Math.round((jobs.completed / finished) * 1000) / 10;
}

export function QueueTab({ queue }: { queue: QueueStatus | undefined }) {
  if (!queue) return <p role="status">Loading queue status…</p>;
  const rate = successRate(queue.jobs);
  const rows: Array<[string, string | number]> = [
    ['Running', queue.running ? 'Yes' : 'No'],
    ['Concurrency', queue.concurrency],
    ['Pending', queue.pending],
    ['Processing', queue.processing],
    ['Total jobs', queue.jobs.total],
    ['Completed', queue.jobs.completed],
    ['Failed', queue.jobs.failed],
    ['Success rate', rate === null ? '—' : `${rate}%`],
  ];
  return (
    <section className="rs-card" aria-label="Queue management">
      <dl className="rs-admin-stats">
        {rows.map(([label, value]) => (
          <div key={label} className="rs-admin-stats__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="rs-admin-note">Success rate counts finished jobs (completed and failed); cancelled jobs are left out.</p>
    </section>
  );
}

export function SystemHealthTab({ health }: { health: ProviderHealth[] | undefined }) {
  return (
    <section className="rs-card rs-admin-table-card" aria-label="Provider health">
      {/* On narrow screens the CSS stacks each row (details on a line of their own), and a table
          whose display is changed loses its table semantics in some browsers: the explicit roles keep them. */}
      <table className="rs-admin-table" role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Provider Type
            </th>
            <th scope="col" role="columnheader">
              Name
            </th>
            <th scope="col" role="columnheader">
              Status
            </th>
            <th scope="col" role="columnheader">
              Details
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {(health ?? []).map((item) => (
            <tr key={item.type} role="row">
              <td role="cell">{PROVIDER_TYPE_LABELS[item.type]}</td>
              <td role="cell">{providerName(item.name)}</td>
              <td role="cell">
                <HealthChip status={item.status} />
              </td>
              <td role="cell" className="rs-admin-table__details">
                {item.details}
              </td>
            </tr>
          ))}
          {health ? null : (
            <tr role="row">
              <td role="cell" colSpan={4}>
                Checking providers…
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

const QUEUE_BACKEND_NAMES: Record<QueueStatus['backend'], string> = { embedded: 'Embedded', bullmq: 'BullMQ' };

export const RESTART_NOTE = 'Environment settings are read-only here: changing an environment variable needs a server restart.';

export function EnvironmentTab({
  providers,
  queue,
  system,
}: {
  providers: ProvidersResponse['providers'] | undefined;
  queue: QueueStatus | undefined;
  system: HealthResponse | undefined;
}) {
  return (
    <section className="rs-card" aria-label="Environment">
      <p className="rs-admin-note rs-admin-note--info" role="note">
        {RESTART_NOTE}
      </p>
      <h2 className="rs-admin-subtitle">Current provider configuration</h2>
      <dl className="rs-admin-stats">
        {PROVIDER_TYPES.map((type) => {
          const entry = providers?.[type];
          return (
            <div key={type} className="rs-admin-stats__item">
              <dt>{PROVIDER_TYPE_LABELS[type]} provider</dt>
              <dd>{entry ? providerName(entry.current) : '…'}</dd>
              {entry ? <dd className="rs-admin-stats__hint">Configured: {entry.available.map(providerName).join(', ')}</dd> : null}
            </div>
          );
        })}
        <div className="rs-admin-stats__item">
          <dt>Database</dt>
          <dd>{system ? (system.database === 'postgres' ? 'PostgreSQL' : 'SQLite') : '…'}</dd>
        </div>
        <div className="rs-admin-stats__item">
          <dt>Queue</dt>
          <dd>{queue ? QUEUE_BACKEND_NAMES[queue.backend] : '…'}</dd>
          {queue ? <dd className="rs-admin-stats__hint">Concurrency {queue.concurrency}</dd> : null}
        </div>
      </dl>
    </section>
  );
}
