import { describe, expect, it } from 'vitest';
import { duckExpression, musicVolumeOffsetDb, speechSpans } from './music-mix.js';

describe('the music volume setting', () => {
  it('names an amplitude against the 30% default: each doubling is 6 dB, 0 is silence', () => {
    expect(musicVolumeOffsetDb(30)).toBeCloseTo(0);
    expect(musicVolumeOffsetDb(60)).toBeCloseTo(6.02, 1);
    expect(musicVolumeOffsetDb(15)).toBeCloseTo(-6.02, 1);
    expect(musicVolumeOffsetDb(100)).toBeCloseTo(10.46, 1);
    expect(musicVolumeOffsetDb(0)).toBeNull();
  });
});

describe('speech spans', () => {
  it('merges words of a sentence and keeps a pause between sentences apart', () => {
    const words = [
      { word: 'a', start: 0.5, end: 0.8 },
      { word: 'b', start: 0.9, end: 1.3 },
      { word: 'c', start: 1.6, end: 2 },
      { word: 'd', start: 3.5, end: 3.9 },
    ];
    expect(speechSpans(words)).toEqual([
      [0.5, 2],
      [3.5, 3.9],
    ]);
    expect(speechSpans([])).toEqual([]);
  });

  it('gives a duck with no speech at all the pause level throughout', () => {
    expect(duckExpression([])).toBe('pow(10,0.4000*(1-(0)))');
  });
});
