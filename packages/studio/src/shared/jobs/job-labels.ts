import type { PipelineStep } from '@reelsmith/contracts';
import type { TrackedJob } from './tracked-jobs-store.js';

/** How each pipeline step reads to the user. */
export const STEP_LABELS: Record<PipelineStep, string> = {
  setup: 'Preparing',
  story: 'Creating story',
  voice: 'Generating audio',
  images: 'Creating visuals',
  video: 'Finalizing video',
};
export const UNKNOWN_STEP_LABEL = 'Processing';

export function labelForStep(step: string | null | undefined): string {
  if (!step) return UNKNOWN_STEP_LABEL;
  return (STEP_LABELS as Record<string, string>)[step] ?? UNKNOWN_STEP_LABEL;
}

/** Without a step the label follows the overall progress. */
export function labelForProgress(progress: number): string {
  if (progress < 5) return 'Starting';
  if (progress < 20) return STEP_LABELS.story;
  if (progress < 50) return STEP_LABELS.voice;
  if (progress < 80) return STEP_LABELS.images;
  if (progress < 100) return STEP_LABELS.video;
  return 'Completed';
}

/** The step line under an active job's progress bar. */
export function jobStepLabel(job: Pick<TrackedJob, 'currentStep' | 'progress' | 'stepText'>): string {
  if (job.currentStep) return labelForStep(job.currentStep);
  if (job.stepText) return job.stepText;
  return labelForProgress(job.progress);
}

/** The text of a progress toast: '{step label}: {percent}%'. */
export function progressToastText(step: string | null, progress: number): string {
  return `${step ? labelForStep(step) : labelForProgress(progress)}: ${Math.round(progress)}%`;
}
