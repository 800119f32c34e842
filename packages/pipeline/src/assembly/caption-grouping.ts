import type { CaptionStyle } from '@reelsmith/contracts';
import type { WordTiming } from '../providers/types.js';
import type { CaptionFont } from './caption-fonts.js';
import { captionSafeArea, specFor, type StyleSpec } from './caption-presets.js';
import { createTextMeasurer } from './text-measure.js';

/**
 * Emoji and the marks that build them (variation selector, joiner, keycap, skin tones, flag
 * letters). No caption font has them (Noto Color Emoji is a bitmap font libass draws as empty
 * boxes), so captions leave them out: the voice does not say them either.
 */
const EMOJI = /[\p{Extended_Pictographic}\u{FE0E}\u{FE0F}\u{200D}\u{20E3}\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}\u{E0020}-\u{E007F}]/gu;

/** A word as captions show it: without emoji, and nothing at all when it was only emoji. */
export function captionWord(word: string): string {
  return word.replace(EMOJI, '').trim();
}

const SENTENCE_END = /[.!?。！？।…]["'”’)]*$/u;
const CLAUSE_END = /[,;:、，；：]["'”’)]*$/u;

export interface CaptionOptions {
  words: WordTiming[];
  style: CaptionStyle;
  language: string;
  width: number;
  height: number;
  font: CaptionFont;
  /** Captions never run past the video's end. */
  durationSeconds: number;
  /** The brand's accent (#RRGGBB) for the templates' highlight; each template has its own otherwise. */
  accentColor?: string | null;
  /**
   * The brand's end card, timed on this file's clock: a negative `start` means the card began
   * before the file's first moment, so it continues unfaded.
   */
  endCard?: { text: string; start: number; end: number } | null;
  /**
   * Where the pictures change, in seconds: a caption group never spans one and is cleared at it, so a
   * scene's captions are its own words only and an edit in one scene leaves the others' untouched.
   */
  cuts?: readonly number[];
}

export interface CaptionGroup {
  words: WordTiming[];
  lines: string[][];
  start: number;
  end: number;
  /** Horizontal shrink (percent) applied when a single word is wider than the safe area. */
  scale: number;
}

/** Splits the narration into on-screen groups that fit the safe width in at most maxLines lines. */
export function groupCaptions(options: CaptionOptions): CaptionGroup[] {
  const spec = specFor(options.style);
  const { width, height, font } = options;
  const fontSize = Math.round(Math.min(width, height) * spec.sizeShare);
  const safe = captionSafeArea(width, height, spec.placement);
  const outlinePx = Math.min(width, height) * spec.outline;
  const maxLineWidth = (width - safe.marginLeft - safe.marginRight - 2 * outlinePx) / (spec.peakScale ?? 1);
  const measure = createTextMeasurer(font, spec.bold, fontSize);
  const joiner = font.script === 'cjk' ? '' : ' ';
  const display = (word: string) => transformWord(word, spec.transform, options.language);
  const lineWidth = (line: WordTiming[]) => measure(line.map((w) => display(w.word)).join(joiner));
  // CJK words are short tokens; allow more of them per group.
  const maxWords = font.script === 'cjk' ? spec.maxWords * 2 : spec.maxWords;

  const layout = (group: WordTiming[]): { lines: WordTiming[][]; widest: number } | null => {
    const single = lineWidth(group);
    if (single <= maxLineWidth) return { lines: [group], widest: single };
    if (spec.maxLines < 2 || group.length < 2) return null;
    let best: { lines: WordTiming[][]; widest: number } | null = null;
    for (let split = 1; split < group.length; split++) {
      const top = group.slice(0, split);
      const bottom = group.slice(split);
      const widest = Math.max(lineWidth(top), lineWidth(bottom));
      if (widest <= maxLineWidth && (!best || widest < best.widest)) best = { lines: [top, bottom], widest };
    }
    return best;
  };

  const words = options.words
    .map((w) => ({ ...w, word: captionWord(w.word) }))
    .filter((w) => w.word !== '' && w.start < options.durationSeconds);
  const groups: CaptionGroup[] = [];
  let current: WordTiming[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const fitted = layout(current);
    const lines = fitted ? fitted.lines : [current];
    const widest = fitted ? fitted.widest : lineWidth(current);
    const first = current[0]!;
    const last = current[current.length - 1]!;
    groups.push({
      words: current,
      lines: lines.map((line) => line.map((w) => display(w.word))),
      start: first.start,
      end: Math.min(options.durationSeconds, Math.max(last.end, first.start + 0.3)),
      scale: widest > maxLineWidth ? Math.max(50, Math.floor((maxLineWidth / widest) * 100)) : 100,
    });
    current = [];
  };
  const cuts = [...(options.cuts ?? [])].sort((a, b) => a - b);
  /** The first cut after `seconds` (Infinity: none). */
  const cutAfter = (seconds: number) => cuts.find((cut) => cut > seconds) ?? Infinity;
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const candidate = [...current, word];
    if (current.length > 0 && (candidate.length > maxWords || layout(candidate) === null || word.start >= cutAfter(current[0]!.start)))
      flush();
    current.push(word);
    const next = words[index + 1];
    const pause = next ? next.start - word.end : 0;
    const softLimit = Math.ceil(maxWords / 2);
    if (SENTENCE_END.test(word.word) || pause > 0.6 || (CLAUSE_END.test(word.word) && current.length >= softLimit)) flush();
  }
  flush();
  // Hold each group until the next one starts unless the speaker pauses long enough to clear the
  // screen, and never past the next cut (on whole centiseconds, the file's resolution, at or before it).
  // The next scene's first group is not looked at: the cut stands in for it, so a scene's captions
  // never depend on when the next scene's first word falls, and re-voicing a scene leaves the
  // scene before it (and its cached segment) as it was.
  for (let index = 0; index < groups.length; index++) {
    const group = groups[index]!;
    const cut = cutAfter(group.start);
    const next = Math.min(groups[index + 1]?.start ?? Infinity, cut);
    if (next !== Infinity) group.end = next - group.end < 0.5 ? next : Math.min(next, group.end + 0.4);
    const clearAt = Math.floor(cut * 100) / 100;
    if (group.end > clearAt) group.end = Math.max(group.start + 0.01, clearAt);
  }
  return groups;
}

function transformWord(word: string, transform: StyleSpec['transform'], language: string): string {
  if (transform === 'upper') return word.toLocaleUpperCase(language);
  if (transform === 'lower') return word.toLocaleLowerCase(language);
  return word;
}

/** Words that read as keywords in any script: numbers, capitalised names inside a sentence, and the longest word. */
export function keywordIndexes(words: string[]): Set<number> {
  const keys = new Set<number>();
  let longest = -1;
  words.forEach((word, index) => {
    if (/\p{N}/u.test(word)) keys.add(index);
    else if (index > 0 && /^\p{Lu}/u.test(word) && !SENTENCE_END.test(words[index - 1]!)) keys.add(index);
    const letters = [...word.replace(/[\p{P}\p{S}]/gu, '')].length;
    if (longest < 0 || letters > [...words[longest]!.replace(/[\p{P}\p{S}]/gu, '')].length) longest = index;
  });
  // Without a tagger for every language, the longest word of the line stands for its main noun.
  if (longest >= 0) keys.add(longest);
  return keys;
}

/**
 * Each word of a group while it is the one being spoken: from its start (the group's, for the first)
 * to the next word's start (the group's end, for the last); a word given no time is left out.
 */
export function spokenWords(group: CaptionGroup): Array<{ current: number; start: number; end: number }> {
  const spoken: Array<{ current: number; start: number; end: number }> = [];
  for (let current = 0; current < group.words.length; current++) {
    const start = current === 0 ? group.start : group.words[current]!.start;
    const end = current === group.words.length - 1 ? group.end : group.words[current + 1]!.start;
    if (end > start) spoken.push({ current, start, end });
  }
  return spoken;
}
