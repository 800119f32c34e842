import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  layOutNarration,
  MAX_NARRATION_TEMPO,
  MAX_SCENE_GAP_SECONDS,
  MIN_NARRATION_TEMPO,
  MIN_SCENE_GAP_SECONDS,
  NARRATION_END_MARGIN_SECONDS,
  paceNarration,
  SCENE_GAP_SECONDS,
} from './narration.js';

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe('paceNarration', () => {
  it('leaves a narration that already ends on time as it is', () => {
    // 5 scenes, 4 gaps of 0.3 s: 28.3 s of speech ends at 29.5 s, the target.
    const pacing = paceNarration([5.66, 5.66, 5.66, 5.66, 5.66], 30);
    expect(pacing.tempo).toBe(1);
    expect(pacing.gapSeconds).toBeCloseTo(SCENE_GAP_SECONDS, 6);
    expect(pacing.endSeconds).toBeCloseTo(30 - NARRATION_END_MARGIN_SECONDS, 6);
  });

  it('fills a short narration with longer pauses before it touches the voice', () => {
    // 27 s of speech: 2.5 s to fill over 4 pauses, 0.625 s each, past the first 0.6 s step.
    const pacing = paceNarration([5.4, 5.4, 5.4, 5.4, 5.4], 30);
    expect(pacing.gapSeconds).toBeCloseTo(0.6, 6);
    expect(pacing.tempo).toBeLessThan(1);
    expect(pacing.tempo).toBeGreaterThanOrEqual(0.95);
    expect(pacing.endSeconds).toBeCloseTo(29.5, 6);
  });

  it('slows the voice by at most 10% and the pauses to at most a second when the narration is far too short', () => {
    const pacing = paceNarration([3, 3, 3, 3, 3], 30);
    expect(pacing.gapSeconds).toBe(MAX_SCENE_GAP_SECONDS);
    expect(pacing.tempo).toBe(MIN_NARRATION_TEMPO);
    expect(pacing.endSeconds).toBeCloseTo(15 / 0.9 + 4, 6);
  });

  it('shortens the pauses, then speeds the voice up, for a narration that runs long', () => {
    const pacing = paceNarration([6, 6, 6, 6, 6], 30);
    expect(pacing.gapSeconds).toBe(MIN_SCENE_GAP_SECONDS);
    expect(pacing.tempo).toBeGreaterThan(1);
    expect(pacing.endSeconds).toBeCloseTo(29.5, 6);
  });

  it('never speeds the voice beyond 10%', () => {
    const pacing = paceNarration([8, 8, 8, 8, 8], 30);
    expect(pacing.tempo).toBe(MAX_NARRATION_TEMPO);
    expect(pacing.gapSeconds).toBe(MIN_SCENE_GAP_SECONDS);
  });

  it('paces a single scene with its tempo alone', () => {
    const pacing = paceNarration([28], 30);
    expect(pacing.tempo).toBeCloseTo(28 / 29.5, 6);
    expect(pacing.endSeconds).toBeCloseTo(29.5, 6);
  });

  it('keeps within its bounds and ends within a second of the video whenever that is reachable', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(30, 60, 90),
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0.6, max: 1.25, noNaN: true }),
        fc.array(fc.double({ min: 0.5, max: 2, noNaN: true }), { minLength: 12, maxLength: 12 }),
        (duration, scenes, fill, weights) => {
          // Speech that, with the nominal pauses, would fill `fill` of the time before the margin.
          const shares = weights.slice(0, scenes);
          const speech = fill * (duration - NARRATION_END_MARGIN_SECONDS - SCENE_GAP_SECONDS * (scenes - 1));
          const parts = shares.map((share) => (share / sum(shares)) * speech);
          const pacing = paceNarration(parts, duration);
          expect(pacing.tempo).toBeGreaterThanOrEqual(MIN_NARRATION_TEMPO - 1e-9);
          expect(pacing.tempo).toBeLessThanOrEqual(MAX_NARRATION_TEMPO + 1e-9);
          if (scenes > 1) {
            expect(pacing.gapSeconds).toBeGreaterThanOrEqual(MIN_SCENE_GAP_SECONDS - 1e-9);
            expect(pacing.gapSeconds).toBeLessThanOrEqual(MAX_SCENE_GAP_SECONDS + 1e-9);
          }
          expect(pacing.endSeconds).toBeCloseTo(sum(parts) / pacing.tempo + pacing.gapSeconds * (scenes - 1), 6);
          const lowest = sum(parts) / MIN_NARRATION_TEMPO + (scenes > 1 ? MAX_SCENE_GAP_SECONDS * (scenes - 1) : 0);
          const highest = sum(parts) / MAX_NARRATION_TEMPO + (scenes > 1 ? MIN_SCENE_GAP_SECONDS * (scenes - 1) : 0);
          const target = duration - NARRATION_END_MARGIN_SECONDS;
          if (lowest >= target && highest <= target) {
            expect(pacing.endSeconds).toBeLessThanOrEqual(duration);
            expect(duration - pacing.endSeconds).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });
});

describe('layOutNarration', () => {
  const part = (durationSeconds: number) => ({
    audioPath: 'x.wav',
    durationSeconds,
    words: [
      { word: 'one', start: 0, end: durationSeconds / 2 },
      { word: 'two', start: durationSeconds / 2, end: durationSeconds },
    ],
  });

  it('places the scenes one after another with the pause between them', () => {
    const layout = layOutNarration([part(2), part(4)], 0.5);
    expect(layout.scenes).toEqual([
      { start: 0, end: 2 },
      { start: 2.5, end: 6.5 },
    ]);
    expect(layout.durationSeconds).toBe(6.5);
    expect(layout.words.map((word) => word.start)).toEqual([0, 1, 2.5, 4.5]);
  });

  it('stretches speech and its word timings by the tempo while the pauses keep their length', () => {
    const layout = layOutNarration([part(2), part(4)], 0.5, 0.8);
    expect(layout.scenes[0]).toEqual({ start: 0, end: 2.5 });
    expect(layout.scenes[1]!.start).toBe(3);
    expect(layout.scenes[1]!.end).toBeCloseTo(8, 9);
    expect(layout.words.at(-1)!.end).toBeCloseTo(8, 9);
    expect(layout.durationSeconds).toBeCloseTo(8, 9);
  });
});
