import { writeFileSync } from 'node:fs';
import { captionTemplate, isCaptionTemplate, type CaptionStyle, type CaptionTemplateId, type SpecCaptionStyle } from '@reelsmith/contracts';
import type { WordTiming } from '../providers/types.js';
import type { CaptionFont } from './caption-fonts.js';
import { createTextMeasurer } from './text-measure.js';

/** ASS colours are &HAABBGGRR with alpha 00 = opaque. */
function assColour(rgb: string, alpha = 0): string {
  const hex = rgb.replace('#', '');
  const r = hex.slice(0, 2);
  const g = hex.slice(2, 4);
  const b = hex.slice(4, 6);
  return `&H${alpha.toString(16).padStart(2, '0').toUpperCase()}${b}${g}${r}`.toUpperCase();
}

interface StyleSpec {
  bold: boolean;
  /** Font size (ASS: line height in pixels) as a share of the frame's shorter side. */
  sizeShare: number;
  primary: string;
  outlineColour: string;
  outlineAlpha: number;
  backColour: string;
  backAlpha: number;
  /** 1 = outline + shadow, 3 = opaque box (the box takes OutlineColour, its padding is Outline). */
  borderStyle: 1 | 3;
  outline: number;
  shadow: number;
  maxWords: number;
  maxLines: number;
  /** Where the text sits: lower third for feeds, the usual subtitle band otherwise. */
  placement: 'lower-centre' | 'bottom';
  transform: 'upper' | 'lower' | 'none';
  highlight: string | null;
  fadeMs: number;
  /** Largest scale an animation gives a word; lines are broken so that the word still fits. */
  peakScale?: number;
}

const STYLES: Record<SpecCaptionStyle, StyleSpec> = {
  tiktok: {
    bold: true,
    sizeShare: 0.088,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0x60,
    borderStyle: 1,
    outline: 0.0065,
    shadow: 0.003,
    maxWords: 3,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'upper',
    highlight: '#FFE600',
    fadeMs: 0,
  },
  instagram: {
    bold: true,
    sizeShare: 0.06,
    primary: '#111111',
    outlineColour: '#FFFFFF',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0xa0,
    borderStyle: 3,
    outline: 0.012,
    shadow: 0,
    maxWords: 5,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 90,
  },
  youtube: {
    bold: false,
    sizeShare: 0.05,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0x40,
    backColour: '#000000',
    backAlpha: 0xff,
    borderStyle: 3,
    outline: 0.008,
    shadow: 0,
    maxWords: 9,
    maxLines: 2,
    placement: 'bottom',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
  },
  netflix: {
    bold: false,
    sizeShare: 0.054,
    primary: '#FFFFFF',
    outlineColour: '#101010',
    outlineAlpha: 0x20,
    backColour: '#000000',
    backAlpha: 0x70,
    borderStyle: 1,
    outline: 0.0022,
    shadow: 0.0025,
    maxWords: 10,
    maxLines: 2,
    placement: 'bottom',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
  },
  minimal: {
    bold: false,
    sizeShare: 0.042,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0x90,
    backColour: '#000000',
    backAlpha: 0x90,
    borderStyle: 1,
    outline: 0.0015,
    shadow: 0.002,
    maxWords: 5,
    maxLines: 1,
    placement: 'bottom',
    transform: 'lower',
    highlight: null,
    fadeMs: 150,
  },
};

