// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import {
  REFRESH_INTERVALS_MS,
  type HealthResponse,
  type ProviderHealth,
  type ProvidersResponse,
  type QueueStatus,
  type VoiceProviderConfig,
  type VoiceSampleStats,
} from '@reelsmith/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useJobService } from '../shared/jobs/jobs-context.js';
import type { JobService } from '../shared/jobs/job-service.js';
import { POINTER_FOCUS_ATTRIBUTE } from '../ui/tab-focus.js';
import { installMatchMedia } from '../testing/render-studio.js';
import { StudioToaster } from '../toaster.js';
import { fakeFetch, renderWithServices } from '../shared/voices/voices-test-harness.js';
import { adminQueryKeys } from './admin-queries.js';
import { AdminDashboard } from './admin-dashboard.js';
import { successRate } from './admin-tabs.js';

const checkedAt = '2026-01-01T00:00:00.000Z';

interface ServerState {
  providers: ProvidersResponse['providers'];
  health: ProviderHealth[];
  status: HealthResponse['status'];
  queue: QueueStatus;
  connectedClients: number;
  voiceConfig: VoiceProviderConfig;
  /** What POST /providers/switch answers instead of switching. */
  switchFailure?: { status: number; body: unknown };
  /** Health of a switch target by name (GET /providers/health?type=&provider=); healthy when absent. */
  targetHealth?: Record<string, { status: ProviderHealth['status']; details: string }>;
}

function serverState(overrides: Partial<ServerState> = {}): ServerState {
  return {
    providers: {
      story: { current: 'offline', available: ['offline', 'openai'] },
      voice: { current: 'offline', available: ['offline', 'elevenlabs'] },
      images: { current: 'offline', available: ['offline'] },
      research: { current: 'wikipedia', available: ['wikipedia', 'off'] },
    },
    health: [
      { type: 'story', name: 'offline', status: 'healthy', details: 'Template writer ready', checkedAt },
      { type: 'voice', name: 'offline', status: 'healthy', details: 'espeak-ng (WebAssembly) with 40 voices', checkedAt },
      { type: 'images', name: 'offline', status: 'healthy', details: 'Procedural artwork', checkedAt },
      { type: 'research', name: 'wikipedia', status: 'healthy', details: 'Wikipedia search answers', checkedAt },
    ],
    status: 'healthy',
    queue: {
      running: true,
      concurrency: 2,
      pending: 3,
      processing: 1,
      backend: 'embedded',
      jobs: { total: 12, completed: 8, failed: 2, cancelled: 2 },
    },
    connectedClients: 5,
    voiceConfig: {
      current: 'offline',
      available: ['offline', 'elevenlabs'],
      samples_status: { total: 560, available: 500, missing: 60, generating: false, progress: 89 },
      naturalVoices: { state: 'downloading', progress: 43, message: 'Natural voices are downloading (43%)' },
    },
    ...overrides,
  };
}

const voiceStats: VoiceSampleStats = { total: 560, available: 500, missing: 60, byLanguage: { en: 56 }, currentProvider: 'offline' };

/** A fake API server over `state`: a switch changes what the next GET /providers answers. */
function fakeServer(state: ServerState) {
  const posts: Array<{ path: string; body: unknown }> = [];
  const api = fakeFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { type: 'story' | 'voice' | 'images'; provider: string };
      posts.push({ path: url.pathname, body });
      if (url.pathname === '/providers/switch') {
        if (state.switchFailure) return state.switchFailure;
        state.providers[body.type]!.current = body.provider;
        return { body: { message: `Switched to ${body.provider}`, current: body.provider } };
      }
    }
    switch (url.pathname) {
      case '/providers':
        return { body: { providers: state.providers } };
      case '/providers/health': {
        const type = url.searchParams.get('type') as ProviderHealth['type'] | null;
        const provider = url.searchParams.get('provider');
        if (type && provider) {
          const target = state.targetHealth?.[provider] ?? { status: 'healthy' as const, details: `${provider} ready` };
          return { body: { health: [{ type, name: provider, ...target, checkedAt }] } };
        }
        return { body: { health: state.health } };
      }
      case '/health':
        return { body: { status: state.status, uptimeSeconds: 3700, database: 'sqlite', providers: state.health } };
      case '/api/queue/status':
        return { body: state.queue };
      case '/api/websocket/stats':
        return { body: { connectedClients: state.connectedClients, subscriptions: 0 } };
      case '/api/voice-providers/config':
        return { body: state.voiceConfig };
      case '/api/voice-samples/stats':
        return { body: voiceStats };
      default:
        return { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not found' } };
    }
  });
  return { ...api, posts, gets: (path: string) => api.calls.filter((call) => call.method === 'GET' && call.url.pathname === path).length };
}

