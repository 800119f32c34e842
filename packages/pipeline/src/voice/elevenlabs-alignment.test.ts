import { describe, expect, it } from 'vitest';
import { alignmentToWordTimings, type CharacterAlignment } from './elevenlabs-alignment.js';

/** An alignment where character i runs from i*0.1 to i*0.1+0.08. */
function alignmentOf(text: string): CharacterAlignment {
  const characters = Array.from(text);
  return {
    characters,
    character_start_times_seconds: characters.map((_, index) => Math.round(index * 100) / 1000),
    character_end_times_seconds: characters.map((_, index) => Math.round(index * 100 + 80) / 1000),
  };
}

describe('alignmentToWordTimings', () => {
  it('turns English characters into words spanning first start to last end', () => {
    expect(alignmentToWordTimings(alignmentOf('Hi there, you.'), 'en')).toEqual([
      { word: 'Hi', start: 0, end: 0.18 },
      { word: 'there,', start: 0.3, end: 0.88 },
      { word: 'you.', start: 1, end: 1.38 },
    ]);
  });

  it('groups Japanese characters into words without spaces', () => {
    const text = '今日はいい天気ですね。';
    const words = alignmentToWordTimings(alignmentOf(text), 'ja');
    expect(words.map((word) => word.word).join('')).toBe(text);
    expect(words.length).toBeGreaterThan(1);
    expect(words.length).toBeLessThan(Array.from(text).length);
    expect(words[0]!.start).toBe(0);
    expect(words.at(-1)!.end).toBe(1.08);
    for (let index = 1; index < words.length; index += 1) expect(words[index]!.start).toBeGreaterThanOrEqual(words[index - 1]!.end);
  });

  it('handles characters outside the basic plane', () => {
    const words = alignmentToWordTimings(alignmentOf('go 𝒳y now'), 'en');
    expect(words.map((word) => word.word)).toEqual(['go', '𝒳y', 'now']);
    expect(words[1]).toEqual({ word: '𝒳y', start: 0.3, end: 0.48 });
    expect(words[2]).toEqual({ word: 'now', start: 0.6, end: 0.88 });
    // A symbol with no letters is no caption word of its own.
    expect(alignmentToWordTimings(alignmentOf('go 🚀 now'), 'en').map((word) => word.word)).toEqual(['go 🚀', 'now']);
  });

  it('returns no words for an empty alignment', () => {
    expect(alignmentToWordTimings(alignmentOf(''), 'en')).toEqual([]);
  });
});
