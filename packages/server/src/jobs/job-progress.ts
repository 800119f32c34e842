import {
  advanceSteps,
  clampPercent,
  completeSteps,
  failSteps,
  laterProgress,
  PIPELINE_STEPS,
  type JobSteps,
  type PipelineStep,
} from '@reelsmith/contracts';
import type { ProgressUpdate } from '@reelsmith/pipeline';
import type { VideoJobRow } from '../db/schema.js';
import type { ProgressWrite } from '../video-jobs/video-job-repository.js';
import { parseSteps } from '../video-jobs/video-job-view.js';

/**
 * A running job's progress as the pipeline reports it, kept so that what is stored and shown never
 * goes backwards. The rules are the contracts' job-state (laterProgress, advanceSteps, completeSteps,
 * failSteps), the same ones the studio and the extension apply to live events.
 */
export class JobProgressTracker {
  progress: number;
  currentStep: PipelineStep | null;
  stepProgress: number;
  private steps: JobSteps;

  constructor(row: Pick<VideoJobRow, 'progress' | 'current_step' | 'step_progress' | 'steps'>) {
    this.progress = clampPercent(Number(row.progress));
    this.currentStep = (PIPELINE_STEPS as readonly string[]).includes(row.current_step ?? '') ? (row.current_step as PipelineStep) : null;
    this.stepProgress = clampPercent(Number(row.step_progress));
    this.steps = parseSteps(row.steps);
  }

  apply(update: ProgressUpdate): ProgressWrite {
    this.progress = laterProgress(this.progress, update.progress);
    this.currentStep = update.step;
    this.stepProgress = clampPercent(update.stepProgress);
    this.steps = advanceSteps(this.steps, update.step, update.stepProgress);
    return this.snapshot();
  }

  /** Every step finished. */
  complete(): JobSteps {
    this.steps = completeSteps(this.steps);
    this.progress = 100;
    this.currentStep = 'video';
    this.stepProgress = 100;
    return this.copySteps();
  }

  /** Marks `step` failed, or else the running (or first unfinished) step. */
  fail(step?: PipelineStep): JobSteps {
    this.steps = failSteps(this.steps, step);
    return this.copySteps();
  }

  snapshot(): ProgressWrite {
    return { progress: this.progress, currentStep: this.currentStep ?? 'setup', stepProgress: this.stepProgress, steps: this.copySteps() };
  }

  private copySteps(): JobSteps {
    return Object.fromEntries(PIPELINE_STEPS.map((step) => [step, { ...this.steps[step] }])) as JobSteps;
  }
}
