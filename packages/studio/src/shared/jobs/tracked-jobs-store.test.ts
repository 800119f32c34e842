import type { VideoJob } from '@reelsmith/contracts';
import { describe, expect, it, vi } from 'vitest';
import { testGenerationParams } from '../../testing/generation-params.js';
import { followJobTransitions } from './job-service.js';
import { createJobStore, mergeJob, NEW_JOB_PROGRESS, QUEUED_STEP_TEXT, sortedJobs } from './tracked-jobs-store.js';

const params = testGenerationParams({ topic: 'Deep sea creatures', style: 'mysterious' });
const result = { videoUrl: '/output/j1/deep-sea.mp4', filename: 'deep-sea.mp4' };

function storeWithJob(id = 'j1') {
  const store = createJobStore();
  store.getState().addSubmittedJob(id, params, new Date('2026-11-22T10:00:00.000Z'));
  return store;
}

const serverJob = (id: string, status: VideoJob['status'], progress: number, extra: Partial<VideoJob> = {}): VideoJob => ({
  id,
  status,
  progress,
  currentStep: null,
  stepProgress: 0,
  params: { topic: id, duration: 30, language: 'en' },
  created_at: '2026-11-22T09:00:00.000Z',
  result: null,
  error: null,
  steps: {
    setup: { status: 'pending', progress: 0 },
    story: { status: 'pending', progress: 0 },
    voice: { status: 'pending', progress: 0 },
    images: { status: 'pending', progress: 0 },
    video: { status: 'pending', progress: 0 },
  },
  ...extra,
});

