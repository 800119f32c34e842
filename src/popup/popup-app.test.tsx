// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import {
  EMPTY_EXTENSION_JOB_STATE,
  generateVideoBodySchema,
  newJob,
  STORAGE_KEYS,
  type ExtensionJobState,
  type VideoJob,
} from '@reelsmith/contracts';
// The popup's own providers and core services, as src/popup/main.tsx renders it: no query cache.
import { CoreProviders, createCoreServices, MemoryStorage, type Platform } from '@reelsmith/studio/popup';
import { act, cleanup, configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExtensionJobSource } from '../extension-host/extension-job-source.js';
import { PopupApp } from './popup-app.js';

// The voice list waits 300 ms (debounce) before it loads.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  toast.remove();
});

const user = { id: 'u1', name: 'Asha Creator', email: 'asha@example.com', role: 'user' as const };
const params = generateVideoBodySchema.parse({ topic: 'Owls at night', style: 'curious', language: 'en', duration: 30, voice: 'v' });
const job = (id: string, status: VideoJob['status'], extra: Partial<VideoJob> = {}): VideoJob => ({
  ...newJob(id, { ...params, topic: `Topic ${id}` }, new Date('2026-01-01T00:00:00Z')),
  status,
  ...extra,
});
const voice = (id: string, name: string, gender: 'male' | 'female') => ({
  id,
  name,
  description: 'Warm narrator',
  gender,
  accent: 'American',
  age: 'Adult',
});

/** The worker's job state as the popup sees it, changed by the test as the worker would. */
function fakeJobSource(initial: VideoJob[]) {
  let state: ExtensionJobState = { ...EMPTY_EXTENSION_JOB_STATE, jobs: initial };
  const listeners = new Set<() => void>();
  const source: ExtensionJobSource = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    submit: vi.fn(async () => ({ jobId: 'new-job', status: 'pending' as const, message: 'Video generation started' })),
    reopen: vi.fn(async () => undefined),
    cancel: vi.fn(async () => undefined),
    refresh: vi.fn(async () => undefined),
    close: () => undefined,
  };
  const workerWrites = (jobs: VideoJob[]) =>
    act(() => {
      state = { ...state, jobs };
      listeners.forEach((listener) => listener());
    });
  return { source, workerWrites };
}

function renderPopup({
  jobs = [],
  canGenerate = { canGenerate: true, isFreeVideo: true, reason: null as string | null },
}: { jobs?: VideoJob[]; canGenerate?: { canGenerate: boolean; isFreeVideo: boolean; reason: string | null } } = {}) {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  const openTab = vi.fn();
  const platform: Platform = {
    kind: 'extension',
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user, token: 't', apiKey: 'k', isAuthenticated: true }, version: 0 })],
    ]),
    navigation: { openTab, reload: () => undefined },
    browser: { isDesktopChrome: () => false },
    apiBaseUrl: 'http://api.test',
    googleSignIn: false,
  };
  const answer = (path: string): unknown => {
    if (path === '/auth/profile') return { user };
    if (path === '/payments/subscription') return { subscription: null, usage: { videosThisMonth: 1 } };
    if (path === '/payments/can-generate') return canGenerate;
    if (path === '/voices')
      return {
        language: 'en',
        provider: 'offline',
        voices: { male: [voice('en-m-1', 'Arthur', 'male')], female: [voice('en-f-1', 'Bella', 'female')] },
      };
    return undefined;
  };
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const body = answer(new URL(String(input)).pathname);
    if (body === undefined)
      return new Response(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Not found' }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  const services = createCoreServices(platform, { fetch: fetchImpl });
  const worker = fakeJobSource(jobs);
  render(
    <MemoryRouter>
      <CoreProviders platform={platform} services={services}>
        <PopupApp jobs={worker.source} />
      </CoreProviders>
    </MemoryRouter>,
  );
  return { ...worker, openTab, user: userEvent.setup() };
}

describe('popup', () => {
  it('says why a running job failed and that a cancelled one was cancelled, instead of dropping them silently', async () => {
    const {
      workerWrites,
      source,
      user: clicker,
    } = renderPopup({ jobs: [job('a', 'processing', { progress: 40 }), job('b', 'processing', { progress: 20 })] });
    const jobs = await screen.findByRole('region', { name: 'Your jobs' });
    expect(within(jobs).getAllByRole('button', { name: 'Cancel' })).toHaveLength(2);

    await clicker.click(within(screen.getByRole('article', { name: 'Job Topic b' })).getByRole('button', { name: 'Cancel' }));
    expect(source.cancel).toHaveBeenCalledWith('b');
    workerWrites([job('a', 'processing', { progress: 40 }), job('b', 'cancelled')]);
    expect(await screen.findByText('Job cancelled')).toBeInTheDocument();

    workerWrites([job('a', 'failed', { error: 'Story writer failed' }), job('b', 'cancelled')]);
    // The toast, and the job's own row, which stays after the toast is gone.
    const failure = await screen.findAllByText('Video generation failed: Story writer failed');
    expect(failure).toHaveLength(2);
    expect(
      within(screen.getByRole('article', { name: 'Job Topic a' })).getByText('Video generation failed: Story writer failed'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Job Topic b' })).not.toBeInTheDocument();

    // The worker rewriting the same state does not repeat the toasts.
    workerWrites([job('a', 'failed', { error: 'Story writer failed' }), job('b', 'cancelled')]);
    expect(screen.getAllByText('Job cancelled')).toHaveLength(1);
    expect(screen.getAllByText('Video generation failed: Story writer failed')).toHaveLength(2);
  });

  it('offers the plans when the server says the user cannot generate', async () => {
    const reason = 'Subscription required to generate videos';
    const { openTab, source, user: clicker } = renderPopup({ canGenerate: { canGenerate: false, isFreeVideo: false, reason } });
    await clicker.type(await screen.findByLabelText('Topic'), 'Why cats purr');
    await clicker.click(await screen.findByRole('radio', { name: 'Bella' }));
    await clicker.click(screen.getByRole('button', { name: 'Generate Video' }));

    const seePlans = await screen.findByRole('button', { name: 'See plans' });
    expect(seePlans.closest('.rs-popup__plans')).toHaveTextContent(reason);
    expect(source.submit).not.toHaveBeenCalled();
    await clicker.click(seePlans);
    expect(openTab).toHaveBeenCalledWith('http://api.test/pricing');
  });

  it('opens the web studio’s Batch page for many videos at once', async () => {
    const { openTab, user: clicker } = renderPopup({});
    await clicker.click(await screen.findByRole('button', { name: 'Open Batch in the web studio' }));
    expect(openTab).toHaveBeenCalledWith('http://api.test/batch');
  });
});