/** The layout each template animates: bold, lower third, a few words at a time. */
const TEMPLATE_STYLES: Record<CaptionTemplateId, StyleSpec> = {
  'word-pop': {
    bold: true,
    sizeShare: 0.085,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0x60,
    borderStyle: 1,
    outline: 0.0065,
    shadow: 0.003,
    maxWords: 3,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'upper',
    highlight: null,
    fadeMs: 0,
  },
  bounce: {
    bold: true,
    sizeShare: 0.08,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0x60,
    borderStyle: 1,
    outline: 0.0065,
    shadow: 0.003,
    maxWords: 3,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
    peakScale: 1.18,
  },
  karaoke: {
    bold: true,
    sizeShare: 0.068,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0x80,
    borderStyle: 1,
    outline: 0.006,
    shadow: 0.002,
    maxWords: 5,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
  },
  'box-highlight': {
    bold: true,
    sizeShare: 0.072,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0xff,
    borderStyle: 1,
    outline: 0.005,
    shadow: 0,
    maxWords: 4,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
  },
  'one-word': {
    bold: true,
    sizeShare: 0.13,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0x60,
    borderStyle: 1,
    outline: 0.008,
    shadow: 0.004,
    maxWords: 1,
    maxLines: 1,
    placement: 'lower-centre',
    transform: 'upper',
    highlight: null,
    fadeMs: 0,
  },
  typewriter: {
    bold: true,
    sizeShare: 0.062,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0xff,
    borderStyle: 1,
    outline: 0.0055,
    shadow: 0,
    maxWords: 6,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
  },
  keyword: {
    bold: true,
    sizeShare: 0.075,
    primary: '#FFFFFF',
    outlineColour: '#000000',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0x60,
    borderStyle: 1,
    outline: 0.006,
    shadow: 0.003,
    maxWords: 4,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'upper',
    highlight: null,
    fadeMs: 0,
    peakScale: 1.08,
  },
  'neon-glow': {
    bold: true,
    sizeShare: 0.078,
    primary: '#FFFFFF',
    outlineColour: '#101010',
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0xff,
    borderStyle: 1,
    outline: 0.005,
    shadow: 0,
    maxWords: 3,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
    peakScale: 1.04,
  },
};

function specFor(style: CaptionStyle): StyleSpec {
  return isCaptionTemplate(style) ? TEMPLATE_STYLES[style] : STYLES[style];
}

export interface SafeArea {
  marginLeft: number;
  marginRight: number;
  /** Distance from the bottom edge to the caption's baseline box. */
  marginBottom: number;
}

/**
 * Keeps captions clear of each platform's overlays: in 9:16 the TikTok/Reels/Shorts UI covers the
 * bottom ~20% and a column of buttons on the right; 16:9 and 1:1 only need a title-safe border.
 */
export function captionSafeArea(width: number, height: number, placement: StyleSpec['placement']): SafeArea {
  const portrait = height > width * 1.3;
  const square = !portrait && height > width * 0.8;
  if (portrait) {
    return {
      marginLeft: Math.round(width * 0.09),
      marginRight: Math.round(width * 0.15),
      marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.3 : 0.22)),
    };
  }
  if (square) {
    return {
      marginLeft: Math.round(width * 0.08),
      marginRight: Math.round(width * 0.08),
      marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.2 : 0.1)),
    };
  }
  return {
    marginLeft: Math.round(width * 0.1),
    marginRight: Math.round(width * 0.1),
    marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.16 : 0.08)),
  };
}

/** Colour for \\c overrides: &HBBGGRR&. */
function overrideColour(rgb: string): string {
  const hex = rgb.replace('#', '');
  return `&H${hex.slice(4, 6)}${hex.slice(2, 4)}${hex.slice(0, 2)}&`.toUpperCase();
}

function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

/** Braces start override blocks and backslashes escapes in ASS; neither may come from the narration. */
function escapeAss(text: string): string {
  return text.replace(/\\/g, '\uFF3C').replace(/\{/g, '(').replace(/\}/g, ')').replace(/\r?\n/g, ' ');
}

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

/** The end card fades in over this long. */
const END_CARD_FADE_MS = 200;

/**
 * The top edge of the band the captions may fill (their tallest group, popped words included), so
 * the logo and the end card can be kept out of it.
 */
export function captionBandTop(style: CaptionStyle, width: number, height: number): number {
  const spec = specFor(style);
  const base = Math.min(width, height);
  const fontSize = base * spec.sizeShare;
  const safe = captionSafeArea(width, height, spec.placement);
  return Math.floor(height - safe.marginBottom - spec.maxLines * fontSize * Math.max(spec.peakScale ?? 1, 1.08) - 2 * base * spec.outline);
}

