import { SCENES_PER_DURATION, narrationBudget } from '@reelsmith/contracts';

/**
 * Silence planned after the last word. The voice step then paces the narration (longer or shorter
 * pauses, ±10% tempo) to end half a second before the video; a budget that aims a little short
 * leaves it room both ways.
 */
export const END_BREATHING_ROOM_SECONDS = 1;

/**
 * How fast each language is spoken relative to the voice's nominal words-per-minute.
 * "Words" differ by language: for ja (no spaces) one word is counted as 2.5 characters, the same
 * unit the offline writer and the voice measure with (see `countNarrationWords`).
 * The factors come from synthesising the offline writer's 60 s narrations (two styles, three voices
 * each) with the offline espeak voices and dividing each language's measured words per minute by
 * English's (178 wpm): hi 177, de 163, es 167, ja 135 (2.5-character words), fr 199, pt 150.
 * ko, zh and it have no offline writer templates and are estimates.
 */
export const LANGUAGE_RATE_FACTORS: Readonly<Record<string, number>> = {
  en: 1,
  hi: 1,
  de: 0.92,
  es: 0.94,
  ja: 0.76,
  fr: 1.12,
  pt: 0.84,
  ko: 0.85,
  zh: 0.8,
  it: 0.95,
};

/** LANGUAGE_RATE_FACTORS for a language tag (its first two letters), 1 for a language it does not list. */
export function languageRateFactor(language: string): number {
  return LANGUAGE_RATE_FACTORS[language.toLowerCase().slice(0, 2)] ?? 1;
}

export interface StoryPlan {
  sceneCount: number;
  targetWords: number;
}

/** The spec's scene counts for 30/60/90 s, interpolated (about one scene every 5.6 s) for any other length. */
export function sceneCountFor(durationSeconds: number): number {
  const exact = (SCENES_PER_DURATION as Record<number, number>)[durationSeconds];
  if (exact !== undefined) return exact;
  return Math.max(1, Math.round(durationSeconds / 5.6));
}

/**
 * How many scenes and words a narration needs so that, spoken at `wordsPerMinute` in `language`,
 * it fills the duration but ends about a second before the video does. A rate measured for this
 * voice in this language (`measuredRate`) is used as it is; a nominal one is scaled per language.
 */
export function planStory(durationSeconds: number, wordsPerMinute: number, language: string, { measuredRate = false } = {}): StoryPlan {
  if (!(durationSeconds > 0)) throw new RangeError('durationSeconds must be positive');
  if (!(wordsPerMinute > 0)) throw new RangeError('wordsPerMinute must be positive');
  const factor = measuredRate ? 1 : languageRateFactor(language);
  const speakingSeconds = Math.max(durationSeconds - END_BREATHING_ROOM_SECONDS, durationSeconds * 0.5);
  const targetWords = Math.max(5, Math.round((speakingSeconds / 60) * wordsPerMinute * factor));
  return { sceneCount: sceneCountFor(durationSeconds), targetWords };
}

const JAPANESE_CHARS_PER_WORD = 2.5;
const SPACELESS_LANGUAGES = new Set(['ja', 'zh']);

/**
 * Narration length in budget words. Space-separated languages count words; Japanese and Chinese
 * count non-punctuation characters / 2.5, which tracks how long the voices take to say them.
 */
export function countNarrationWords(text: string, language: string): number {
  if (SPACELESS_LANGUAGES.has(language.toLowerCase().slice(0, 2))) {
    const chars = text.replace(/[\s\p{P}\p{S}]/gu, '').length;
    return chars / JAPANESE_CHARS_PER_WORD;
  }
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
}

/**
 * The most words a story of `durationSeconds` may have, counted as the storyboard editor and
 * `PUT /api/videos/:id/storyboard` count them (the contracts' narrationBudget): every writer stays
 * within it, so a fresh video's storyboard can always be saved back unchanged. The pacing plan
 * (planStory, counted with countNarrationWords above) may aim lower, never higher.
 */
export function storyWordCap(durationSeconds: number): number {
  return narrationBudget([], durationSeconds).limit;
}

/** A story's narration in the editor's words: what storyWordCap is compared with. */
export function storyWordsAsEdited(narrations: readonly string[]): number {
  return narrationBudget(
    narrations.map((narration) => ({ narration })),
    0,
  ).words;
}

/** The word budget to ask a writer for: the plan's, but never more than the editor accepts. */
export function cappedTargetWords(targetWords: number, durationSeconds: number): number {
  return Math.max(1, Math.min(targetWords, storyWordCap(durationSeconds)));
}
