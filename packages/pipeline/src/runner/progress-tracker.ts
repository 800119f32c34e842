import type { PipelineStep } from '@reelsmith/contracts';
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

/** Turns per-step progress into overall progress that never goes down, and drops repeats. */
export class ProgressTracker {
  private overall: number;
  private lastKey = '';

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
    const clampedStep = Math.min(100, Math.max(0, stepProgress));
    const [from, to] = STEP_BANDS[step];
    const candidate = from + ((to - from) * clampedStep) / 100;
    this.overall = Math.max(this.overall, Math.round(candidate * 10) / 10);
    const update = { step, stepProgress: Math.round(clampedStep), progress: Math.floor(this.overall) };
    const key = `${update.step}:${update.stepProgress}:${update.progress}`;
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.listener?.(message ? { ...update, message } : update);
  }
}
