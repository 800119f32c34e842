import { describe, expect, it } from 'vitest';
import { ARTICLE_MAX_LENGTH } from '@reelsmith/contracts';
import { ProviderError } from '../errors.js';
import type { StoryRequest } from '../providers/types.js';
import { INPUT_REFUSED_STATUS, TELLING_MESSAGES, TELLING_TIMEOUT_MS, tellSourceApart } from './told-apart.js';

const request = (text: string): StoryRequest => ({
  topic: 'Poison',
  style: 'educational',
  language: 'en',
  durationSeconds: 30,
  visualStyle: 'cinematic',
  customPrompt: '',
  sceneCount: 6,
  targetWords: 80,
  source: { kind: 'article', text },
});

/** The poison articles of the third security round, each at the article length limit. */
const POISON = {
  'no sentence end': Array.from({ length: ARTICLE_MAX_LENGTH / 8 }, (_, index) => `word${index % 50}`)
    .join(' ')
    .slice(0, ARTICLE_MAX_LENGTH),
  'only stop words': 'the and of to '.repeat(ARTICLE_MAX_LENGTH / 14),
  'only emoji': '😀 🎉 '.repeat(ARTICLE_MAX_LENGTH / 6),
  'forty thousand short sentences': Array.from({ length: 7_400 }, (_, index) => `Cats eat fresh fish ${index}.`).join(' '),
};

describe('tellSourceApart', () => {
  it('tells an ordinary article in a worker thread', async () => {
    const text = Array.from(
      { length: 12 },
      (_, index) => `The lighthouse keeper number ${index} trimmed the lamp wick every evening before the ships came home.`,
    ).join(' ');
    const story = await tellSourceApart(request(text), request(text).source!, 'offline');
    expect(story.scenes.length).toBeGreaterThan(0);
    expect(story.scenes[0]!.narration).toContain('lighthouse keeper');
  }, 60_000);

  for (const [name, text] of Object.entries(POISON)) {
    it(`completes or refuses an article of ${name} within its limit, the process untouched`, async () => {
      const started = Date.now();
      const outcome = await tellSourceApart(request(text), request(text).source!, 'offline').then(
        (story) => story,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
      expect(Date.now() - started).toBeLessThan(TELLING_TIMEOUT_MS + 5_000);
      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(ProviderError);
        // A refusal of the text, not a service failure: the job keeps this message, not "try again later".
        expect(outcome).toMatchObject({ retryable: false, status: INPUT_REFUSED_STATUS });
        const refusals = [TELLING_MESSAGES.nothingToTell, TELLING_MESSAGES.limit('')];
        expect(refusals.some((refusal) => outcome.message.startsWith(refusal.slice(0, 40)))).toBe(true);
      } else {
        expect(outcome.scenes.length).toBeGreaterThan(0);
      }
    }, 60_000);
  }
});
