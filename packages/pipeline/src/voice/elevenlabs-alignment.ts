import type { WordTiming } from '../providers/types.js';
import { tokenizeWords } from './word-timing-tokenize.js';

/** ElevenLabs' character alignment: three parallel arrays, one entry per character of the text. */
export interface CharacterAlignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

/**
 * Groups character timings into caption words with the same word rules as the estimate (spaces,
 * or Intl.Segmenter for Chinese/Japanese). A word runs from its first character's start to its last
 * character's end. Returns [] when the alignment holds no words.
 */
export function alignmentToWordTimings(alignment: CharacterAlignment, language: string): WordTiming[] {
  const { characters, character_start_times_seconds: starts, character_end_times_seconds: ends } = alignment;
  const count = Math.min(characters.length, starts.length, ends.length);
  // Characters may be more than one UTF-16 unit (astral code points), so map text offsets back to indices.
  const charIndexAtOffset: number[] = [];
  let text = '';
  for (let index = 0; index < count; index += 1) {
    const character = characters[index] ?? '';
    for (let unit = 0; unit < character.length; unit += 1) charIndexAtOffset.push(index);
    text += character;
  }

  const words: WordTiming[] = [];
  let previousEnd = 0;
  for (const token of tokenizeWords(text, language)) {
    const first = charIndexAtOffset[token.start];
    const last = charIndexAtOffset[token.end - 1];
    if (first === undefined || last === undefined) continue;
    const start = Math.max(starts[first] ?? previousEnd, previousEnd);
    const end = Math.max(ends[last] ?? start, start);
    words.push({ word: token.word, start: round(start), end: round(end) });
    previousEnd = end;
  }
  return words;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
