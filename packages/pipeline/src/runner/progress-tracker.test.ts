import { advanceSteps, PIPELINE_STEPS, type JobSteps, type PipelineStep } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import type { ProgressUpdate } from '../providers/types.js';
import { ProgressTracker } from './progress-tracker.js';

const pending = (): JobSteps => Object.fromEntries(PIPELINE_STEPS.map((step) => [step, { status: 'pending', progress: 0 }])) as JobSteps;

function track(reports: Array<[PipelineStep, number]>): ProgressUpdate[] {
  const updates: ProgressUpdate[] = [];
  const tracker = new ProgressTracker((update) => updates.push(update));
  for (const [step, percent] of reports) tracker.report(step, percent);
  return updates;
}

describe('ProgressTracker', () => {
  it('maps steps run one after another onto their bands', () => {
    const updates = track([
      ['setup', 0],
      ['setup', 100],
      ['story', 100],
      ['voice', 50],
      ['voice', 100],
      ['images', 50],
    ]);
    expect(updates.map((u) => [u.step, u.stepProgress, u.progress])).toEqual([
      ['setup', 0, 0],
      ['setup', 100, 5],
      ['story', 100, 20],
      ['voice', 50, 35],
      ['voice', 100, 50],
      ['images', 50, 65],
    ]);
  });

  it('with voice and images at once, adds both shares and never shows voice done before it is', () => {
    const updates = track([
      ['setup', 100],
      ['story', 100],
      ['voice', 0],
      ['images', 0],
      ['images', 40],
      ['voice', 30],
      ['images', 100],
      ['voice', 60],
      ['voice', 100],
      ['video', 0],
    ]);
    const progress = updates.map((u) => u.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // The job state marks every step before the one shown as completed: voice must stay running until it ends.
    let steps = pending();
    for (const update of updates) {
      steps = advanceSteps(steps, update.step, update.stepProgress);
      if (update.progress < 80) expect(steps.voice.status).not.toBe('completed');
    }
    expect(updates.find((u) => u.progress === 80)).toMatchObject({ step: 'images', stepProgress: 100 });
    expect(updates.at(-1)).toMatchObject({ step: 'video', progress: 80 });
    // Images at 40% while voice is at 0: 20 (setup, story) + 0.4 x 30.
    expect(updates.find((u) => u.progress === 32)).toMatchObject({ step: 'voice', stepProgress: 0 });
  });

  it('counts steps before the first one reported as done (a resumed run)', () => {
    expect(track([['images', 50]])).toEqual([{ step: 'images', stepProgress: 50, progress: 65 }]);
  });
});
