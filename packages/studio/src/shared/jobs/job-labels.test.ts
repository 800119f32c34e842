import { describe, expect, it } from 'vitest';
import { jobStepLabel, labelForProgress, labelForStep, progressToastText } from './job-labels.js';
import { QUEUED_STEP_TEXT } from './tracked-jobs-store.js';

describe('job labels', () => {
  it('names each pipeline step and anything else Processing', () => {
    expect(['setup', 'story', 'voice', 'images', 'video', 'upload', null].map(labelForStep)).toEqual([
      'Preparing',
      'Creating story',
      'Generating audio',
      'Creating visuals',
      'Finalizing video',
      'Processing',
      'Processing',
    ]);
  });

  it('falls back on progress at the spec thresholds', () => {
    const at = (p: number) => labelForProgress(p);
    expect([0, 4.9, 5, 19, 20, 49, 50, 79, 80, 99].map(at)).toEqual([
      'Starting',
      'Starting',
      'Creating story',
      'Creating story',
      'Generating audio',
      'Generating audio',
      'Creating visuals',
      'Creating visuals',
      'Finalizing video',
      'Finalizing video',
    ]);
  });

  it('prefers the step, then a fresh job text, then the progress fallback', () => {
    expect(jobStepLabel({ currentStep: 'images', progress: 10, stepText: QUEUED_STEP_TEXT })).toBe('Creating visuals');
    expect(jobStepLabel({ currentStep: null, progress: 1, stepText: QUEUED_STEP_TEXT })).toBe(QUEUED_STEP_TEXT);
    expect(jobStepLabel({ currentStep: null, progress: 55 })).toBe('Creating visuals');
  });

  it('writes progress toasts as "{step label}: {percent}%"', () => {
    expect(progressToastText('voice', 42.4)).toBe('Generating audio: 42%');
    expect(progressToastText(null, 3)).toBe('Starting: 3%');
  });
});
