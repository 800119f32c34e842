import { MESSAGES } from '@reelsmith/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { PageHeader } from '../ui/page-header.js';
import { keyboardOnlyTabFocus } from '../ui/tab-focus.js';
import { useProviders, useProvidersHealth, useQueueStatus, useSystemHealth, useWebsocketStats } from './admin-queries.js';
import { EnvironmentTab, ProvidersTab, QueueTab, SystemHealthTab, VoiceProvidersTab } from './admin-tabs.js';
import './admin.css';

type Tone = 'success' | 'warning' | 'error' | 'neutral';

function StatusCard({ label, value, hint, tone = 'neutral' }: { label: string; value: ReactNode; hint?: ReactNode; tone?: Tone }) {
  return (
    <section className={`rs-card rs-admin-card rs-admin-card--${tone}`} aria-label={label}>
      <p className="rs-admin-card__label">{label}</p>
      <p className="rs-admin-card__value">{value}</p>
      {hint ? <p className="rs-admin-card__hint">{hint}</p> : null}
    </section>
  );
}

/**
 * The admin dashboard: four status cards and five tabs, refreshed every 30 s.
 * Provider, health and queue failures show 'Failed to load admin data'; the websocket and voice
 * figures fail silently (they are extras, not the admin's data).
 */
export function AdminDashboard() {
  const providers = useProviders();
  const providersHealth = useProvidersHealth();
  const system = useSystemHealth();
  const queue = useQueueStatus();
  const websocket = useWebsocketStats();

  const loadFailed = providers.isError || providersHealth.isError || system.isError || queue.isError;
  // The card reads GET /health, which also covers the database; the provider checks fill in until it answers.
  const healthy = system.data
    ? system.data.status === 'healthy'
    : providersHealth.data
      ? providersHealth.data.health.every((item) => item.status === 'healthy')
      : undefined;
  const activeJobs = queue.data ? queue.data.processing + queue.data.pending : undefined;

  return (
    <div className="rs-page rs-admin">
      <PageHeader title="Admin Dashboard" subtitle="Providers, queue and system health." />
      {loadFailed ? (
        <p className="rs-alert rs-alert--error" role="alert">
          {MESSAGES.adminLoadFailed}
        </p>
      ) : null}

      <div className="rs-admin-cards">
        <StatusCard
          label="System Health"
          value={healthy === undefined ? '…' : healthy ? 'Healthy' : 'Issues Detected'}
          tone={healthy === undefined ? 'neutral' : healthy ? 'success' : 'error'}
          hint={system.data ? `Up ${formatUptime(system.data.uptimeSeconds)}` : undefined}
        />
        <StatusCard
          label="Active Jobs"
          value={activeJobs ?? '…'}
          hint={queue.data ? `${queue.data.processing} processing · ${queue.data.pending} pending` : undefined}
        />
        <StatusCard
          label="Queue Status"
          value={queue.data ? (queue.data.running ? 'Running' : 'Stopped') : '…'}
          tone={queue.data ? (queue.data.running ? 'success' : 'warning') : 'neutral'}
          hint={queue.data ? `Concurrency ${queue.data.concurrency}` : undefined}
        />
        <StatusCard label="WebSocket" value={websocket.data?.connectedClients ?? '—'} hint="connected clients" />
      </div>

      <Tabs.Root defaultValue="providers" className="rs-admin-tabs">
        <Tabs.List className="rs-admin-tabs__list rs-tab-strip" aria-label="Admin sections" {...keyboardOnlyTabFocus}>
          <Tabs.Trigger value="providers" className="rs-admin-tabs__tab">
            Providers
          </Tabs.Trigger>
          <Tabs.Trigger value="voice" className="rs-admin-tabs__tab">
            Voice Providers
          </Tabs.Trigger>
          <Tabs.Trigger value="queue" className="rs-admin-tabs__tab">
            Queue Management
          </Tabs.Trigger>
          <Tabs.Trigger value="health" className="rs-admin-tabs__tab">
            System Health
          </Tabs.Trigger>
          <Tabs.Trigger value="environment" className="rs-admin-tabs__tab">
            Environment
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="providers" className="rs-admin-tabs__panel">
          <ProvidersTab providers={providers.data?.providers} health={providersHealth.data?.health} />
        </Tabs.Content>
        <Tabs.Content value="voice" className="rs-admin-tabs__panel">
          <VoiceProvidersTab />
        </Tabs.Content>
        <Tabs.Content value="queue" className="rs-admin-tabs__panel">
          <QueueTab queue={queue.data} />
        </Tabs.Content>
        <Tabs.Content value="health" className="rs-admin-tabs__panel">
          <SystemHealthTab health={providersHealth.data?.health} />
        </Tabs.Content>
        <Tabs.Content value="environment" className="rs-admin-tabs__panel">
          <EnvironmentTab providers={providers.data?.providers} queue={queue.data} system={system.data} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

export function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
