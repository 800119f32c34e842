import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_NARRATION_TEMPO,
  MAX_SCENE_GAP_SECONDS,
  MIN_NARRATION_TEMPO,
  MIN_SCENE_GAP_SECONDS,
  NARRATION_END_MARGIN_SECONDS,
  paceNarration,
  planNarration,
  planSeconds,
  replanNarration,
  SCENE_GAP_SECONDS,
  SCENE_SHIFT_FRAMES,
  MAX_DURATION_DRIFT_SECONDS,
  videoLengthFor,
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

describe('planNarration and replanNarration', () => {
  const keys = ['a', 'b', 'c', 'd', 'e'];
  const speech = [5.2, 5.4, 5.0, 5.6, 5.3];
  const first = planNarration(keys, speech, 30);
  const starts = (plan: ReturnType<typeof planNarration>) =>
    plan.scenes.reduce<number[]>(
      (list, scene, index) => [...list, index === 0 ? 0 : list[index - 1]! + plan.scenes[index - 1]!.pictureFrames],
      [],
    );

  it("holds each picture from its scene's speech to the next and fills the planned length", () => {
    expect(planSeconds(first)).toBe(30);
    const pacing = paceNarration(speech, 30);
    expect(first.scenes.every((scene) => scene.tempo === pacing.tempo)).toBe(true);
    expect(starts(first)[1]).toBe(Math.round((speech[0]! / pacing.tempo + pacing.gapSeconds) * 30));
  });

  it('keeps every unchanged scene as it was and fits a re-voiced one into its place within ±10% tempo', () => {
    const edited = [...speech];
    edited[2] = 5.3; // 6% longer: a faster voice absorbs it
    const next = replanNarration(first, ['a', 'b', 'x', 'd', 'e'], edited, 30)!;
    expect(next.scenes.filter((_, index) => index !== 2)).toEqual(first.scenes.filter((_, index) => index !== 2));
    expect(next.scenes[2]!.tempo).toBeCloseTo(first.scenes[2]!.tempo * (5.3 / 5.0), 9);
    expect(next.scenes[2]!.pictureFrames).toBe(first.scenes[2]!.pictureFrames);
    expect(planSeconds(next)).toBe(30);
  });

  it('lengthens a scene that speech beyond the tempo limit overruns, by whole steps, and moves the rest by as much', () => {
    const edited = [...speech];
    edited[1] = 6.5; // 20% longer: past 1.1, the picture grows
    const next = replanNarration(first, ['a', 'y', 'c', 'd', 'e'], edited, 30)!;
    const grown = next.scenes[1]!.pictureFrames - first.scenes[1]!.pictureFrames;
    expect(next.scenes[1]!.tempo).toBeLessThanOrEqual(MAX_NARRATION_TEMPO);
    expect(grown).toBeGreaterThan(0);
    expect(grown % SCENE_SHIFT_FRAMES).toBe(0);
    // The speech still ends before the next scene's picture, a pause after it.
    expect(next.scenes[1]!.pictureFrames / 30 - 6.5 / next.scenes[1]!.tempo).toBeGreaterThanOrEqual(MIN_SCENE_GAP_SECONDS - 1e-9);
    expect(
      starts(next)
        .slice(2)
        .map((start, index) => start - starts(first)[index + 2]!),
    ).toEqual([grown, grown, grown]);
    expect(Math.abs(planSeconds(next) - 30)).toBeLessThanOrEqual(1);
  });

  it('keeps every other scene when a much shorter narration would end the video over a second early: its pause grows instead', () => {
    const edited = [...speech];
    edited[1] = 2.5; // less than half: even at 0.9 the picture would shrink by far more than a second
    const next = replanNarration(first, ['a', 'y', 'c', 'd', 'e'], edited, 30)!;
    expect(next).not.toBeNull();
    expect(next.scenes.filter((_, index) => index !== 1)).toEqual(first.scenes.filter((_, index) => index !== 1));
    expect(next.scenes[1]!.pictureFrames).toBeLessThanOrEqual(first.scenes[1]!.pictureFrames);
    expect((first.scenes[1]!.pictureFrames - next.scenes[1]!.pictureFrames) % SCENE_SHIFT_FRAMES).toBe(0);
    expect(Math.abs(planSeconds(next) - 30)).toBeLessThanOrEqual(1);
  });

  it('paces anew (null) when an edit would move the end more than a second, or the scenes or length differ', () => {
    const edited = [...speech];
    edited[0] = 9;
    expect(replanNarration(first, ['z', 'b', 'c', 'd', 'e'], edited, 30)).toBeNull();
    expect(replanNarration(first, keys.slice(0, 4), speech.slice(0, 4), 30)).toBeNull();
    expect(replanNarration(first, keys, speech, 60)).toBeNull();
  });
});

describe('videoLengthFor', () => {
  it('is the length picked whenever a plan would move it further than the promise allows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(30, 60, 90),
        fc.array(fc.double({ min: 0.5, max: 30, noNaN: true }), { minLength: 1, maxLength: 16 }),
        (duration, speech) => {
          const plan = planNarration(
            speech.map((_, index) => `scene-${index}`),
            speech,
            duration,
          );
          const length = videoLengthFor({ videoSeconds: planSeconds(plan) }, duration);
          expect(Math.abs(length - duration)).toBeLessThanOrEqual(MAX_DURATION_DRIFT_SECONDS + 1e-6);
        },
      ),
    );
  });

  it('keeps an edited plan within the drift, so untouched scenes keep their frames', () => {
    expect(videoLengthFor({ videoSeconds: 30.3 }, 30)).toBe(30.3);
    expect(videoLengthFor({ videoSeconds: 29.6 }, 30)).toBe(29.6);
    // The reported ja video: a narration that overflowed its 30 s plan made a 38.7 s video.
    expect(videoLengthFor({ videoSeconds: 38.73 }, 30)).toBe(30);
  });
});
