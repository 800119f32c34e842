import { describe, expect, it } from 'vitest';
import { limitPeaks, measureSampleLoudness } from './loudness-meter.js';

const RATE = 48000;
const tone = (seconds: number, amplitude: (t: number) => number) =>
  Float64Array.from({ length: seconds * RATE }, (_, n) => amplitude(n / RATE) * Math.sin((2 * Math.PI * 997 * n) / RATE));

describe('loudness meter', () => {
  it('reads a full-scale 997 Hz sine near its reference loudness, and silence as silence', () => {
    // BS.1770's calibration: a 0 dBFS 997 Hz sine on one channel reads -3.01 LUFS.
    expect(
      measureSampleLoudness(
        tone(3, () => 1),
        RATE,
      ).integratedLufs!,
    ).toBeCloseTo(-3.01, 1);
    expect(measureSampleLoudness(new Float64Array(RATE * 2), RATE)).toEqual({ integratedLufs: null, samplePeakDb: null });
  });

  it('gates out the quiet parts: a pause does not lower the loudness of speech', () => {
    const spoken = tone(4, () => 0.5);
    const paused = tone(6, (t) => (t < 4 ? 0.5 : 0.0005));
    const a = measureSampleLoudness(spoken, RATE).integratedLufs!;
    const b = measureSampleLoudness(paused, RATE).integratedLufs!;
    expect(Math.abs(a - b)).toBeLessThan(0.2);
  });
});

describe('peak limiter', () => {
  it('keeps every sample under the ceiling and leaves quiet passages untouched', () => {
    const input = tone(2, (t) => (t > 1 && t < 1.01 ? 2.5 : 0.3));
    const output = limitPeaks(input, RATE, 0.891);
    expect(Math.max(...output.map(Math.abs))).toBeLessThanOrEqual(0.891 + 1e-9);
    // Half a second before the peak and well after its release, the signal is as it was.
    for (const t of [0.4, 1.6]) {
      const n = Math.round(t * RATE);
      expect(output[n]).toBeCloseTo(input[n]!, 4);
    }
  });

  it('brings the gain down before a peak arrives rather than on it (look-ahead)', () => {
    const input = tone(1, (t) => (t >= 0.5 ? 2 : 0.5));
    const output = limitPeaks(input, RATE, 0.891, 5);
    const justBefore = Math.round(0.498 * RATE);
    expect(Math.abs(output[justBefore]! / input[justBefore]!)).toBeLessThan(0.95);
  });
});
