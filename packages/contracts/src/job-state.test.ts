import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, PIPELINE_STEPS, type JobStatus } from './enums.js';
import {
  advanceSteps,
  applyCancelled,
  applyCompleted,
  applyFailed,
  applyProgress,
  initialSteps,
  isFinishedJobStatus,
  mergeJob,
  newJob,
} from './job-state.js';
import { jobFailureText, jobTransition, jobTransitions, rerenderOutcome } from './job-transitions.js';
import type { JobProgressEvent } from './socket.js';
import type { VideoJob, VideoResult } from './videos.js';

const PARAMS = { topic: 'Octopus hearts', style: 'educational', language: 'en', duration: 30, voice: 'en-male-1' } as never;
const RESULT: VideoResult = { videoUrl: '/output/abc/video.mp4', title: 'Octopus hearts', durationSeconds: 30 } as VideoResult;
const start = () => newJob('job-1', PARAMS, new Date('2026-11-24T00:00:00Z'));
const progress = (
  value: number,
  step: JobProgressEvent['step'] = 'story',
  stepProgress = 50,
  status: JobStatus = 'processing',
): JobProgressEvent => ({ jobId: 'job-1', progress: value, step, stepProgress, status });

// Arbitrary events and jobs for the properties.
const stepArb = fc.constantFrom(...PIPELINE_STEPS);
const percentArb = fc.integer({ min: 0, max: 100 });
const eventArb = fc.oneof(
  fc.record({
    kind: fc.constant('progress' as const),
    progress: percentArb,
    step: stepArb,
    stepProgress: percentArb,
    status: fc.constantFrom<JobStatus>('queued', 'processing'),
  }),
  fc.record({ kind: fc.constant('completed' as const) }),
  fc.record({ kind: fc.constant('failed' as const), error: fc.string({ minLength: 1, maxLength: 20 }) }),
  fc.record({ kind: fc.constant('cancelled' as const) }),
);
type Event = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;
function apply(job: VideoJob, event: Event): VideoJob {
  switch (event.kind) {
    case 'progress':
      return applyProgress(job, {
        jobId: job.id,
        progress: event.progress,
        step: event.step,
        stepProgress: event.stepProgress,
        status: event.status,
      });
    case 'completed':
      return applyCompleted(job, { jobId: job.id, result: RESULT });
    case 'failed':
      return applyFailed(job, { jobId: job.id, error: event.error });
    case 'cancelled':
      return applyCancelled(job);
  }
}
const jobArb = fc.array(eventArb, { maxLength: 12 }).map((events) => events.reduce(apply, start()));

