import { PIPELINE_STEPS, type JobSteps, type PipelineStep } from '@reelsmith/contracts';
import type { ProgressUpdate } from '@reelsmith/pipeline/providers/types';
import type { VideoJobRow } from '../db/schema.js';
import type { ProgressWrite } from './job-store.js';
import { parseSteps } from './video-job-view.js';

const clampPercent = (value: number): number => (Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0);
const isDone = (status: string): boolean => status === 'completed' || status === 'skipped';

/**
 * A running job's progress as the pipeline reports it, kept so that what is stored and shown never
 * goes backwards: the overall percentage only grows, a finished step stays finished, and reaching a
 * step marks every step before it finished (a resumed run may skip them silently).
 */
export class JobProgressTracker {
  progress: number;
  currentStep: PipelineStep | null;
  stepProgress: number;
  private readonly steps: JobSteps;

  constructor(row: Pick<VideoJobRow, 'progress' | 'current_step' | 'step_progress' | 'steps'>) {
    this.progress = clampPercent(Number(row.progress));
    this.currentStep = (PIPELINE_STEPS as readonly string[]).includes(row.current_step ?? '') ? (row.current_step as PipelineStep) : null;
    this.stepProgress = clampPercent(Number(row.step_progress));
    this.steps = parseSteps(row.steps);
  }

  apply(update: ProgressUpdate): ProgressWrite {
    this.progress = Math.max(this.progress, clampPercent(update.progress));
    this.currentStep = update.step;
    this.stepProgress = clampPercent(update.stepProgress);
    const index = PIPELINE_STEPS.indexOf(update.step);
    PIPELINE_STEPS.forEach((step, position) => {
      const entry = this.steps[step];
      if (position < index) {
        if (!isDone(entry.status)) this.steps[step] = { status: 'completed', progress: 100 };
      } else if (position === index && !isDone(entry.status)) {
        const progress = Math.max(entry.progress, this.stepProgress);
        this.steps[step] = { status: progress >= 100 ? 'completed' : 'running', progress };
      }
    });
    return this.snapshot();
  }

  /** Every step finished. */
  complete(): JobSteps {
    for (const step of PIPELINE_STEPS) if (!isDone(this.steps[step].status)) this.steps[step] = { status: 'completed', progress: 100 };
    this.progress = 100;
    this.currentStep = 'video';
    this.stepProgress = 100;
    return this.copySteps();
  }

  /** The step that was running (or the first unfinished one) failed. */
  /** Marks `step` failed, or else the running (or first unfinished) step. */
  fail(step?: PipelineStep): JobSteps {
    const failing = step ?? PIPELINE_STEPS.find((step) => this.steps[step].status === 'running') ?? PIPELINE_STEPS.find((step) => !isDone(this.steps[step].status));
    if (failing) this.steps[failing] = { status: 'failed', progress: this.steps[failing].progress };
    return this.copySteps();
  }

  snapshot(): ProgressWrite {
    return { progress: this.progress, currentStep: this.currentStep ?? 'setup', stepProgress: this.stepProgress, steps: this.copySteps() };
  }

  private copySteps(): JobSteps {
    return Object.fromEntries(PIPELINE_STEPS.map((step) => [step, { ...this.steps[step] }])) as JobSteps;
  }
}
