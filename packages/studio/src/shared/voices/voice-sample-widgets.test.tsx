// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { VoiceProviderConfig, VoiceSampleStats } from '@reelsmith/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaStatusWidget } from './quota-status-widget.js';
import { sampleCountTone, samplePercent, samplePercentTone } from './sample-thresholds.js';
import { VoiceSampleMigrationCard } from './voice-sample-migration-card.js';
import { VoiceSampleStatsPanel } from './voice-sample-stats-panel.js';
import { fakeFetch, renderWithServices } from './voices-test-harness.js';

const stats = (available: number, total = 560): VoiceSampleStats => ({
  total,
  available,
  missing: total - available,
  byLanguage: { en: Math.min(available, 56), hi: 3 },
  currentProvider: 'offline',
});

describe('sample thresholds', () => {
  it('colour counts: 560 or more success, 280 or more warning, else error', () => {
    expect(sampleCountTone(560)).toBe('success');
    expect(sampleCountTone(559)).toBe('warning');
    expect(sampleCountTone(280)).toBe('warning');
    expect(sampleCountTone(279)).toBe('error');
  });
  it('scale the count thresholds to a catalogue of another size', () => {
    expect(sampleCountTone(140, 140)).toBe('success');
    expect(sampleCountTone(70, 140)).toBe('warning');
    expect(sampleCountTone(69, 140)).toBe('error');
  });
  it('colour percentages: 90 and above success, 50 and above warning, else error', () => {
    expect(samplePercentTone(90)).toBe('success');
    expect(samplePercentTone(89.9)).toBe('warning');
    expect(samplePercentTone(50)).toBe('warning');
    expect(samplePercentTone(49.9)).toBe('error');
    expect(samplePercent(70, 140)).toBe(50);
    expect(samplePercent(1, 0)).toBe(0);
  });
});

describe('QuotaStatusWidget', () => {
  afterEach(cleanup);

  it('tells admins the count is being checked until the stats load (never a made-up 560 / 560), then the true counts', async () => {
    let answer: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const api = fakeFetch(async () => {
      await gate;
      return { body: stats(140, 140) };
    });
    renderWithServices(<QuotaStatusWidget />, { fetch: api.fetch, role: 'admin' });
    const widget = screen.getByLabelText('Voice sample quota');
    expect(widget).toHaveTextContent('Checking…');
    expect(widget).not.toHaveTextContent('560');
    expect(widget).not.toHaveTextContent('%');
    answer?.();
    await waitFor(() => expect(screen.getByLabelText('Voice sample quota').textContent).toContain('140 / 140 available'));
    expect(screen.getByLabelText('Voice sample quota').getAttribute('data-tone')).toBe('success');
  });

  it('says the count is unavailable when the stats cannot be read', async () => {
    const api = fakeFetch(() => ({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong' },
    }));
    renderWithServices(<QuotaStatusWidget />, { fetch: api.fetch, role: 'admin' });
    await waitFor(() => expect(screen.getByLabelText('Voice sample quota')).toHaveTextContent('Count unavailable'), { timeout: 5000 });
    expect(screen.getByLabelText('Voice sample quota')).toHaveAttribute('data-tone', 'unknown');
  });

  it('is hidden from other users while every sample is available', async () => {
    const api = fakeFetch(() => ({ body: stats(140, 140) }));
    renderWithServices(<QuotaStatusWidget />, { fetch: api.fetch, role: 'user' });
    await waitFor(() => expect(api.calls.length).toBe(1));
    expect(screen.queryByLabelText('Voice sample quota')).toBeNull();
  });

  it('is shown to other users when samples are missing', async () => {
    renderWithServices(<QuotaStatusWidget />, { fetch: fakeFetch(() => ({ body: stats(100) })).fetch, role: null });
    const widget = await screen.findByLabelText('Voice sample quota');
    expect(widget.textContent).toContain('100 / 560 available');
    expect(widget.getAttribute('data-tone')).toBe('error');
  });
});

describe('VoiceSampleStatsPanel', () => {
  afterEach(cleanup);

  it('expands to show the loaded counts and the language breakdown', async () => {
    const user = userEvent.setup();
    renderWithServices(<VoiceSampleStatsPanel />, { fetch: fakeFetch(() => ({ body: stats(300) })).fetch });
    const toggle = screen.getByRole('button', { name: /Voice samples/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await screen.findByText('Missing');
    expect(screen.getByText('260')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Samples by language' }).textContent).toContain('Hindi');
    await user.click(toggle);
    expect(screen.queryByText('Missing')).toBeNull();
  });

  it('warns when the stats cannot be loaded', async () => {
    renderWithServices(<VoiceSampleStatsPanel defaultExpanded />, {
      fetch: fakeFetch(() => ({ status: 500, body: { statusCode: 500, error: 'x', message: 'x' } })).fetch,
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load voice sample statistics');
  });
});

describe('VoiceSampleMigrationCard', () => {
  afterEach(cleanup);

  it('shows the progress, the note and the breakdown; admins can generate the missing samples and watch progress', async () => {
    const user = userEvent.setup();
    let generating = false;
    const config = (): VoiceProviderConfig => ({
      current: 'offline',
      available: ['offline'],
      samples_status: { total: 560, available: 300, missing: 260, generating, progress: generating ? 42 : 54 },
    });
    const api = fakeFetch((url, init) => {
      if (url.pathname === '/api/voice-samples/stats') return { body: stats(300) };
      if (url.pathname === '/api/voice-providers/config') return { body: config() };
      if (url.pathname === '/api/voice-samples/generate' && init?.method === 'POST') {
        generating = true;
        return { body: { started: true, message: 'Generating 260 missing offline voice samples' } };
      }
      return { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'nope' } };
    });
    renderWithServices(<VoiceSampleMigrationCard />, { fetch: api.fetch, role: 'admin' });
    expect(screen.getByRole('status').textContent).toMatch(/Loading/);
    const bar = await screen.findByRole('progressbar', { name: 'Samples available' });
    expect(bar.getAttribute('aria-valuenow')).toBe('53.6');
    expect(bar.getAttribute('data-tone')).toBe('warning');
    expect(screen.getByText('300 / 560 samples').getAttribute('data-tone')).toBe('warning');
    expect(screen.getByText('Generating samples may take 10-20 minutes.')).toBeInTheDocument();
    expect(screen.getByText(/260 voice samples are missing/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show language breakdown' }));
    expect(screen.getByRole('list', { name: 'Samples by language' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Generate missing samples' }));
    const progress = await screen.findByRole('progressbar', { name: 'Sample generation progress' });
    expect(progress.getAttribute('aria-valuenow')).toBe('42');
    expect((screen.getByRole('button', { name: 'Generating samples…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls.some((call) => call.method === 'POST' && call.url.pathname === '/api/voice-samples/generate')).toBe(true);
  });

  it('offers no generate button to non-admins', async () => {
    renderWithServices(<VoiceSampleMigrationCard />, { fetch: fakeFetch(() => ({ body: stats(560) })).fetch, role: 'user' });
    await screen.findByRole('progressbar', { name: 'Samples available' });
    expect(screen.queryByRole('button', { name: 'Generate missing samples' })).toBeNull();
  });
});
