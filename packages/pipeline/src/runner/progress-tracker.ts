import { clampPercent, laterProgress, PIPELINE_STEPS, type PipelineStep } from '@reelsmith/contracts';
import type { ProgressListener } from '../providers/types.js';

/**
 * Share of the overall bar per step. The spec's label fallbacks (<5 starting, <20 story, <50 audio,
 * <80 visuals, <100 finalizing) read these same bands back from a bare percentage.
 */
export const STEP_BANDS: Record<PipelineStep, readonly [number, number]> = {
  setup: [0, 5],
  story: [5, 20],
  voice: [20, 50],
  images: [50, 80],
  video: [80, 100],
};

/**
 * Turns per-step progress into overall progress that never goes down, and drops repeats. Steps may
 * overlap (voice and images run at once): the overall figure adds up every step's share, and the
 * step shown is the earliest one still running (else the furthest reached), so a step is never shown
 * done before it is: the job state marks every step before the shown one completed.
 */
export class ProgressTracker {
  private overall: number;
  private lastKey = '';
  private readonly fractions = new Map<PipelineStep, number>();

  constructor(
    private readonly listener: ProgressListener | undefined,
    startAt = 0,
  ) {
    this.overall = startAt;
  }

  get progress(): number {
    return this.overall;
  }

  report(step: PipelineStep, stepProgress: number, message?: string): void {
    this.fractions.set(step, Math.max(this.fractions.get(step) ?? 0, clampPercent(stepProgress) / 100));
    const furthest = Math.max(...[...this.fractions.keys()].map((name) => PIPELINE_STEPS.indexOf(name)));
    // A step not reported but before one that was (a resumed run) counts as done.
    const candidate = PIPELINE_STEPS.reduce((sum, name, index) => {
      const [from, to] = STEP_BANDS[name];
      return sum + (to - from) * (this.fractions.get(name) ?? (index < furthest ? 1 : 0));
    }, 0);
    this.overall = laterProgress(this.overall, Math.round(candidate * 10) / 10);
    const shown = PIPELINE_STEPS.find((name) => (this.fractions.get(name) ?? 1) < 1) ?? PIPELINE_STEPS[furthest]!;
    const update = { step: shown, stepProgress: Math.round((this.fractions.get(shown) ?? 1) * 100), progress: Math.floor(this.overall) };
    const key = `${update.step}:${update.stepProgress}:${update.progress}`;
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.listener?.(message && shown === step ? { ...update, message } : update);
  }
}
