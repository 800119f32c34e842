import { describe, expect, it } from 'vitest';
import { narrationBudget, narrationWordLimit } from '@reelsmith/contracts';
import { cappedTargetWords, countNarrationWords, planStory, storyWordCap, storyWordsAsEdited } from './story-budget.js';

describe('planStory', () => {
  it('uses the spec scene counts for 30, 60 and 90 seconds', () => {
    expect(planStory(30, 170, 'en').sceneCount).toBe(5);
    expect(planStory(60, 170, 'en').sceneCount).toBe(11);
    expect(planStory(90, 170, 'en').sceneCount).toBe(16);
  });

  it('leaves about a second of breathing room at the end', () => {
    // 29 s at 170 wpm is 82.2 words; 59 s at 120 wpm is 118.
    expect(planStory(30, 170, 'en').targetWords).toBe(82);
    expect(planStory(60, 120, 'en').targetWords).toBe(118);
  });

  it('uses a rate measured for the voice in its language as it is', () => {
    // Japanese is scaled down from a nominal rate, not from one measured in Japanese.
    expect(planStory(60, 170, 'ja', { measuredRate: true }).targetWords).toBe(planStory(60, 170, 'en').targetWords);
    expect(planStory(60, 170, 'ja').targetWords).toBeLessThan(planStory(60, 170, 'ja', { measuredRate: true }).targetWords);
  });

  it('budgets fewer words for languages that take longer per word', () => {
    const english = planStory(60, 170, 'en').targetWords;
    expect(planStory(60, 170, 'ja').targetWords).toBeLessThan(english);
    expect(planStory(60, 170, 'pt').targetWords).toBeLessThan(english);
    expect(planStory(60, 170, 'fr').targetWords).toBeGreaterThan(english);
  });

  it('rejects nonsense input', () => {
    expect(() => planStory(0, 170, 'en')).toThrow(RangeError);
    expect(() => planStory(30, 0, 'en')).toThrow(RangeError);
  });
});

describe('countNarrationWords', () => {
  it('counts words in spaced languages and characters / 2.5 in Japanese', () => {
    expect(countNarrationWords('The old keeper, had a secret.', 'en')).toBe(6);
    expect(countNarrationWords('गाँव में कोई नहीं जानता था।', 'hi')).toBe(6);
    expect(countNarrationWords('秘密がありました。', 'ja')).toBeCloseTo(8 / 2.5);
  });
});

describe('storyWordCap', () => {
  it("is the storyboard editor's limit, counted as the editor counts", () => {
    expect(storyWordCap(30)).toBe(narrationBudget([], 30).limit);
    expect(storyWordCap(60)).toBe(narrationWordLimit(60));
    const narrations = ['The old keeper — had a secret.', '秘密がありました。'];
    expect(storyWordsAsEdited(narrations)).toBe(
      narrationBudget(
        narrations.map((narration) => ({ narration })),
        30,
      ).words,
    );
  });

  it('caps the words a writer is asked for at it, never raising a smaller plan', () => {
    expect(cappedTargetWords(112, 30)).toBe(storyWordCap(30));
    expect(cappedTargetWords(80, 30)).toBe(80);
  });
});
