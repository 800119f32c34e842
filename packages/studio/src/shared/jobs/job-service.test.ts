import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../api/api-client.js';
import { testGenerationParams } from '../../testing/generation-params.js';
import { fakeFetch, type FakeHandler } from '../../testing/render-studio.js';
import type { JobRealtimeClient, JobRealtimeHandlers } from './job-realtime.js';
import { createJobService } from './job-service.js';

afterEach(() => {
  vi.useRealTimers();
});

const params = testGenerationParams();

const steps = Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'pending', progress: 0 }]));
const statusBody = (id: string, progress: number, status = 'processing') => ({
  id,
  status,
  progress,
  currentStep: 'images',
  stepProgress: 10,
  params: { topic: 'Comets', duration: 30, language: 'en' },
  created_at: '2026-11-22T10:00:00.000Z',
  result: null,
  error: null,
  steps,
});

/** A stand-in live channel the test drives by hand. */
function fakeRealtime() {
  let handlers: JobRealtimeHandlers | null = null;
  const calls = { connect: [] as string[], disconnect: 0, subscribe: [] as string[] };
  const client: JobRealtimeClient = {
    connect(token, h) {
      calls.connect.push(token);
      handlers = h;
    },
    disconnect() {
      calls.disconnect += 1;
      handlers = null;
    },
    async subscribe(jobId) {
      calls.subscribe.push(jobId);
      return true;
    },
  };
  const live = () => {
    if (!handlers) throw new Error('not connected');
    return handlers;
  };
  return { client, calls, live };
}

function setup(handler: FakeHandler) {
  const { fetch, requests } = fakeFetch(handler);
  const api = createApiClient({ baseUrl: '', getToken: () => 'tok', fetch });
  const realtime = fakeRealtime();
  const effects = { progress: vi.fn(), completed: vi.fn(), failed: vi.fn() };
  const service = createJobService({ api, realtime: realtime.client, effects, log: () => undefined, releaseGraceMs: 50 });
  return { service, realtime, effects, requests };
}

