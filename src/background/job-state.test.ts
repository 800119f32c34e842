import { EMPTY_EXTENSION_JOB_STATE, generateVideoBodySchema, newJob, type ExtensionJobState, type VideoJob } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import {
  activeJobs,
  cancelled,
  completed,
  failed,
  markNotified,
  mergeServerJob,
  mergeServerJobs,
  newlyFinished,
  progressed,
  putJob,
} from './job-state.js';

const params = generateVideoBodySchema.parse({
  topic: 'Octopus minds',
  style: 'educational',
  language: 'en',
  duration: 30,
  voice: 'en-US-JennyNeural',
});
const at = (iso: string) => new Date(iso);
const result = { videoUrl: '/output/j1/video.mp4', filename: 'video.mp4' };

function stateWith(...jobs: VideoJob[]): ExtensionJobState {
  return jobs.reduce(putJob, { ...EMPTY_EXTENSION_JOB_STATE });
}

describe('job state', () => {
  it('starts a submitted job as pending at 1 %', () => {
    const job = newJob('j1', params, at('2026-01-01T00:00:00Z'));
    expect(job).toMatchObject({ id: 'j1', status: 'pending', progress: 1, result: null, error: null });
    expect(job.steps.story).toEqual({ status: 'pending', progress: 0 });
  });

  it('never lets progress go backwards and ignores progress after the end', () => {
    let state = stateWith(newJob('j1', params, at('2026-01-01T00:00:00Z')));
    state = progressed(state, { jobId: 'j1', progress: 40, step: 'voice', stepProgress: 10, status: 'processing' });
    state = progressed(state, { jobId: 'j1', progress: 30, step: 'images', stepProgress: 5, status: 'processing' });
    expect(state.jobs[0]).toMatchObject({ progress: 40, currentStep: 'images', stepProgress: 5, status: 'processing' });
    state = completed(state, { jobId: 'j1', result });
    expect(state.jobs[0]).toMatchObject({ status: 'completed', progress: 100, result });
    state = progressed(state, { jobId: 'j1', progress: 99, step: 'video', stepProgress: 99, status: 'processing' });
    state = failed(state, { jobId: 'j1', error: 'late' });
    expect(state.jobs[0]).toMatchObject({ status: 'completed', progress: 100, error: null });
  });

  it('records failures and cancellations, and leaves unknown jobs alone', () => {
    let state = stateWith(newJob('a', params, at('2026-01-01T00:00:00Z')), newJob('b', params, at('2026-01-01T00:01:00Z')));
    state = failed(state, { jobId: 'a', error: 'voice failed' });
    state = cancelled(state, 'b');
    expect(state.jobs.map((j) => [j.id, j.status, j.error])).toEqual([
      ['b', 'cancelled', null],
      ['a', 'failed', 'voice failed'],
    ]);
    expect(completed(state, { jobId: 'zzz', result })).toBe(state);
    expect(activeJobs(state)).toEqual([]);
  });

  it('announces only jobs it saw running, once', () => {
    const running = stateWith(newJob('j1', params, at('2026-01-01T00:00:00Z')));
    const done = completed(running, { jobId: 'j1', result });
    expect(newlyFinished(running, done).map((j) => j.id)).toEqual(['j1']);
    const marked = markNotified(done, ['j1']);
    expect(newlyFinished(running, marked)).toEqual([]);
    // An old video seen for the first time (after sign-in) is not announced.
    expect(newlyFinished({ ...EMPTY_EXTENSION_JOB_STATE }, done)).toEqual([]);
  });

  it('takes the server list as the truth after a restart, keeping brand-new jobs', () => {
    const now = at('2026-01-01T00:10:00Z');
    const stale = { ...newJob('old', params, at('2026-01-01T00:00:00Z')), progress: 50 };
    const fresh = newJob('fresh', params, at('2026-01-01T00:09:50Z'));
    const state = stateWith(stale, fresh);
    const serverOld: VideoJob = { ...stale, status: 'processing', progress: 30 };
    const serverDone: VideoJob = { ...newJob('done', params, at('2026-01-01T00:05:00Z')), status: 'completed', progress: 100, result };
    const merged = mergeServerJobs(state, [serverOld, serverDone], now);
    expect(merged.jobs.map((j) => [j.id, j.status, j.progress])).toEqual([
      ['fresh', 'pending', 1],
      ['done', 'completed', 100],
      // The worker's view was further along: it is kept whole (contracts' mergeJob).
      ['old', 'pending', 50],
    ]);
    const later = mergeServerJobs(merged, [serverOld], at('2026-01-01T00:12:00Z'));
    expect(later.jobs.map((j) => j.id)).toEqual(['old']);
  });

  it('merges one job status, adding it when unknown', () => {
    const state = stateWith({ ...newJob('j1', params, at('2026-01-01T00:00:00Z')), progress: 60 });
    const server: VideoJob = { ...state.jobs[0]!, status: 'processing', progress: 55 };
    expect(mergeServerJob(state, server).jobs[0]).toMatchObject({ status: 'pending', progress: 60 });
    expect(mergeServerJob(state, { ...server, progress: 70 }).jobs[0]).toMatchObject({ status: 'processing', progress: 70 });
    const other = newJob('j2', params, at('2026-01-01T00:01:00Z'));
    expect(mergeServerJob(state, other).jobs.map((j) => j.id)).toEqual(['j2', 'j1']);
  });

  it("never reopens a finished job from a stale server copy, but a reopen puts the server's copy in place", () => {
    const done = completed(stateWith(newJob('j1', params, at('2026-01-01T00:00:00Z'))), { jobId: 'j1', result });
    const staleActive: VideoJob = { ...done.jobs[0]!, status: 'processing', progress: 40, result: null };
    expect(mergeServerJob(done, staleActive).jobs[0]).toMatchObject({ status: 'completed', result });
    expect(mergeServerJobs(done, [staleActive], at('2026-01-01T00:01:00Z')).jobs[0]).toMatchObject({ status: 'completed' });
    // A re-render or retry: the worker is told to take the server's copy.
    expect(putJob(done, staleActive).jobs[0]).toMatchObject({ status: 'processing', progress: 40 });
  });

  it('remembers a bounded number of notified jobs', () => {
    let state = { ...EMPTY_EXTENSION_JOB_STATE };
    for (let i = 0; i < 310; i += 1) state = markNotified(state, [`job-${i}`]);
    expect(state.notified).toHaveLength(300);
    expect(state.notified.at(-1)).toBe('job-309');
    expect(markNotified(state, [])).toBe(state);
  });
});
