import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../providers/types.js';
import { estimateTimingsForWords, estimateWordTimings } from './word-timing-estimate.js';
import { tokenizeWords } from './word-timing-tokenize.js';

function expectWellFormed(words: WordTiming[], duration: number) {
  expect(words.length).toBeGreaterThan(0);
  expect(words[0]!.start).toBe(0);
  expect(words.at(-1)!.end).toBe(duration);
  let previousEnd = 0;
  for (const word of words) {
    expect(word.start).toBeGreaterThanOrEqual(previousEnd);
    expect(word.end).toBeGreaterThan(word.start);
    previousEnd = word.end;
  }
}

describe('tokenizeWords', () => {
  it('splits spaced text on whitespace and keeps punctuation on its word', () => {
    expect(tokenizeWords('“Hello,” she said — softly.', 'en').map((token) => token.word)).toEqual(['“Hello,”', 'she', 'said —', 'softly.']);
  });

  it('segments Japanese, gluing particles and punctuation to the word before', () => {
    const words = tokenizeWords('今日はいい天気ですね。散歩に行きましょう！', 'ja').map((token) => token.word);
    expect(words.join('')).toBe('今日はいい天気ですね。散歩に行きましょう！');
    expect(words).toContain('散歩に');
    expect(words.every((word) => !/^[。！]$/.test(word))).toBe(true);
    expect(words.length).toBeGreaterThanOrEqual(4);
  });

  it('segments Chinese', () => {
    const words = tokenizeWords('今天天气很好，我们去散步吧。', 'zh').map((token) => token.word);
    expect(words.join('')).toBe('今天天气很好，我们去散步吧。');
    expect(words).toContain('今天');
    expect(words.length).toBeGreaterThanOrEqual(5);
  });

  it('keeps offsets that point back into the text', () => {
    const text = 'नमस्ते दुनिया, कैसे हो?';
    for (const token of tokenizeWords(text, 'hi')) expect(text.slice(token.start, token.end)).toBe(token.word);
  });
});

describe('estimateWordTimings', () => {
  it('covers the whole audio, in order, for English', () => {
    const words = estimateWordTimings('The keeper climbed the stairs. Outside, the storm screamed relentlessly!', 7.25, 'en');
    expect(words.map((word) => word.word)).toEqual([
      'The',
      'keeper',
      'climbed',
      'the',
      'stairs.',
      'Outside,',
      'the',
      'storm',
      'screamed',
      'relentlessly!',
    ]);
    expectWellFormed(words, 7.25);
  });

  it('gives long words more time than short ones and pauses at a full stop', () => {
    const words = estimateWordTimings('A extraordinarily long day. Then a cat.', 6, 'en');
    const span = (index: number) => words[index]!.end - words[index]!.start;
    expect(span(1)).toBeGreaterThan(span(0) * 3);
    const gapAfterStop = words[4]!.start - words[3]!.end;
    const gapBetweenWords = words[1]!.start - words[0]!.end;
    expect(gapAfterStop).toBeGreaterThan(0.2);
    expect(gapBetweenWords).toBe(0);
  });

  it('works for Japanese without spaces', () => {
    const words = estimateWordTimings('今日はいい天気ですね。散歩に行きましょう！', 4.5, 'ja');
    expect(words.length).toBeGreaterThan(3);
    expectWellFormed(words, 4.5);
  });

  it('is never empty', () => {
    expect(estimateWordTimings('   ', 2, 'en')).toEqual([{ word: '', start: 0, end: 2 }]);
    expect(estimateWordTimings('Hi', 1.2, 'en')).toEqual([{ word: 'Hi', start: 0, end: 1.2 }]);
  });

  describe('for words already split', () => {
    const words = (text: string, language: string) => tokenizeWords(text, language).map((token) => token.word);
    it('splits spaced text on whitespace and Chinese/Japanese with Intl.Segmenter', () => {
      expect(words('The old  keeper.', 'en')).toEqual(['The', 'old', 'keeper.']);
      const chinese = words('老灯塔看守人有一个秘密。', 'zh');
      expect(chinese.length).toBeGreaterThan(2);
      expect(chinese.join('')).toBe('老灯塔看守人有一个秘密。');
      expect(chinese.at(-1)?.endsWith('。')).toBe(true);
    });

    it('estimates monotonic timings that fill the duration, longer words taking longer', () => {
      const timings = estimateTimingsForWords(['A', 'considerably', 'long', 'sentence.'], 4);
      expect(timings).toHaveLength(4);
      for (const [index, timing] of timings.entries()) {
        expect(timing.end).toBeGreaterThan(timing.start);
        expect(timing.end).toBeLessThanOrEqual(4);
        if (index > 0) expect(timing.start).toBeGreaterThanOrEqual(timings[index - 1]!.end);
      }
      expect(timings[1]!.end - timings[1]!.start).toBeGreaterThan(timings[0]!.end - timings[0]!.start);
    });
  });
});
