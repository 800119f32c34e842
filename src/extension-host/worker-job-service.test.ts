import { EMPTY_EXTENSION_JOB_STATE, generateVideoBodySchema, newJob, type ExtensionJobState, type VideoJob } from '@reelsmith/contracts';
import { createApiClient } from '@reelsmith/studio';
import { describe, expect, it, vi } from 'vitest';
import type { ExtensionJobSource } from './extension-job-source.js';
import { createWorkerJobService } from './worker-job-service.js';

const params = generateVideoBodySchema.parse({ topic: 'Tides', style: 'curious', language: 'en', duration: 30, voice: 'v' });
const job = (id: string, extra: Partial<VideoJob> = {}): VideoJob => ({
  ...newJob(id, params, new Date('2026-01-01T00:00:00Z')),
  ...extra,
});
const result = { videoUrl: '/output/a/video.mp4', filename: 'video.mp4' };

/** The worker's stored state, written by the test as the background would. */
function fakeSource(initial: VideoJob[]) {
  let state: ExtensionJobState = { ...EMPTY_EXTENSION_JOB_STATE, jobs: initial, connected: true };
  const listeners = new Set<() => void>();
  const source: ExtensionJobSource = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    submit: vi.fn(async () => ({ jobId: 'new', status: 'pending' as const, message: 'Video generation started' })),
    cancel: vi.fn(async () => undefined),
    reopen: vi.fn(async () => undefined),
    refresh: vi.fn(async () => undefined),
    close: () => undefined,
  };
  const workerWrites = (jobs: VideoJob[]) => {
    state = { ...state, jobs };
    listeners.forEach((listener) => listener());
  };
  return { source, workerWrites };
}

function effectsSpy() {
  return { progress: vi.fn(), completed: vi.fn(), failed: vi.fn(), cancelled: vi.fn() };
}

describe('worker job service (the side panel’s jobs)', () => {
  it('mirrors the worker’s list and announces what changes after it opened, once', () => {
    const { source, workerWrites } = fakeSource([
      job('a', { status: 'processing', progress: 30 }),
      job('old', { status: 'failed', error: 'boom' }),
    ]);
    const effects = effectsSpy();
    const api = createApiClient({ baseUrl: '', getToken: () => 't', fetch: vi.fn() as unknown as typeof fetch });
    const service = createWorkerJobService({ source, api, effects });

    // What the panel opens with is not news.
    expect(Object.keys(service.store.getState().jobs).sort()).toEqual(['a', 'old']);
    expect(service.store.getState().connected).toBe(true);
    expect(effects.failed).not.toHaveBeenCalled();

    workerWrites([job('a', { status: 'processing', progress: 60, currentStep: 'voice' }), job('old', { status: 'failed', error: 'boom' })]);
    expect(effects.progress).toHaveBeenCalledTimes(1);
    expect(service.store.getState().jobs.a?.progress).toBe(60);

    workerWrites([job('a', { status: 'failed', error: 'Voice provider unavailable' }), job('old', { status: 'failed', error: 'boom' })]);
    workerWrites([job('a', { status: 'failed', error: 'Voice provider unavailable' }), job('old', { status: 'failed', error: 'boom' })]);
    expect(effects.failed).toHaveBeenCalledTimes(1);
    expect(effects.failed.mock.calls[0]![0]).toEqual({ jobId: 'a', error: 'Voice provider unavailable' });
  });

  it('announces a completion once its video is there, and a cancel', () => {
    const { source, workerWrites } = fakeSource([job('a', { status: 'processing' }), job('b', { status: 'queued' })]);
    const effects = effectsSpy();
    const api = createApiClient({ baseUrl: '', getToken: () => 't', fetch: vi.fn() as unknown as typeof fetch });
    createWorkerJobService({ source, api, effects });
    workerWrites([job('a', { status: 'completed', progress: 100, result }), job('b', { status: 'cancelled' })]);
    expect(effects.completed).toHaveBeenCalledWith({ jobId: 'a', result }, expect.objectContaining({ id: 'a' }));
    expect(effects.cancelled).toHaveBeenCalledWith(expect.objectContaining({ id: 'b' }));
  });

  it('submits, cancels and reopens through the worker; a re-render reopens the job after the API queued it', async () => {
    const { source } = fakeSource([]);
    const fetchImpl = vi.fn(
      async (_url: string | URL | Request, _init?: RequestInit) =>
        new Response(JSON.stringify({ jobId: 'a', version: 2 }), { status: 202, headers: { 'Content-Type': 'application/json' } }),
    );
    const api = createApiClient({ baseUrl: 'http://api.test', getToken: () => 't', fetch: fetchImpl as unknown as typeof fetch });
    const service = createWorkerJobService({ source, api });

    const pending = service.submit(params);
    expect(service.store.getState().generating).toBe(true);
    expect(await pending).toEqual({ jobId: 'new', status: 'pending', message: 'Video generation started' });
    expect(service.store.getState().generating).toBe(false);
    expect(source.submit).toHaveBeenCalledWith(params);

    expect(await service.cancel('new')).toBe('Job cancelled');
    expect(source.cancel).toHaveBeenCalledWith('new');

    expect(await service.render('a')).toEqual({ jobId: 'a', version: 2 });
    expect(String(fetchImpl.mock.calls[0]![0])).toBe('http://api.test/api/videos/a/render');
    expect(source.reopen).toHaveBeenCalledWith('a');
  });

  it('clears the busy state when the worker refuses a submit', async () => {
    const { source } = fakeSource([]);
    vi.mocked(source.submit).mockRejectedValueOnce(new Error('Subscription required to generate videos'));
    const api = createApiClient({ baseUrl: '', getToken: () => 't', fetch: vi.fn() as unknown as typeof fetch });
    const service = createWorkerJobService({ source, api });
    await expect(service.submit(params)).rejects.toThrow('Subscription required to generate videos');
    expect(service.store.getState().generating).toBe(false);
  });
});