describe('job state', () => {
  it('starts a submitted job pending at 1 % with every step pending', () => {
    expect(start()).toMatchObject({
      status: 'pending',
      progress: 1,
      currentStep: null,
      stepProgress: 0,
      result: null,
      error: null,
      steps: initialSteps(),
    });
  });

  it('moves steps in bands: earlier steps done, the reported one running, completed at 100', () => {
    const steps = advanceSteps(initialSteps(), 'voice', 40);
    expect(steps).toEqual({
      setup: { status: 'completed', progress: 100 },
      story: { status: 'completed', progress: 100 },
      voice: { status: 'running', progress: 40 },
      images: { status: 'pending', progress: 0 },
      video: { status: 'pending', progress: 0 },
    });
    expect(advanceSteps(steps, 'voice', 100).voice).toEqual({ status: 'completed', progress: 100 });
    // A lower report for the same step does not move it back.
    expect(advanceSteps(steps, 'voice', 10).voice).toEqual({ status: 'running', progress: 40 });
  });

  it('keeps progress from going backwards and a finished job from reopening', () => {
    let job = applyProgress(start(), progress(40));
    job = applyProgress(job, progress(20, 'setup', 10));
    expect(job.progress).toBe(40);
    job = applyCompleted(job, { jobId: 'job-1', result: RESULT });
    expect(job).toMatchObject({ status: 'completed', progress: 100, result: RESULT });
    expect(applyProgress(job, progress(60))).toBe(job);
    // The background used to keep a completed job on a late failure while the studio overwrote it: it is kept.
    expect(applyFailed(job, { jobId: 'job-1', error: 'late' })).toBe(job);
    expect(applyCancelled(job)).toBe(job);
  });

  it("records a failure with its step and the server's reason", () => {
    const failed = applyFailed(applyProgress(start(), progress(30, 'voice', 20)), { jobId: 'job-1', error: 'The voice service is down' });
    expect(failed).toMatchObject({ status: 'failed', error: 'The voice service is down' });
    expect(failed.steps.voice.status).toBe('failed');
    expect(jobFailureText(failed)).toBe('Video generation failed: The voice service is down');
    expect(jobFailureText({ error: null })).toBe('Video generation failed');
  });

  it('merges a stale active snapshot under a finished local job, and a finished snapshot over an active one', () => {
    const running = applyProgress(start(), progress(70, 'images', 30));
    const done = applyCompleted(running, { jobId: 'job-1', result: RESULT });
    const staleSnapshot = applyProgress(start(), progress(40));
    expect(mergeJob(done, staleSnapshot)).toBe(done);
    expect(mergeJob(staleSnapshot, done)).toBe(done);
    expect(mergeJob(running, staleSnapshot)).toBe(running);
    expect(mergeJob(undefined, staleSnapshot)).toBe(staleSnapshot);
  });

  it('announces each transition once: progress while active, a completion once its result is there, one failure', () => {
    const fresh = start();
    const moving = applyProgress(fresh, progress(30));
    expect(jobTransition(fresh, moving)?.kind).toBe('progress');
    expect(jobTransition(moving, moving)).toBeNull();
    const completedWithoutResult = { ...moving, status: 'completed' as const, progress: 100 };
    expect(jobTransition(moving, completedWithoutResult)).toBeNull();
    const done = applyCompleted(completedWithoutResult, { jobId: 'job-1', result: RESULT });
    expect(jobTransition(completedWithoutResult, done)).toMatchObject({ kind: 'completed', event: { jobId: 'job-1', result: RESULT } });
    expect(jobTransition(done, done)).toBeNull();
    const failed = applyFailed(moving, { jobId: 'job-1', error: 'boom' });
    expect(jobTransition(moving, failed)).toMatchObject({ kind: 'failed', event: { error: 'boom' } });
    expect(jobTransition(failed, failed)).toBeNull();
    expect(jobTransition(moving, applyCancelled(moving))?.kind).toBe('cancelled');
  });

  it('announces nothing for jobs that were already finished or unknown, unless asked to include new ones', () => {
    const done = applyCompleted(start(), { jobId: 'job-1', result: RESULT });
    expect(jobTransitions([], [done])).toEqual([]);
    expect(jobTransitions([done], [done])).toEqual([]);
    expect(jobTransitions([], [done], { includeNew: true }).map((t) => t.kind)).toEqual(['completed']);
    const running = applyProgress(start(), progress(10));
    expect(jobTransitions([running], [done]).map((t) => t.kind)).toEqual(['completed']);
  });

  it('keeps the previous version when a re-render fails or is cancelled, as the server stores it, and tells it as a failure or a cancel', () => {
    const v1: VideoResult = { ...RESULT, version: 1 };
    // A finished video queued for v2: active, still holding v1's result.
    const rerendering: VideoJob = { ...start(), status: 'processing', progress: 40, currentStep: 'voice', stepProgress: 20, result: v1 };

    const failed = applyFailed(rerendering, { jobId: 'job-1', error: 'The voice service refused this line', version: 2 });
    expect(failed).toMatchObject({
      status: 'completed',
      error: 'The voice service refused this line',
      result: v1,
      progress: 100,
      currentStep: 'video',
      stepProgress: 100,
    });
    expect(PIPELINE_STEPS.every((step) => failed.steps[step].status === 'completed')).toBe(true);
    expect(rerenderOutcome(rerendering, failed)).toEqual({ kind: 'failed', error: 'The voice service refused this line' });
    expect(jobTransition(rerendering, failed)).toMatchObject({
      kind: 'failed',
      event: { jobId: 'job-1', error: 'The voice service refused this line', version: 2 },
    });

    const cancelled = applyCancelled(rerendering);
    expect(cancelled).toMatchObject({ status: 'completed', error: null, result: v1, progress: 100 });
    expect(rerenderOutcome(rerendering, cancelled)).toEqual({ kind: 'cancelled' });
    expect(jobTransition(rerendering, cancelled)).toMatchObject({ kind: 'cancelled' });

    // A re-render that made its version is a completion; a first render that fails stays failed.
    const v2 = applyCompleted(rerendering, { jobId: 'job-1', result: { ...RESULT, version: 2 } });
    expect(rerenderOutcome(rerendering, v2)).toBeNull();
    expect(jobTransition(rerendering, v2)).toMatchObject({ kind: 'completed' });
    expect(applyFailed({ ...start(), status: 'processing' }, { jobId: 'job-1', error: 'x' })).toMatchObject({
      status: 'failed',
      error: 'x',
    });
  });

  describe('properties', () => {
    it('progress never decreases, whatever events arrive in whatever order', () => {
      fc.assert(
        fc.property(fc.array(eventArb, { maxLength: 20 }), (events) => {
          let job = start();
          for (const event of events) {
            const next = apply(job, event);
            expect(next.progress).toBeGreaterThanOrEqual(job.progress);
            for (const step of PIPELINE_STEPS) {
              if (job.steps[step].status === 'completed') expect(next.steps[step].status).toBe('completed');
            }
            job = next;
          }
        }),
      );
    });

    it('a finished job never reopens', () => {
      fc.assert(
        fc.property(fc.array(eventArb, { maxLength: 20 }), (events) => {
          let job = start();
          let finishedAs: string | null = null;
          for (const event of events) {
            job = apply(job, event);
            if (finishedAs) {
              expect(isFinishedJobStatus(job.status)).toBe(true);
              // Only a completion may follow a finish, and only of a job that had no result.
              if (finishedAs !== job.status) expect(job.status).toBe('completed');
            }
            if (isFinishedJobStatus(job.status)) finishedAs ??= job.status;
          }
        }),
      );
    });

    it('merge is order-independent, associative and idempotent', () => {
      fc.assert(
        fc.property(jobArb, jobArb, jobArb, (a, b, c) => {
          expect(mergeJob(a, b)).toEqual(mergeJob(b, a));
          expect(mergeJob(mergeJob(a, b), c)).toEqual(mergeJob(a, mergeJob(b, c)));
          expect(mergeJob(a, a)).toEqual(a);
        }),
      );
    });

    it('a merge never moves a job backwards from either view', () => {
      fc.assert(
        fc.property(jobArb, jobArb, (a, b) => {
          const merged = mergeJob(a, b);
          if (!isFinishedJobStatus(merged.status)) expect(merged.progress).toBe(Math.max(a.progress, b.progress));
          if (isFinishedJobStatus(a.status) || isFinishedJobStatus(b.status)) expect(isFinishedJobStatus(merged.status)).toBe(true);
        }),
      );
    });
  });

  it('knows every status', () => {
    for (const status of JOB_STATUSES) expect(typeof isFinishedJobStatus(status)).toBe('boolean');
  });
});
