import { DEFAULT_QUOTA_TOTAL, SAMPLE_COUNT_THRESHOLDS, SAMPLE_PERCENT_THRESHOLDS } from '@reelsmith/contracts';

export type SampleTone = 'success' | 'warning' | 'error';

/**
 * Colour of a sample count (560 or more success, 280 or more warning). These
 * thresholds are for the 560-sample catalogue; for another expected total they scale with it, so
 * a complete catalogue of any size reads as success.
 */
export function sampleCountTone(available: number, expectedTotal: number = DEFAULT_QUOTA_TOTAL): SampleTone {
  const scale = expectedTotal > 0 ? expectedTotal / DEFAULT_QUOTA_TOTAL : 1;
  if (available >= SAMPLE_COUNT_THRESHOLDS.success * scale) return 'success';
  if (available >= SAMPLE_COUNT_THRESHOLDS.warning * scale) return 'warning';
  return 'error';
}

/** Colour of a completion percentage: 90 and above success, 50 and above warning. */
export function samplePercentTone(percent: number): SampleTone {
  if (percent >= SAMPLE_PERCENT_THRESHOLDS.success) return 'success';
  if (percent >= SAMPLE_PERCENT_THRESHOLDS.warning) return 'warning';
  return 'error';
}

export function samplePercent(available: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((available / total) * 1000) / 10);
}
