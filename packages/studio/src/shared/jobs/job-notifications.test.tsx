// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS, type JobProgressEvent } from '@reelsmith/contracts';
import { act, cleanup, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../api/api-client.js';
import { MemoryStorage } from '../../platform.js';
import { fakeFetch, installMatchMedia } from '../../testing/render-studio.js';
import { StudioToaster } from '../../toaster.js';
import { createJobToasts } from './job-notifications.js';
import type { TrackedJob } from './tracked-jobs-store.js';

afterEach(() => {
  cleanup();
  toast.remove();
  vi.restoreAllMocks();
});

const steps = Object.fromEntries(
  ['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'pending', progress: 0 }]),
) as TrackedJob['steps'];
const job = (over: Partial<TrackedJob> = {}): TrackedJob => ({
  id: 'j1',
  status: 'processing',
  progress: 30,
  currentStep: 'voice',
  stepProgress: 10,
  params: { topic: 'Owls', duration: 30, language: 'en' },
  created_at: '2026-11-22T10:00:00.000Z',
  result: null,
  error: null,
  steps,
  ...over,
});
const event = (over: Partial<JobProgressEvent> = {}): JobProgressEvent => ({
  jobId: 'j1',
  progress: 30,
  step: 'voice',
  stepProgress: 10,
  status: 'processing',
  ...over,
});

function setup(defaults?: Record<string, unknown>) {
  installMatchMedia();
  const storage = new MemoryStorage(defaults ? [[STORAGE_KEYS.videoDefaults, JSON.stringify(defaults)]] : []);
  const api = createApiClient({ baseUrl: 'http://api.test', getToken: () => 't', fetch: fakeFetch(() => undefined).fetch });
  render(<StudioToaster />);
  return createJobToasts({ storage, api, platform: { apiBaseUrl: 'http://api.test' } });
}

describe('job toasts', () => {
  it('keeps one progress toast per job, for 2000 ms, replaced on each update', async () => {
    const effects = setup();
    act(() => effects.progress(event(), job()));
    expect(await screen.findByText('Generating audio: 30%')).toBeInTheDocument();
    act(() => effects.progress(event({ progress: 55, step: 'images' }), job({ progress: 55, currentStep: 'images' })));
    expect(await screen.findByText('Creating visuals: 55%')).toBeInTheDocument();
    expect(screen.queryByText('Generating audio: 30%')).not.toBeInTheDocument();
    // A second job has its own toast.
    act(() => effects.progress(event({ jobId: 'j2' }), job({ id: 'j2' })));
    expect(await screen.findByText('Generating audio: 30%')).toBeInTheDocument();
    expect(screen.getByText('Creating visuals: 55%')).toBeInTheDocument();
  });

  it('shows no progress toast at 100 %, for a cancelled job, or when detailed progress is off', () => {
    const effects = setup();
    act(() => effects.progress(event({ progress: 100 }), job({ progress: 100, status: 'completed' })));
    act(() => effects.progress(event({ status: 'cancelled' }), job({ status: 'cancelled' })));
    expect(screen.queryByText(/%$/)).not.toBeInTheDocument();
    cleanup();
    const quiet = setup({ showProgress: false });
    act(() => quiet.progress(event(), job()));
    expect(screen.queryByText('Generating audio: 30%')).not.toBeInTheDocument();
  });

  it('shows no progress toast on a phone, where it covered the page; a failure still toasts (issue 49)', async () => {
    const effects = setup();
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(max-width: 640px)', media: query }) as MediaQueryList,
    );
    act(() => effects.progress(event({ progress: 94, step: 'video' }), job({ progress: 94, currentStep: 'video' })));
    expect(screen.queryByText(/%$/)).not.toBeInTheDocument();
    act(() =>
      effects.failed(
        { jobId: 'j1', error: 'The voice service is unavailable right now' },
        job({ status: 'failed', error: 'The voice service is unavailable right now' }),
      ),
    );
    expect(await screen.findByText(/The voice service is unavailable right now/)).toBeInTheDocument();
  });

  it("takes a job's progress toast away when the job is cancelled", async () => {
    const effects = setup();
    act(() => effects.progress(event({ progress: 53, step: 'images' }), job({ progress: 53, currentStep: 'images' })));
    expect(await screen.findByText('Creating visuals: 53%')).toBeInTheDocument();
    act(() => effects.cancelled?.(job({ progress: 53, status: 'cancelled' })));
    // Gone after the dismiss animation (1 s), well before the 2 s the toast would otherwise stay.
    await vi.waitFor(() => expect(screen.queryByText('Creating visuals: 53%')).not.toBeInTheDocument(), { timeout: 1800 });
  });

  it('announces a failure with its error', async () => {
    const effects = setup();
    act(() => effects.failed({ jobId: 'j1', error: 'Voice synthesis failed' }, job({ status: 'failed', error: 'Voice synthesis failed' })));
    expect(await screen.findByText('Video generation failed: Voice synthesis failed')).toBeInTheDocument();
  });

  it('downloads a finished video by itself only when auto-download is on', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    });
    const finished = job({ status: 'completed', progress: 100, result: { videoUrl: '/output/t/owls.mp4', filename: 'owls.mp4' } });
    setup().completed({ jobId: 'j1', result: finished.result! }, finished);
    cleanup();
    setup({ autoDownload: true }).completed({ jobId: 'j1', result: finished.result! }, finished);
    await vi.waitFor(() => expect(clicked).toEqual(['http://api.test/output/t/owls.mp4?download=1']));
  });
});
