import type { WordTiming } from '../providers/types.js';
import { tokenizeWords } from './word-timing-tokenize.js';

const MORA_CHARS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;
const VOWEL_GROUPS = /[aeiouyáàâäãåāéèêëēíìîïīóòôöõøōúùûüūýÿæœαεηιουωаеёиоуыэюяії]+/giu;
const DEVANAGARI_SYLLABLES = /[\u0904-\u0939\u0958-\u0961]/gu;
const DIGITS = /\p{N}/gu;
const LETTERS = /\p{L}/gu;
const SENTENCE_END = /[.!?。！？…]["'”’»」』)]*$/u;
const CLAUSE_END = /[,;:、，；：—–-]["'”’»」』)]*$/u;

/** Pauses in syllables: a narrator breathes at a full stop and hesitates at a comma. */
const SENTENCE_PAUSE = 1.6;
const CLAUSE_PAUSE = 0.8;
/** Even a one-syllable word takes a moment, and the gap between words is never zero. */
const WORD_BASE = 0.35;

/**
 * Word timings for audio whose provider gave none: the duration is shared out by each word's
 * syllable-ish weight, with pauses after punctuation. Never empty; the last word ends exactly at
 * `durationSeconds`.
 */
export function estimateWordTimings(text: string, durationSeconds: number, language: string): WordTiming[] {
  const words = tokenizeWords(text, language).map((token) => token.word);
  if (words.length === 0) return [{ word: text.trim(), start: 0, end: round(Math.max(0, durationSeconds)) }];
  return estimateTimingsForWords(words, durationSeconds);
}

/** The same estimate for words already split (the offline voice splits them for espeak itself). */
export function estimateTimingsForWords(words: readonly string[], durationSeconds: number): WordTiming[] {
  const duration = Math.max(0, durationSeconds);
  const weights = words.map((word, index) => ({
    speech: speechWeight(word),
    pause: index === words.length - 1 ? 0 : pauseWeight(word),
  }));
  const total = weights.reduce((sum, weight) => sum + weight.speech + weight.pause, 0);
  const secondsPerUnit = total > 0 ? duration / total : 0;

  let cursor = 0;
  return words.map((word, index) => {
    const weight = weights[index]!;
    const start = cursor;
    const end = index === words.length - 1 ? duration : start + weight.speech * secondsPerUnit;
    cursor = end + weight.pause * secondsPerUnit;
    // Rounding never pushes a word past the end of the audio.
    return { word, start: Math.min(round(start), duration), end: Math.min(round(end), duration) };
  });
}

/** How long a word takes to say, relative to others: its syllables and a moment of its own. */
export function speechWeight(word: string): number {
  return WORD_BASE + syllableWeight(word);
}

export function syllableWeight(word: string): number {
  const morae = word.match(MORA_CHARS)?.length ?? 0;
  const vowelGroups = word.match(VOWEL_GROUPS)?.length ?? 0;
  const devanagari = word.match(DEVANAGARI_SYLLABLES)?.length ?? 0;
  const digits = word.match(DIGITS)?.length ?? 0;
  const counted = morae + vowelGroups + devanagari + digits;
  if (counted > 0) return counted;
  const letters = word.match(LETTERS)?.length ?? 0;
  return Math.max(1, letters / 3);
}

function pauseWeight(word: string): number {
  if (SENTENCE_END.test(word)) return SENTENCE_PAUSE;
  if (CLAUSE_END.test(word)) return CLAUSE_PAUSE;
  return 0;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