describe('job store', () => {
  it('creates a submitted job as pending, queued for processing, at progress 1', () => {
    const job = storeWithJob().getState().jobs.j1;
    expect(job).toMatchObject({
      id: 'j1',
      status: 'pending',
      progress: NEW_JOB_PROGRESS,
      stepText: QUEUED_STEP_TEXT,
      currentStep: null,
      result: null,
      error: null,
    });
    expect(job?.params.topic).toBe('Deep sea creatures');
    expect(job?.created_at).toBe('2026-11-22T10:00:00.000Z');
  });

  it('moves progress forward only, while step, step progress and status follow each event', () => {
    const store = storeWithJob();
    store.getState().applyProgress({ jobId: 'j1', progress: 40, step: 'voice', stepProgress: 30, status: 'processing' });
    expect(store.getState().jobs.j1).toMatchObject({ progress: 40, currentStep: 'voice', stepProgress: 30, status: 'processing' });
    expect(store.getState().jobs.j1?.stepText).toBeUndefined();

    store.getState().applyProgress({ jobId: 'j1', progress: 25, step: 'images', stepProgress: 5, status: 'in_progress' });
    expect(store.getState().jobs.j1).toMatchObject({ progress: 40, currentStep: 'images', stepProgress: 5, status: 'in_progress' });
    expect(store.getState().jobs.j1?.steps.images).toEqual({ status: 'running', progress: 5 });
  });

  it('completes with the result at 100 and fails with the error', () => {
    const store = storeWithJob();
    store.getState().addSubmittedJob('j2', params);
    store.getState().applyProgress({ jobId: 'j1', progress: 90, step: 'video', stepProgress: 50, status: 'processing' });
    store.getState().applyCompleted({ jobId: 'j1', result });
    expect(store.getState().jobs.j1).toMatchObject({ status: 'completed', result, progress: 100 });

    store.getState().applyFailed({ jobId: 'j2', error: 'Voice synthesis failed' });
    expect(store.getState().jobs.j2).toMatchObject({ status: 'failed', error: 'Voice synthesis failed' });
  });

  it('ignores progress that arrives after a job finished, and events for unknown jobs', () => {
    const store = storeWithJob();
    store.getState().applyCompleted({ jobId: 'j1', result });
    store.getState().applyProgress({ jobId: 'j1', progress: 99, step: 'video', stepProgress: 99, status: 'processing' });
    expect(store.getState().jobs.j1?.status).toBe('completed');
    const before = store.getState().jobs;
    store.getState().applyProgress({ jobId: 'nope', progress: 10, step: 'story', stepProgress: 10, status: 'processing' });
    expect(store.getState().jobs).toBe(before);
  });

  it('cancels, and clearFinished removes completed, failed and cancelled jobs only', () => {
    const store = createJobStore();
    for (const id of ['a', 'b', 'c', 'd']) store.getState().addSubmittedJob(id, params);
    store.getState().applyCompleted({ jobId: 'a', result });
    store.getState().applyFailed({ jobId: 'b', error: 'x' });
    store.getState().markCancelled('c');
    expect(store.getState().jobs.c?.status).toBe('cancelled');
    store.getState().clearFinished();
    expect(Object.keys(store.getState().jobs)).toEqual(['d']);
  });

  it('merges server snapshots without moving a job backwards', () => {
    const store = storeWithJob();
    store.getState().applyProgress({ jobId: 'j1', progress: 60, step: 'images', stepProgress: 20, status: 'processing' });
    // A list fetched before the last live event.
    store.getState().mergeServerJobs([serverJob('j1', 'processing', 45, { currentStep: 'voice' }), serverJob('other', 'queued', 0)]);
    expect(store.getState().jobs.j1).toMatchObject({ progress: 60, currentStep: 'images', status: 'processing' });
    expect(store.getState().jobs.other?.status).toBe('queued');
    // A newer snapshot wins, a finished one always wins.
    store.getState().mergeServerJobs([serverJob('j1', 'processing', 70, { currentStep: 'video' })]);
    expect(store.getState().jobs.j1).toMatchObject({ progress: 70, currentStep: 'video' });
    store.getState().mergeServerJobs([serverJob('j1', 'failed', 70, { error: 'boom' })]);
    expect(store.getState().jobs.j1).toMatchObject({ status: 'failed', error: 'boom' });
    // An active snapshot never reopens a finished job.
    expect(mergeJob(store.getState().jobs.j1, serverJob('j1', 'processing', 80)).status).toBe('failed');
  });

  it('sorts newest first and tracks the connection and generating flags', () => {
    const store = createJobStore();
    store
      .getState()
      .mergeServerJobs([
        serverJob('old', 'completed', 100, { created_at: '2026-01-01T00:00:00.000Z' }),
        serverJob('new', 'completed', 100, { created_at: '2026-02-01T00:00:00.000Z' }),
      ]);
    expect(sortedJobs(store.getState().jobs).map((j) => j.id)).toEqual(['new', 'old']);
    store.getState().setConnected(true);
    store.getState().setGenerating(true);
    expect(store.getState()).toMatchObject({ connected: true, generating: true });
    store.getState().reset();
    expect(store.getState()).toMatchObject({ jobs: {}, connected: false, generating: false });
  });
  it('holds a failed re-render as the server stores it (previous version, with the error), announced once as a failure', () => {
    const store = createJobStore();
    const failed = vi.fn();
    const completed = vi.fn();
    followJobTransitions(store, { failed, completed });
    const v1 = { ...result, version: 1 };
    store.getState().replaceJob(serverJob('j1', 'queued', NEW_JOB_PROGRESS, { result: v1 }));
    store.getState().applyFailed({ jobId: 'j1', error: 'The voice service refused this line', version: 2 });
    const held = store.getState().jobs.j1!;
    expect(held).toMatchObject({ status: 'completed', error: 'The voice service refused this line', result: v1 });
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed.mock.calls[0]![0]).toEqual({ jobId: 'j1', error: 'The voice service refused this line', version: 2 });
    // The server's snapshot of the same outcome changes nothing and announces nothing more.
    store.getState().mergeServerJobs([{ ...held, steps: { ...held.steps } }]);
    expect(store.getState().jobs.j1).toMatchObject({ status: 'completed', error: 'The voice service refused this line', result: v1 });
    expect(failed).toHaveBeenCalledTimes(1);
    expect(completed).not.toHaveBeenCalled();
  });
});