describe('job service', () => {
  it('submits, tracks the new job and subscribes to it', async () => {
    const { service, realtime, requests } = setup(({ path }) =>
      path === '/api/videos/generate' ? { body: { jobId: 'j1', status: 'queued', message: 'Queued' } } : undefined,
    );
    service.retain('tok');
    const pending = service.submit(params);
    expect(service.store.getState().generating).toBe(true);
    await expect(pending).resolves.toMatchObject({ jobId: 'j1' });
    expect(service.store.getState().generating).toBe(false);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/videos/generate', body: params });
    expect(service.store.getState().jobs.j1).toMatchObject({ status: 'pending', progress: 1 });
    expect(realtime.calls.subscribe).toEqual(['j1']);
  });

  it('leaves no job and clears generating when the submit fails', async () => {
    const { service } = setup(() => ({
      status: 402,
      body: { statusCode: 402, error: 'Payment Required', message: 'Subscription required to generate videos' },
    }));
    await expect(service.submit(params)).rejects.toMatchObject({ message: 'Subscription required to generate videos' });
    expect(service.store.getState()).toMatchObject({ jobs: {}, generating: false });
  });

  it('applies live events and reports each change to the effects once', async () => {
    const { service, realtime, effects } = setup(({ path }) =>
      path === '/api/videos/generate' ? { body: { jobId: 'j1', status: 'queued', message: 'Queued' } } : undefined,
    );
    service.retain('tok');
    await service.submit(params);
    const live = realtime.live();
    live.connectionChange(true, { resumed: false });
    expect(service.store.getState().connected).toBe(true);
    live.progress({ jobId: 'j1', progress: 30, step: 'voice', stepProgress: 40, status: 'processing' });
    expect(effects.progress).toHaveBeenCalledWith(
      expect.objectContaining({ progress: 30 }),
      expect.objectContaining({ progress: 30, currentStep: 'voice' }),
    );
    // The server reports 100 % with status completed right before the completion event.
    live.progress({ jobId: 'j1', progress: 100, step: 'video', stepProgress: 100, status: 'completed' });
    live.completed({ jobId: 'j1', result: { videoUrl: '/output/j1/c.mp4', filename: 'c.mp4' } });
    live.completed({ jobId: 'j1', result: { videoUrl: '/output/j1/c.mp4', filename: 'c.mp4' } });
    expect(effects.completed).toHaveBeenCalledTimes(1);
    expect(effects.completed).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ result: { videoUrl: '/output/j1/c.mp4', filename: 'c.mp4' } }),
    );
    expect(service.store.getState().jobs.j1).toMatchObject({ status: 'completed', progress: 100 });
    // A late failure never hides a video that was made (contracts' job-state).
    live.failed({ jobId: 'j1', error: 'late' });
    expect(effects.failed).not.toHaveBeenCalled();
    expect(service.store.getState().jobs.j1).toMatchObject({ status: 'completed' });
    live.connectionChange(false, { resumed: false });
    expect(service.store.getState().connected).toBe(false);
  });

  it('re-reads active jobs over REST after a reconnect', async () => {
    const { service, realtime, requests } = setup(({ path }) => {
      if (path === '/api/videos/generate') return { body: { jobId: 'j1', status: 'queued', message: 'Queued' } };
      if (path === '/api/videos/j1/status') return { body: statusBody('j1', 64) };
      return undefined;
    });
    service.retain('tok');
    await service.submit(params);
    service.store.getState().mergeServerJobs([{ ...statusBody('done', 100, 'completed'), id: 'done' } as never]);
    realtime.live().connectionChange(true, { resumed: true });
    await vi.waitFor(() => expect(service.store.getState().jobs.j1?.progress).toBe(64));
    const statusCalls = requests.filter((r) => r.path.endsWith('/status')).map((r) => r.path);
    expect(statusCalls).toEqual(['/api/videos/j1/status']);
    expect(realtime.calls.subscribe).toEqual(['j1', 'j1']);
  });

  it('fetches a job it hears about but does not know', async () => {
    const { service, realtime } = setup(({ path }) =>
      path === '/api/videos/x9/status'
        ? { body: { ...statusBody('x9', 100, 'completed'), result: { videoUrl: '/output/x9/v.mp4', filename: 'v.mp4' } } }
        : undefined,
    );
    service.retain('tok');
    realtime.live().completed({ jobId: 'x9', result: { videoUrl: '/output/x9/v.mp4', filename: 'v.mp4' } });
    await vi.waitFor(() => expect(service.store.getState().jobs.x9?.status).toBe('completed'));
  });

  it('cancels through DELETE and marks the job cancelled', async () => {
    const { service, requests } = setup(({ method, path }) => {
      if (path === '/api/videos/generate') return { body: { jobId: 'j1', status: 'queued', message: 'Queued' } };
      if (method === 'DELETE') return { body: { success: true, status: 'cancelled', message: 'Job cancelled' } };
      return undefined;
    });
    await service.submit(params);
    await expect(service.cancel('j1')).resolves.toBe('Job cancelled');
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/videos/j1' });
    expect(service.store.getState().jobs.j1?.status).toBe('cancelled');
  });

  it('keeps one connection for many consumers and closes it after the last leaves', async () => {
    vi.useFakeTimers();
    const { service, realtime } = setup(() => undefined);
    const releaseA = service.retain('tok');
    const releaseB = service.retain('tok');
    expect(realtime.calls.connect).toEqual(['tok']);
    releaseA();
    releaseA();
    releaseB();
    // Moving to another page within the grace period keeps the connection.
    vi.advanceTimersByTime(20);
    const releaseC = service.retain('tok');
    vi.advanceTimersByTime(100);
    expect(realtime.calls.disconnect).toBe(0);
    releaseC();
    vi.advanceTimersByTime(60);
    expect(realtime.calls.disconnect).toBe(1);
    // A new token (another user) reconnects; stop forgets everything.
    service.retain('other');
    expect(realtime.calls.connect).toEqual(['tok', 'other']);
    service.store.getState().addSubmittedJob('j', params);
    service.stop();
    expect(realtime.calls.disconnect).toBe(2);
    expect(service.store.getState().jobs).toEqual({});
  });
});