/** The story provider card and its switch, once the providers have loaded and the switch can be used. */
async function storyProviderSelect() {
  const story = await screen.findByRole('region', { name: 'Story provider' });
  const select = await within(story).findByRole('combobox', { name: 'Switch story provider to' });
  await waitFor(() => expect(select).toBeEnabled());
  return { story, select };
}

/** Picks `provider` in the Voice Providers tab's switch and returns the confirmation dialog it opens. */
async function chooseVoiceProvider(user: ReturnType<typeof userEvent.setup>, provider: string) {
  await user.click(screen.getByRole('tab', { name: 'Voice Providers' }));
  const voice = await screen.findByRole('region', { name: 'Voice provider configuration' });
  const select = within(voice).getByRole('combobox', { name: 'Switch voice provider to' });
  await waitFor(() => expect(select).toBeEnabled());
  await user.selectOptions(select, provider);
  return screen.findByRole('dialog');
}

function renderDashboard(state = serverState()) {
  installMatchMedia();
  const server = fakeServer(state);
  let jobService: JobService | undefined;
  function JobServiceProbe() {
    jobService = useJobService();
    return null;
  }
  const rendered = renderWithServices(
    <>
      <JobServiceProbe />
      <AdminDashboard />
      <StudioToaster />
    </>,
    { fetch: server.fetch, role: 'admin' },
  );
  return { ...rendered, server, state, jobService: () => jobService! };
}

const card = (label: string) => screen.getByRole('region', { name: label });

