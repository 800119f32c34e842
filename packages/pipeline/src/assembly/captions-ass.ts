import { writeFileSync } from 'node:fs';
import type { CaptionStyle } from '@reelsmith/contracts';
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
}

const STYLES: Record<CaptionStyle, StyleSpec> = {
  tiktok: {
    bold: true, sizeShare: 0.088, primary: '#FFFFFF', outlineColour: '#000000', outlineAlpha: 0, backColour: '#000000', backAlpha: 0x60,
    borderStyle: 1, outline: 0.0065, shadow: 0.003, maxWords: 3, maxLines: 2, placement: 'lower-centre', transform: 'upper',
    highlight: '#FFE600', fadeMs: 0,
  },
  instagram: {
    bold: true, sizeShare: 0.06, primary: '#111111', outlineColour: '#FFFFFF', outlineAlpha: 0, backColour: '#000000', backAlpha: 0xa0,
    borderStyle: 3, outline: 0.012, shadow: 0, maxWords: 5, maxLines: 2, placement: 'lower-centre', transform: 'none',
    highlight: null, fadeMs: 90,
  },
  youtube: {
    bold: false, sizeShare: 0.05, primary: '#FFFFFF', outlineColour: '#000000', outlineAlpha: 0x40, backColour: '#000000', backAlpha: 0xff,
    borderStyle: 3, outline: 0.008, shadow: 0, maxWords: 9, maxLines: 2, placement: 'bottom', transform: 'none',
    highlight: null, fadeMs: 0,
  },
  netflix: {
    bold: false, sizeShare: 0.054, primary: '#FFFFFF', outlineColour: '#101010', outlineAlpha: 0x20, backColour: '#000000', backAlpha: 0x70,
    borderStyle: 1, outline: 0.0022, shadow: 0.0025, maxWords: 10, maxLines: 2, placement: 'bottom', transform: 'none',
    highlight: null, fadeMs: 0,
  },
  minimal: {
    bold: false, sizeShare: 0.042, primary: '#FFFFFF', outlineColour: '#000000', outlineAlpha: 0x90, backColour: '#000000', backAlpha: 0x90,
    borderStyle: 1, outline: 0.0015, shadow: 0.002, maxWords: 5, maxLines: 1, placement: 'bottom', transform: 'lower',
    highlight: null, fadeMs: 150,
  },
};

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
    return { marginLeft: Math.round(width * 0.08), marginRight: Math.round(width * 0.08), marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.2 : 0.1)) };
  }
  return { marginLeft: Math.round(width * 0.1), marginRight: Math.round(width * 0.1), marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.16 : 0.08)) };
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
  const spec = STYLES[options.style];
  const { width, height, font } = options;
  const fontSize = Math.round(Math.min(width, height) * spec.sizeShare);
  const safe = captionSafeArea(width, height, spec.placement);
  const outlinePx = Math.min(width, height) * spec.outline;
  const maxLineWidth = width - safe.marginLeft - safe.marginRight - 2 * outlinePx;
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
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const candidate = [...current, word];
    if (current.length > 0 && (candidate.length > maxWords || layout(candidate) === null)) flush();
    current.push(word);
    const next = words[index + 1];
    const pause = next ? next.start - word.end : 0;
    const softLimit = Math.ceil(maxWords / 2);
    if (SENTENCE_END.test(word.word) || pause > 0.6 || (CLAUSE_END.test(word.word) && current.length >= softLimit)) flush();
  }
  flush();
  // Hold each group until the next one starts unless the speaker pauses long enough to clear the screen.
  for (let index = 0; index < groups.length - 1; index++) {
    const group = groups[index]!;
    const next = groups[index + 1]!;
    if (next.start - group.end < 0.5) group.end = next.start;
    else group.end = Math.min(next.start, group.end + 0.4);
  }
  return groups;
}

function transformWord(word: string, transform: StyleSpec['transform'], language: string): string {
  if (transform === 'upper') return word.toLocaleUpperCase(language);
  if (transform === 'lower') return word.toLocaleLowerCase(language);
  return word;
}

/** Builds the whole ASS document (styles sized for the frame, one or more Dialogue lines per group). */
export function buildCaptionsAss(options: CaptionOptions): string {
  const spec = STYLES[options.style];
  const { width, height, font } = options;
  const base = Math.min(width, height);
  const fontSize = Math.round(base * spec.sizeShare);
  const safe = captionSafeArea(width, height, spec.placement);
  const joiner = font.script === 'cjk' ? '' : ' ';
  const style = [
    'Caption',
    font.family,
    fontSize,
    assColour(spec.primary),
    assColour(spec.highlight ?? spec.primary),
    assColour(spec.outlineColour, spec.outlineAlpha),
    assColour(spec.backColour, spec.backAlpha),
    spec.bold ? -1 : 0,
    0, 0, 0, 100, 100,
    font.script === 'latin' && spec.transform === 'upper' ? 1 : 0,
    0,
    spec.borderStyle,
    (base * spec.outline).toFixed(1),
    (base * spec.shadow).toFixed(1),
    2,
    safe.marginLeft,
    safe.marginRight,
    safe.marginBottom,
    1,
  ].join(',');

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
    `Style: ${style}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}

export function writeCaptionsAss(path: string, options: CaptionOptions): void {
  writeFileSync(path, buildCaptionsAss(options), 'utf8');
}
