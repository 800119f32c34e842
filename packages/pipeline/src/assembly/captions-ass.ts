import { writeFileSync } from 'node:fs';
import { captionTemplate, isCaptionTemplate, type CaptionTemplateId } from '@reelsmith/contracts';
import { groupCaptions, keywordIndexes, spokenWords, type CaptionGroup, type CaptionOptions } from './caption-grouping.js';
import { captionBandTop, captionSafeArea, preset, specFor, templateSpec, type StyleSpec } from './caption-presets.js';

/** ASS colours are &HAABBGGRR with alpha 00 = opaque. */
function assColour(rgb: string, alpha = 0): string {
  const hex = rgb.replace('#', '');
  const r = hex.slice(0, 2);
  const g = hex.slice(2, 4);
  const b = hex.slice(4, 6);
  return `&H${alpha.toString(16).padStart(2, '0').toUpperCase()}${b}${g}${r}`.toUpperCase();
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

/** The end card fades in over this long. */
const END_CARD_FADE_MS = 200;

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
  const spec = preset({
    sizeShare: 0.07,
    primary: readableOn(accent),
    outlineColour: accent,
    backAlpha: 0xff,
    borderStyle: 3,
    outline: 0.03,
    shadow: 0,
    maxWords: 0,
  });
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
    for (const { current, start, end } of spokenWords(group)) {
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

/** What a template's word effect knows of the word being spoken and of the template's look. */
interface SpokenWord {
  current: number;
  start: number;
  end: number;
  /** How long the word's pop takes (ms): POP_MS, or the word's own time when shorter. */
  pop: number;
  spec: StyleSpec;
  /** The accent and the text's own colour, as \\c override colours. */
  accent: string;
  white: string;
  /** The outline's width in pixels. */
  outline: number;
  /** The group's keywords (keyword template). */
  keys: Set<number>;
  /** \\fscx and \\fscy for the group's scale times `factor`. */
  scaled: (factor: number) => string;
}

/** How each template marks a word (escaped) on the line drawn while the word `current` is spoken. */
type WordEffect = (spoken: SpokenWord) => (word: string, index: number) => string;

const WORD_EFFECTS: Record<Exclude<CaptionTemplateId, 'karaoke' | 'box-highlight'>, WordEffect> = {
  'word-pop':
    ({ current, accent, white, pop, scaled }) =>
    (word, index) =>
      index === current ? `{\\c${accent}${scaled(0.8)}\\t(0,${pop},${scaled(1)})}${word}{\\c${white}${scaled(1)}}` : word,
  bounce: ({ current, start, end, pop, spec, accent, white, scaled }) => {
    const up = Math.max(1, Math.round(pop * 0.75));
    const settle = Math.max(up + 1, Math.min(Math.round((end - start) * 1000), 2 * POP_MS));
    return (word, index) =>
      index === current
        ? `{\\c${accent}${scaled(0.75)}\\t(0,${up},${scaled(spec.peakScale!)})\\t(${up},${settle},${scaled(1)})}${word}{\\c${white}${scaled(1)}}`
        : word;
  },
  'one-word':
    ({ pop, scaled }) =>
    (word) =>
      `{${scaled(0.7)}\\t(0,${pop},${scaled(1)})}${word}`,
  // Words not yet spoken are laid out but transparent, so the line never moves as it fills.
  typewriter:
    ({ current, pop }) =>
    (word, index) =>
      index === current
        ? `{\\alpha&HFF&\\t(0,${Math.min(pop, 80)},\\alpha&H00&)}${word}`
        : index === current + 1
          ? `{\\alpha&HFF&}${word}`
          : word,
  keyword:
    ({ current, pop, spec, accent, white, keys, scaled }) =>
    (word, index) => {
      const colour = keys.has(index) ? `\\c${accent}` : '';
      if (index === current) return `{${colour}${scaled(0.92)}\\t(0,${pop},${scaled(spec.peakScale!)})}${word}{\\c${white}${scaled(1)}}`;
      return colour ? `{${colour}}${word}{\\c${white}}` : word;
    },
  'neon-glow': ({ current, pop, spec, accent, outline, scaled }) => {
    const glow = (outline * 2.6).toFixed(1);
    return (word, index) =>
      index === current
        ? `{\\3c${accent}\\blur2\\bord${outline.toFixed(1)}\\t(0,${Math.max(1, Math.round(pop * 1.5))},\\bord${glow}${scaled(spec.peakScale!)})}${word}{\\3c${overrideColour(spec.outlineColour)}\\blur0\\bord${outline.toFixed(1)}${scaled(1)}}`
        : word;
  },
};

/** The template's styles: its caption (karaoke fills with the accent, one-word is the accent), and box-highlight's box. */
function templateStyles(id: CaptionTemplateId, spec: StyleSpec, accent: string, options: CaptionOptions): string[] {
  const overrides = id === 'karaoke' ? { primary: accent, secondary: spec.primary } : id === 'one-word' ? { primary: accent } : {};
  const styles = [styleLine('Caption', spec, options, overrides)];
  if (id === 'box-highlight') {
    // The box is a layer of its own under the text: an opaque-box style whose text and box are
    // invisible but for the current word's box, so the words above keep their outline.
    const base = Math.min(options.width, options.height);
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
  return styles;
}

/**
 * Karaoke's one line for the group: \\kf sweeps the fill (PrimaryColour, the accent) across each
 * word over its spoken time, with silent \\k gaps between words.
 */
function karaokeText(group: CaptionGroup, lines: Array<Array<{ word: string; index: number }>>, joiner: string): string {
  let cursor = Math.round(group.start * 100);
  return lines
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
}

/**
 * A template as ASS: per spoken word one Dialogue (or one per group for karaoke), every effect an
 * override tag on a whole word. Transform times (\\t) count from the Dialogue's start, which is the
 * word's own start; scene segments draw the same lines on the video's own clock (captionsAssWindow),
 * so a word animating across a cut continues where it was.
 */
function buildTemplate(id: CaptionTemplateId, options: CaptionOptions): AssBody {
  const spec = templateSpec(id);
  const accent = options.accentColor ?? captionTemplate(id)!.defaultAccent;
  const look = {
    spec,
    accent: overrideColour(accent),
    white: overrideColour(spec.primary),
    outline: Math.min(options.width, options.height) * spec.outline,
  };
  const joiner = options.font.script === 'cjk' ? '' : ' ';
  const events: string[] = [];
  const dialogue = (layer: number, start: number, end: number, styleName: string, text: string) =>
    events.push(`Dialogue: ${layer},${assTime(start)},${assTime(end)},${styleName},,0,0,0,,${text}`);

  for (const group of groupCaptions(options)) {
    const s = group.scale;
    const scaled = (factor: number) => `\\fscx${Math.round(s * factor)}\\fscy${Math.round(s * factor)}`;
    const prefix = s < 100 ? `{${scaled(1)}}` : '';
    let flat = 0;
    const lines = group.lines.map((line) => line.map((word) => ({ word, index: flat++ })));
    if (id === 'karaoke') {
      dialogue(0, group.start, group.end, 'Caption', prefix + karaokeText(group, lines, joiner));
      continue;
    }
    const keys = id === 'keyword' ? keywordIndexes(group.words.map((w) => w.word)) : new Set<number>();
    const render = (decorate: (word: string, index: number) => string) =>
      prefix + lines.map((line) => line.map(({ word, index }) => decorate(escapeAss(word), index)).join(joiner)).join('\\N');
    for (const { current, start, end } of spokenWords(group)) {
      const pop = Math.max(1, Math.min(POP_MS, Math.round((end - start) * 1000)));
      if (id === 'box-highlight') {
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
      } else {
        dialogue(0, start, end, 'Caption', render(WORD_EFFECTS[id]({ ...look, current, start, end, pop, keys, scaled })));
      }
    }
  }
  return { styles: templateStyles(id, spec, accent, options), events };
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