describe('AdminDashboard', () => {
  afterEach(cleanup);

  it('shows the four status cards from the server data', async () => {
    renderDashboard();
    await waitFor(() => expect(card('System Health').textContent).toContain('Healthy'));
    await waitFor(() => expect(card('Active Jobs').textContent).toContain('4'));
    expect(card('Active Jobs').textContent).toContain('1 processing · 3 pending');
    expect(card('Queue Status').textContent).toContain('Running');
    await waitFor(() => expect(card('WebSocket').textContent).toContain('5'));
    expect(card('WebSocket').textContent).toContain('connected clients');
  });

  it("re-reads the connected clients once the page's own live connection opens", async () => {
    const { server, state, jobService } = renderDashboard();
    await waitFor(() => expect(card('WebSocket').textContent).toContain('5'));
    const reads = server.gets('/api/websocket/stats');
    state.connectedClients = 6;
    act(() => jobService().store.getState().setConnected(true));
    await waitFor(() => expect(card('WebSocket').textContent).toContain('6'));
    expect(server.gets('/api/websocket/stats')).toBe(reads + 1);
    // A drop reads nothing; only the next connect does.
    act(() => jobService().store.getState().setConnected(false));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.gets('/api/websocket/stats')).toBe(reads + 1);
  });

  it('reports issues and a stopped queue', async () => {
    const state = serverState({ status: 'degraded' });
    state.queue = { ...state.queue, running: false };
    renderDashboard(state);
    await waitFor(() => expect(card('System Health').textContent).toContain('Issues Detected'));
    await waitFor(() => expect(card('Queue Status').textContent).toContain('Stopped'));
  });

  it('refreshes its data every 30 seconds', async () => {
    const { services } = renderDashboard();
    await waitFor(() => expect(card('Queue Status').textContent).toContain('Running'));
    for (const key of Object.values(adminQueryKeys)) {
      const observers = services.queryClient.getQueryCache().find({ queryKey: key })?.observers ?? [];
      expect(observers.length, key.join('/')).toBeGreaterThan(0);
      expect(observers[0]!.options.refetchInterval).toBe(REFRESH_INTERVALS_MS.admin);
    }
    expect(REFRESH_INTERVALS_MS.admin).toBe(30_000);
  });

  it("says 'Failed to load admin data' when the admin data cannot be loaded", async () => {
    installMatchMedia();
    const api = fakeFetch(() => ({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong' },
    }));
    renderWithServices(<AdminDashboard />, { fetch: api.fetch, role: 'admin' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load admin data');
    // The websocket figure fails silently.
    expect(card('WebSocket').textContent).toContain('—');
  });

  it('has the five tabs with their content', async () => {
    const user = userEvent.setup();
    renderDashboard();
    const tabs = screen.getByRole('tablist', { name: 'Admin sections' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Providers', 'Voice Providers', 'Queue Management', 'System Health', 'Environment']);

    // Providers: one card per type with the current provider's health.
    const story = await screen.findByRole('region', { name: 'Story provider' });
    await waitFor(() => expect(story.textContent).toContain('Healthy'));
    expect(story.textContent).toContain('Current: Offline');
    expect(screen.getByRole('region', { name: 'Voice provider' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Image provider' })).toBeInTheDocument();
    const imageSwitch = within(screen.getByRole('region', { name: 'Image provider' })).getByRole('combobox');
    expect(imageSwitch).toBeDisabled();
    expect(imageSwitch).toHaveDisplayValue('None configured');

    await user.click(screen.getByRole('tab', { name: 'Voice Providers' }));
    const voice = await screen.findByRole('region', { name: 'Voice provider configuration' });
    await waitFor(() => expect(voice.textContent).toContain('Samples: 500 / 560 available, 60 missing'));
    expect(within(voice).getByLabelText('Natural voices').textContent).toBe(
      'Natural voices (Kokoro-82M): Natural voices are downloading (43%)',
    );
    expect(within(voice).getByRole('combobox', { name: 'Switch voice provider to' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Voice sample statistics' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Voice sample migration' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Queue Management' }));
    const queue = screen.getByRole('region', { name: 'Queue management' });
    const figures = Object.fromEntries(
      within(queue)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(figures).toEqual({
      Running: 'Yes',
      Concurrency: '2',
      Pending: '3',
      Processing: '1',
      'Total jobs': '12',
      Completed: '8',
      Failed: '2',
      'Success rate': '80%',
    });

    await user.click(screen.getByRole('tab', { name: 'System Health' }));
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(
      rows.map((row) =>
        within(row)
          .queryAllByRole('columnheader')
          .map((cell) => cell.textContent),
      )[0],
    ).toEqual(['Provider Type', 'Name', 'Status', 'Details']);
    expect(rows[2]!.textContent).toContain('Voice');
    expect(rows[2]!.textContent).toContain('espeak-ng (WebAssembly) with 40 voices');

    await user.click(screen.getByRole('tab', { name: 'Environment' }));
    expect(screen.getByRole('note')).toHaveTextContent('changing an environment variable needs a server restart');
    const environment = screen.getByRole('region', { name: 'Environment' });
    expect(environment.textContent).toContain('Story provider');
    expect(environment.textContent).toContain('Configured: Offline, OpenAI');
    expect(environment.textContent).toContain('SQLite');
    const queueFigure = within(environment).getByText('Queue').parentElement!;
    expect([...queueFigure.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual(['Embedded', 'Concurrency 2']);
  });

  it('hides the tab focus ring after a pointer press until a key is pressed', async () => {
    const user = userEvent.setup();
    renderDashboard();
    const tabs = screen.getByRole('tablist', { name: 'Admin sections' });
    expect(tabs).not.toHaveAttribute(POINTER_FOCUS_ATTRIBUTE);
    await user.click(screen.getByRole('tab', { name: 'Queue Management' }));
    expect(tabs).toHaveAttribute(POINTER_FOCUS_ATTRIBUTE);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'System Health' })).toHaveFocus();
    expect(tabs).not.toHaveAttribute(POINTER_FOCUS_ATTRIBUTE);
    await user.click(screen.getByRole('tab', { name: 'Providers' }));
    await user.tab();
    expect(tabs).not.toHaveAttribute(POINTER_FOCUS_ATTRIBUTE);
  });

  it('switches a provider only after the confirmation, then reloads the data', async () => {
    const user = userEvent.setup();
    const { server } = renderDashboard();
    const { story, select } = await storyProviderSelect();
    const providersLoads = server.gets('/providers');

    await user.selectOptions(select, 'openai');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Switch the story provider from Offline to OpenAI.');
    expect(dialog).toHaveTextContent('This affects all new jobs immediately.');
    expect(server.posts).toEqual([]);
    expect(await within(dialog).findByText('OpenAI passed its health check: openai ready')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Switch' }));
    await waitFor(() => expect(server.posts).toEqual([{ path: '/providers/switch', body: { type: 'story', provider: 'openai' } }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Switched to openai')).toBeInTheDocument();
    await waitFor(() => expect(story.textContent).toContain('Current: OpenAI'));
    expect(server.gets('/providers')).toBeGreaterThan(providersLoads);
  });

  it('sends nothing when the switch is cancelled', async () => {
    const user = userEvent.setup();
    const { server } = renderDashboard();
    const { story, select } = await storyProviderSelect();
    await user.selectOptions(select, 'openai');
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.posts).toEqual([]);
    expect(story.textContent).toContain('Current: Offline');
  });

  it("shows the server's message when a switch is refused", async () => {
    const user = userEvent.setup();
    const state = serverState({
      switchFailure: {
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: 'The openai story provider is not configured on this server' },
      },
    });
    renderDashboard(state);
    const { story, select } = await storyProviderSelect();
    await user.selectOptions(select, 'openai');
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Switch' }));
    expect(await screen.findByText('The openai story provider is not configured on this server')).toBeInTheDocument();
    expect(story.textContent).toContain('Current: Offline');
  });

  it('switches the voice provider through the voice provider route', async () => {
    const user = userEvent.setup();
    const { server } = renderDashboard();
    const dialog = await chooseVoiceProvider(user, 'elevenlabs');
    await within(dialog).findByText(/ElevenLabs passed its health check/);
    await user.click(within(dialog).getByRole('button', { name: 'Switch' }));
    await waitFor(() => expect(server.posts).toEqual([{ path: '/api/voice-providers/switch', body: { provider: 'elevenlabs' } }]));
  });

  it("runs the target's health check first and switches to a failing one only after a second confirmation", async () => {
    const user = userEvent.setup();
    const { server } = renderDashboard(
      serverState({
        targetHealth: {
          elevenlabs: { status: 'error', details: 'Could not reach the voice service; check the service address and the network' },
        },
      }),
    );
    const dialog = await chooseVoiceProvider(user, 'elevenlabs');
    const warning = await within(dialog).findByRole('alert');
    expect(warning).toHaveTextContent('ElevenLabs failed its health check: Could not reach the voice service');
    expect(within(dialog).queryByRole('button', { name: 'Switch' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Switch anyway' }));
    expect(server.posts).toEqual([]);
    expect(warning).toHaveTextContent('Are you sure?');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, switch to ElevenLabs' }));
    await waitFor(() => expect(server.posts).toEqual([{ path: '/api/voice-providers/switch', body: { provider: 'elevenlabs' } }]));
    expect(server.gets('/providers/health')).toBeGreaterThan(0);
  });
});

describe('successRate', () => {
  it('is the share of finished jobs that completed, or null before any finished', () => {
    expect(successRate({ total: 12, completed: 8, failed: 2, cancelled: 2 })).toBe(80);
    expect(successRate({ total: 3, completed: 2, failed: 1, cancelled: 0 })).toBe(66.7);
    expect(successRate({ total: 2, completed: 0, failed: 0, cancelled: 2 })).toBeNull();
  });
});
