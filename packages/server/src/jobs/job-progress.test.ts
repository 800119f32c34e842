import { describe, expect, it } from 'vitest';
import { JobProgressTracker } from './job-progress.js';
import { initialSteps } from '../video-jobs/video-job-view.js';

const freshRow = () => ({ progress: 1, current_step: null, step_progress: 0, steps: JSON.stringify(initialSteps()) });

describe('JobProgressTracker', () => {
  it('never lets overall progress go down', () => {
    const tracker = new JobProgressTracker(freshRow());
    expect(tracker.apply({ step: 'setup', stepProgress: 0, progress: 0 }).progress).toBe(1);
    expect(tracker.apply({ step: 'story', stepProgress: 50, progress: 20 }).progress).toBe(20);
    expect(tracker.apply({ step: 'story', stepProgress: 60, progress: 12 }).progress).toBe(20);
    expect(tracker.apply({ step: 'voice', stepProgress: 10, progress: 35 }).progress).toBe(35);
  });

  it('marks earlier steps finished when a later one reports, and keeps finished steps finished', () => {
    const tracker = new JobProgressTracker(freshRow());
    tracker.apply({ step: 'images', stepProgress: 40, progress: 60 });
    const { steps } = tracker.apply({ step: 'setup', stepProgress: 0, progress: 0 });
    expect(steps.setup).toEqual({ status: 'completed', progress: 100 });
    expect(steps.voice).toEqual({ status: 'completed', progress: 100 });
    expect(steps.images).toEqual({ status: 'running', progress: 40 });
    expect(steps.video).toEqual({ status: 'pending', progress: 0 });
  });

  it('resumes from the stored row rather than from zero', () => {
    const first = new JobProgressTracker(freshRow());
    const stored = first.apply({ step: 'images', stepProgress: 50, progress: 70 });
    const resumed = new JobProgressTracker({
      progress: stored.progress,
      current_step: 'images',
      step_progress: 50,
      steps: JSON.stringify(stored.steps),
    });
    const update = resumed.apply({ step: 'setup', stepProgress: 100, progress: 5 });
    expect(update.progress).toBe(70);
    expect(update.steps.images.status).toBe('running');
  });

  it('completes every step, or fails the running one', () => {
    const tracker = new JobProgressTracker(freshRow());
    tracker.apply({ step: 'voice', stepProgress: 30, progress: 40 });
    const failed = tracker.fail();
    expect(failed.voice).toEqual({ status: 'failed', progress: 30 });
    expect(failed.images.status).toBe('pending');
    const done = new JobProgressTracker(freshRow()).complete();
    expect(Object.values(done).every((step) => step.status === 'completed')).toBe(true);
  });

  it('clamps values outside 0-100 and survives a damaged steps column', () => {
    const tracker = new JobProgressTracker({ progress: 1, current_step: 'nonsense', step_progress: 0, steps: 'not json' });
    const update = tracker.apply({ step: 'story', stepProgress: 250, progress: Number.NaN });
    expect(update.progress).toBe(1);
    expect(update.stepProgress).toBe(100);
    expect(update.steps.story.status).toBe('completed');
  });
});