/** Dark text on a light accent, white on a dark one (WCAG relative luminance). */
function readableOn(rgb: string): string {
  const channel = (offset: number) => {
    const value = Number.parseInt(rgb.slice(1 + offset, 3 + offset), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return luminance > 0.4 ? '#111111' : '#FFFFFF';
}

/** The end card: the brand's text on an accent box on the closing card (no captions are drawn on it). */
function endCardBody(options: CaptionOptions): AssBody | null {
  const card = options.endCard;
  if (!card || card.end <= Math.max(0, card.start)) return null;
  const { width, height } = options;
  const accent = options.accentColor ?? '#FFE600';
  const spec: StyleSpec = {
    bold: true,
    sizeShare: 0.07,
    primary: readableOn(accent),
    outlineColour: accent,
    outlineAlpha: 0,
    backColour: '#000000',
    backAlpha: 0xff,
    borderStyle: 3,
    outline: 0.03,
    shadow: 0,
    maxWords: 0,
    maxLines: 2,
    placement: 'lower-centre',
    transform: 'none',
    highlight: null,
    fadeMs: 0,
  };
  const style = styleLine('EndCard', spec, options);
  const into = -Math.min(0, card.start) * 1000;
  const fade =
    into >= END_CARD_FADE_MS
      ? ''
      : `\\alpha&H${Math.round(255 * (1 - into / END_CARD_FADE_MS))
          .toString(16)
          .padStart(2, '0')
          .toUpperCase()}&\\t(0,${Math.round(END_CARD_FADE_MS - into)},\\alpha&H00&)`;
  // At 40% of the height, where a title sits: below the platforms' top UI zone and above their
  // description and buttons (the captions ended with the narration, so the band below stays empty).
  const base = Math.min(width, height);
  const y = Math.round(Math.min(height * 0.4, captionBandTop(options.style, width, height) - base * 0.12));
  const text = `{\\an5\\pos(${Math.round(width / 2)},${y})${fade}}${escapeAss(card.text)}`;
  return { styles: [style], events: [`Dialogue: 2,${assTime(Math.max(0, card.start))},${assTime(card.end)},EndCard,,0,0,0,,${text}`] };
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

function styleLine(
  name: string,
  spec: StyleSpec,
  options: CaptionOptions,
  overrides: {
    primary?: string;
    secondary?: string;
    outlineColour?: string;
    primaryAlpha?: number;
    outlineAlpha?: number;
    borderStyle?: 1 | 3;
    outline?: number;
    shadow?: number;
  } = {},
): string {
  const { width, height, font } = options;
  const base = Math.min(width, height);
  const safe = captionSafeArea(width, height, spec.placement);
  return [
    name,
    spec.bold ? (font.boldFamily ?? font.family) : font.family,
    Math.round(base * spec.sizeShare),
    assColour(overrides.primary ?? spec.primary, overrides.primaryAlpha ?? 0),
    assColour(overrides.secondary ?? spec.highlight ?? spec.primary),
    assColour(overrides.outlineColour ?? spec.outlineColour, overrides.outlineAlpha ?? spec.outlineAlpha),
    assColour(spec.backColour, spec.backAlpha),
    spec.bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    font.script === 'latin' && spec.transform === 'upper' ? 1 : 0,
    0,
    overrides.borderStyle ?? spec.borderStyle,
    (overrides.outline ?? base * spec.outline).toFixed(1),
    (overrides.shadow ?? base * spec.shadow).toFixed(1),
    2,
    safe.marginLeft,
    safe.marginRight,
    safe.marginBottom,
    1,
  ].join(',');
}

/** Builds the whole ASS document (styles sized for the frame, one or more Dialogue lines per group). */
export function buildCaptionsAss(options: CaptionOptions): string {
  if (isCaptionTemplate(options.style)) return assDocument(options, buildTemplate(options.style, options));
  return assDocument(options, buildSpecStyle(options));
}

function buildSpecStyle(options: CaptionOptions): AssBody {
  const spec = specFor(options.style);
  const { font } = options;
  const joiner = font.script === 'cjk' ? '' : ' ';
  const style = styleLine('Caption', spec, options);

  const events: string[] = [];
  const fade = spec.fadeMs > 0 ? `{\\fad(${spec.fadeMs},0)}` : '';
  for (const group of groupCaptions(options)) {
    const scale = group.scale < 100 ? `{\\fscx${group.scale}\\fscy${group.scale}}` : '';
    if (!spec.highlight) {
      const text = group.lines.map((line) => escapeAss(line.join(joiner))).join('\\N');
      events.push(`Dialogue: 0,${assTime(group.start)},${assTime(group.end)},Caption,,0,0,0,,${fade}${scale}${text}`);
      continue;
    }
    // Word-by-word: one Dialogue per spoken word, the current word recoloured and popped slightly.
    const highlight = overrideColour(spec.highlight);
    const normal = overrideColour(spec.primary);
    let flatIndex = 0;
    const positions = group.lines.map((line) => line.map(() => flatIndex++));
    for (let current = 0; current < group.words.length; current++) {
      const start = current === 0 ? group.start : group.words[current]!.start;
      const end = current === group.words.length - 1 ? group.end : group.words[current + 1]!.start;
      if (end <= start) continue;
      const text = group.lines
        .map((line, lineIndex) =>
          line
            .map((word, wordIndex) =>
              positions[lineIndex]![wordIndex] === current
                ? `{\\c${highlight}\\fscx${Math.round(group.scale * 1.08)}\\fscy${Math.round(group.scale * 1.08)}}${escapeAss(word)}{\\c${normal}\\fscx${group.scale}\\fscy${group.scale}}`
                : escapeAss(word),
            )
            .join(joiner),
        )
        .join('\\N');
      events.push(`Dialogue: 0,${assTime(start)},${assTime(end)},Caption,,0,0,0,,${scale}${text}`);
    }
  }
  return { styles: [style], events };
}

interface AssBody {
  styles: string[];
  events: string[];
}

/** Milliseconds a word takes to grow or pop in: quick enough to finish on the shortest words. */
const POP_MS = 120;

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
 * A template as ASS: per spoken word one Dialogue (or one per group for karaoke), every effect an
 * override tag on a whole word. Transform times (\\t) count from the Dialogue's start, which is the
 * word's own start; scene segments draw the same lines on the video's own clock (captionsAssWindow),
 * so a word animating across a cut continues where it was.
 */
function buildTemplate(id: CaptionTemplateId, options: CaptionOptions): AssBody {
  const spec = TEMPLATE_STYLES[id];
  const template = captionTemplate(id)!;
  const accent = options.accentColor ?? template.defaultAccent;
  const c = overrideColour(accent);
  const white = overrideColour(spec.primary);
  const base = Math.min(options.width, options.height);
  const outline = base * spec.outline;
  const joiner = options.font.script === 'cjk' ? '' : ' ';
  const events: string[] = [];
  const styles = [
    styleLine(
      'Caption',
      spec,
      options,
      id === 'karaoke' ? { primary: accent, secondary: spec.primary } : id === 'one-word' ? { primary: accent } : {},
    ),
  ];
  if (id === 'box-highlight') {
    // The box is a layer of its own under the text: an opaque-box style whose text and box are
    // invisible but for the current word's box, so the words above keep their outline.
    styles.push(
      styleLine('CaptionBox', spec, options, {
        primaryAlpha: 0xff,
        outlineColour: accent,
        outlineAlpha: 0xff,
        borderStyle: 3,
        outline: base * 0.014,
        shadow: 0,
      }),
    );
  }
  const dialogue = (layer: number, start: number, end: number, styleName: string, text: string) =>
    events.push(`Dialogue: ${layer},${assTime(start)},${assTime(end)},${styleName},,0,0,0,,${text}`);

  for (const group of groupCaptions(options)) {
    const s = group.scale;
    const scaled = (factor: number) => `\\fscx${Math.round(s * factor)}\\fscy${Math.round(s * factor)}`;
    const prefix = s < 100 ? `{${scaled(1)}}` : '';
    let flat = 0;
    const lines = group.lines.map((line) => line.map((word) => ({ word, index: flat++ })));
    const keys = id === 'keyword' ? keywordIndexes(group.words.map((w) => w.word)) : new Set<number>();

    if (id === 'karaoke') {
      // One Dialogue for the group; \\kf sweeps the fill (PrimaryColour, the accent) across each word
      // over its spoken time, with silent \\k gaps between words.
      let cursor = Math.round(group.start * 100);
      const text = lines
        .map((line) =>
          line
            .map(({ word, index }) => {
              const timing = group.words[index]!;
              const from = Math.max(cursor, Math.round(timing.start * 100));
              const to = Math.max(from + 1, Math.round(timing.end * 100));
              const gap = from - cursor;
              cursor = to;
              return `${gap > 0 ? `{\\k${gap}}` : ''}{\\kf${to - from}}${escapeAss(word)}`;
            })
            .join(joiner),
        )
        .join('\\N');
      dialogue(0, group.start, group.end, 'Caption', prefix + text);
      continue;
    }

    for (let current = 0; current < group.words.length; current++) {
      const start = current === 0 ? group.start : group.words[current]!.start;
      const end = current === group.words.length - 1 ? group.end : group.words[current + 1]!.start;
      if (end <= start) continue;
      const pop = Math.max(1, Math.min(POP_MS, Math.round((end - start) * 1000)));
      const render = (decorate: (word: string, index: number) => string) =>
        prefix + lines.map((line) => line.map(({ word, index }) => decorate(escapeAss(word), index)).join(joiner)).join('\\N');
      switch (id) {
        case 'word-pop':
          dialogue(
            0,
            start,
            end,
            'Caption',
            render((word, index) =>
              index === current ? `{\\c${c}${scaled(0.8)}\\t(0,${pop},${scaled(1)})}${word}{\\c${white}${scaled(1)}}` : word,
            ),
          );
          break;
        case 'bounce': {
          const up = Math.max(1, Math.round(pop * 0.75));
          const settle = Math.max(up + 1, Math.min(Math.round((end - start) * 1000), 2 * POP_MS));
          dialogue(
            0,
            start,
            end,
            'Caption',
            render((word, index) =>
              index === current
                ? `{\\c${c}${scaled(0.75)}\\t(0,${up},${scaled(spec.peakScale!)})\\t(${up},${settle},${scaled(1)})}${word}{\\c${white}${scaled(1)}}`
                : word,
            ),
          );
          break;
        }
        case 'box-highlight':
          dialogue(
            0,
            start,
            end,
            'CaptionBox',
            render((word, index) => (index === current ? `{\\3a&H00&}${word}{\\3a&HFF&}` : word)),
          );
          dialogue(
            1,
            start,
            end,
            'Caption',
            render((word) => word),
          );
          break;
        case 'one-word':
          dialogue(
            0,
            start,
            end,
            'Caption',
            render((word) => `{${scaled(0.7)}\\t(0,${pop},${scaled(1)})}${word}`),
          );
          break;
        case 'typewriter':
          // Words not yet spoken are laid out but transparent, so the line never moves as it fills.
          dialogue(
            0,
            start,
            end,
            'Caption',
            render((word, index) =>
              index === current
                ? `{\\alpha&HFF&\\t(0,${Math.min(pop, 80)},\\alpha&H00&)}${word}`
                : index === current + 1
                  ? `{\\alpha&HFF&}${word}`
                  : word,
            ),
          );
          break;
        case 'keyword':
          dialogue(
            0,
            start,
            end,
            'Caption',
            render((word, index) => {
              const colour = keys.has(index) ? `\\c${c}` : '';
              if (index === current)
                return `{${colour}${scaled(0.92)}\\t(0,${pop},${scaled(spec.peakScale!)})}${word}{\\c${white}${scaled(1)}}`;
              return colour ? `{${colour}}${word}{\\c${white}}` : word;
            }),
          );
          break;
        case 'neon-glow': {
          const glow = (outline * 2.6).toFixed(1);
          dialogue(
            0,
            start,
            end,
            'Caption',
            render((word, index) =>
              index === current
                ? `{\\3c${c}\\blur2\\bord${outline.toFixed(1)}\\t(0,${Math.max(1, Math.round(pop * 1.5))},\\bord${glow}${scaled(spec.peakScale!)})}${word}{\\3c${overrideColour(spec.outlineColour)}\\blur0\\bord${outline.toFixed(1)}${scaled(1)}}`
                : word,
            ),
          );
          break;
        }
      }
    }
  }
  return { styles, events };
}

function assDocument(options: CaptionOptions, captions: AssBody): string {
  const { width, height } = options;
  const card = endCardBody(options);
  const styles = [...captions.styles, ...(card?.styles ?? [])];
  const events = [...captions.events, ...(card?.events ?? [])];
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    // We break lines ourselves from measured widths; libass must not re-wrap them.
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: None',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    ...styles.map((style) => `Style: ${style}`),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}

const DIALOGUE_TIMES = /^Dialogue: \d+,(\d+):(\d{2}):(\d{2})\.(\d{2}),(\d+):(\d{2}):(\d{2})\.(\d{2}),/;

/**
 * The document with only the Dialogue lines on screen at some moment of [from, to) seconds, their
 * times and tags untouched. A scene segment draws this (moved onto its own clock, shiftAssTimes) so
 * that a caption that began before its first frame is shown mid-way, as in one continuous pass.
 */
export function captionsAssWindow(document: string, from: number, to: number): { document: string; events: number } {
  let events = 0;
  const seconds = (h: string, m: string, s: string, cs: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(cs) / 100;
  const kept = document.split('\n').filter((line) => {
    if (!line.startsWith('Dialogue:')) return true;
    const match = DIALOGUE_TIMES.exec(line);
    if (!match) return false;
    const [, h1, m1, s1, c1, h2, m2, s2, c2] = match as unknown as string[];
    const on = seconds(h1!, m1!, s1!, c1!) < to && seconds(h2!, m2!, s2!, c2!) > from;
    if (on) events++;
    return on;
  });
  return { document: kept.join('\n'), events };
}

const DIALOGUE_TIME_FIELDS = /^(Dialogue: \d+,)(\d+:\d{2}:\d{2}\.\d{2}),(\d+:\d{2}:\d{2}\.\d{2}),/;

const assTimeCs = (time: string): number => {
  const [h, m, rest] = time.split(':');
  const [s, cs] = rest!.split('.');
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 100 + Number(cs);
};

/** When the document's first Dialogue line starts, in centiseconds (null: it has none). */
export function earliestDialogueCs(document: string): number | null {
  let earliest: number | null = null;
  for (const line of document.split('\n')) {
    const match = DIALOGUE_TIME_FIELDS.exec(line);
    if (match) earliest = Math.min(earliest ?? Infinity, assTimeCs(match[2]!));
  }
  return earliest;
}

/** The document with every Dialogue line moved by `shiftCs` centiseconds; tags inside a line are timed from its start and stay. */
export function shiftAssTimes(document: string, shiftCs: number): string {
  return document
    .split('\n')
    .map((line) =>
      line.replace(
        DIALOGUE_TIME_FIELDS,
        (_, head: string, start: string, end: string) =>
          `${head}${assTime((assTimeCs(start) + shiftCs) / 100)},${assTime((assTimeCs(end) + shiftCs) / 100)},`,
      ),
    )
    .join('\n');
}

export function writeCaptionsAss(path: string, options: CaptionOptions): void {
  writeFileSync(path, buildCaptionsAss(options), 'utf8');
}
