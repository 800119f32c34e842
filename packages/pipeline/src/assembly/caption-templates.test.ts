import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CAPTION_STYLES,
  CAPTION_TEMPLATE_ANIMATES,
  CAPTION_TEMPLATES,
  CAPTION_TEMPLATE_IDS,
  type CaptionStyle,
} from '@reelsmith/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import type { WordTiming } from '../providers/types.js';
import { captionFontFor, prepareFontsDir } from './caption-fonts.js';
import { captionBandTop } from './caption-presets.js';
import { buildCaptionsAss } from './captions-ass.js';
import { defaultFfmpegBinaries } from './ffmpeg-binary.js';
import { inkBox, type InkBox } from './frame-test-ink.js';

/**
 * Each template rendered through libass exactly as the video step burns it in (the `ass` filter over
 * a plain background), then checked from its frames for what it promises.
 */
const W = 360;
const H = 640;
const FPS = 30;
const BG = [0x33, 0x55, 0x77] as const;
const dir = mkdtempSync(join(tmpdir(), 'caption-templates-'));
const ffmpeg = defaultFfmpegBinaries().ffmpegPath;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Rgb = readonly [number, number, number];
interface Frame {
  pixels: Uint8Array;
  top: number;
  height: number;
}

const timed = (words: string[], spacing = 0.5, length = 0.4): WordTiming[] =>
  words.map((word, i) => ({ word, start: i * spacing, end: i * spacing + length }));

let counter = 0;
/** Frames 0..count-1 (at 30 fps) of the caption band: the ASS drawn over a flat colour by the `ass` filter. */
function renderFrames(
  style: CaptionStyle,
  language: string,
  words: WordTiming[],
  count: number,
  extra: { accentColor?: string; text?: string } = {},
): Frame[] {
  const font = captionFontFor(language);
  const fonts = prepareFontsDir(font, join(dir, `fonts-${language}`));
  const name = `c${counter++}.ass`;
  const ass =
    extra.text ??
    buildCaptionsAss({ words, style, language, width: W, height: H, font, durationSeconds: 10, accentColor: extra.accentColor ?? null });
  writeFileSync(join(dir, name), ass);
  const top = Math.max(0, captionBandTop(style, W, H) - 40);
  const height = H - top;
  const raw = execFileSync(
    ffmpeg,
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x${BG.map((v) => v.toString(16)).join('')}:s=${W}x${H}:r=${FPS}`,
      '-vf',
      `ass=filename=${name}:fontsdir=${fonts.slice(dir.length + 1)},crop=${W}:${height}:0:${top}`,
      '-frames:v',
      String(count),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { cwd: dir, maxBuffer: 1 << 28 },
  );
  const size = W * height * 3;
  return Array.from({ length: count }, (_, index) => ({ pixels: raw.subarray(index * size, (index + 1) * size), top, height }));
}

const hex = (colour: string): Rgb => [1, 3, 5].map((offset) => Number.parseInt(colour.slice(offset, offset + 2), 16)) as unknown as Rgb;
const near =
  (target: Rgb, tolerance = 60) =>
  (r: number, g: number, b: number) =>
    Math.abs(r - target[0]) + Math.abs(g - target[1]) + Math.abs(b - target[2]) < tolerance;
const whiteish = (r: number, g: number, b: number) => r > 225 && g > 225 && b > 225;

type Box = InkBox;
const frameInk = (frame: Frame, match: (r: number, g: number, b: number) => boolean): Box =>
  inkBox(frame.pixels, W, [0, frame.height], match);
const height = (box: Box) => box.bottom - box.top + 1;
const width = (box: Box) => box.right - box.left + 1;

/** Two drawings of one word match in size and ink (anti-aliasing differs with the sub-pixel position). */
const sameGlyphRun = (a: Box, b: Box) =>
  Math.abs(width(a) - width(b)) <= 2 &&
  Math.abs(height(a) - height(b)) <= 2 &&
  Math.abs(a.count - b.count) <= Math.max(a.count, b.count) * 0.3;
const accentOf = (id: string) => hex(CAPTION_TEMPLATES.find((t) => t.id === id)!.defaultAccent);
const english = timed(['Seven', 'brave', 'keepers', 'waited', 'there', 'quietly']);

describe('caption templates in the contracts', () => {
  it('are eight or more, versioned, each with a name and what it animates, and never a spec style', () => {
    expect(CAPTION_TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(CAPTION_TEMPLATES.map((t) => t.id)).toEqual([...CAPTION_TEMPLATE_IDS]);
    for (const template of CAPTION_TEMPLATES) {
      expect(template.version).toBeGreaterThanOrEqual(1);
      expect(template.name.length).toBeGreaterThan(2);
      expect(CAPTION_TEMPLATE_ANIMATES[template.id].length).toBeGreaterThan(10);
      expect(CAPTION_STYLES as readonly string[]).not.toContain(template.id);
    }
  });

  it.each(['en', 'hi', 'ja'])('never puts an override tag inside a word (%s), so every script is shaped whole', (language) => {
    const words = {
      en: timed('The old lighthouse keeper heard 3 knocks'.split(' ')),
      hi: timed('पुराने प्रकाशस्तंभ के रखवाले ने क्षितिज देखा'.split(' ')),
      ja: timed(['灯台守', 'は', '真夜中', 'に', 'ノック', 'を', '聞いた']),
    }[language]!;
    const font = captionFontFor(language);
    for (const id of CAPTION_TEMPLATE_IDS) {
      const ass = buildCaptionsAss({ words, style: id, language, width: W, height: H, font, durationSeconds: 10 });
      const texts = ass
        .split('\n')
        .filter((line) => line.startsWith('Dialogue:'))
        .map((line) => line.split(',').slice(9).join(','));
      expect(texts.length, id).toBeGreaterThan(0);
      const plain = texts.map((text) => text.replace(/\{[^}]*\}/g, '').replace(/\\N/g, language === 'ja' ? '' : ' '));
      for (const word of words) {
        const shown =
          language === 'en' && (id === 'word-pop' || id === 'one-word' || id === 'keyword') ? word.word.toUpperCase() : word.word;
        expect(
          plain.some((text) => text.includes(shown)),
          `${id}: ${word.word}`,
        ).toBe(true);
      }
    }
  });
});

describe('caption templates, frame by frame', () => {
  it('word pop: the spoken word grows from 80% to full size in the accent colour', () => {
    const frames = renderFrames('word-pop', 'en', english, 22);
    const accent = near(accentOf('word-pop'));
    const start = frameInk(frames[0]!, accent);
    const mid = frameInk(frames[6]!, accent);
    expect(start.count).toBeGreaterThan(20);
    expect(height(mid)).toBeGreaterThan(height(start) * 1.12);
    expect(width(mid)).toBeGreaterThan(width(start) * 1.12);
    // The next word takes the colour: the accent moves right.
    expect(frameInk(frames[21]!, accent).cx).toBeGreaterThan(mid.cx + 10);
  });

  it('bounce: the spoken word overshoots past full size, then settles', () => {
    const frames = renderFrames('bounce', 'en', english, 10);
    const accent = near(accentOf('bounce'));
    const area = frames.map((frame) => frameInk(frame, accent).count);
    const peak = Math.max(...area.slice(2, 6));
    expect(peak).toBeGreaterThan(area[9]! * 1.15);
    expect(area[9]).toBeGreaterThan(area[0]! * 1.3);
  });

  it('karaoke: the accent sweeps through each word with its timing', () => {
    const frames = renderFrames('karaoke', 'en', english, 24);
    const accent = near(accentOf('karaoke'));
    const early = frameInk(frames[2]!, accent);
    const late = frameInk(frames[10]!, accent);
    expect(early.count).toBeGreaterThan(0);
    expect(late.right).toBeGreaterThan(early.right + 8);
    expect(late.count).toBeGreaterThan(early.count * 1.5);
    // The first word is filled, the second partly, the rest still white.
    const second = frameInk(frames[22]!, accent);
    expect(second.right).toBeGreaterThan(late.right + 8);
    expect(frameInk(frames[22]!, whiteish).right).toBeGreaterThan(second.right);
  });

  it('box highlight: a box in the accent colour moves from word to word', () => {
    const frames = renderFrames('box-highlight', 'en', english, 40);
    const accent = near(accentOf('box-highlight'));
    const boxes = [6, 21, 36].map((n) => frameInk(frames[n]!, accent));
    for (const box of boxes) expect(box.count).toBeGreaterThan(150);
    expect(boxes[1]!.cx).toBeGreaterThan(boxes[0]!.cx + 15);
    expect(boxes[2]!.cx).toBeGreaterThan(boxes[1]!.cx + 15);
    // The words stay readable on top of the box.
    expect(frameInk(frames[6]!, whiteish).count).toBeGreaterThan(100);
  });

  it('one word: a single word at a time, popping in', () => {
    const frames = renderFrames('one-word', 'en', english, 24);
    const group = renderFrames('word-pop', 'en', english, 7);
    const accent = near(accentOf('one-word'), 30);
    const first = frameInk(frames[6]!, accent);
    const second = frameInk(frames[21]!, accent);
    expect(width(first)).not.toBe(width(second));
    // Narrower than the three-word line of word pop, though drawn larger.
    expect(width(first)).toBeLessThan(width(frameInk(group[6]!, whiteish)) * 0.8);
    expect(height(first)).toBeGreaterThan(height(frameInk(frames[0]!, accent)) + 3);
  });

  it('typewriter: words appear one after another and the line does not move', () => {
    const frames = renderFrames('typewriter', 'en', english, 70);
    const boxes = [6, 21, 36, 66].map((n) => frameInk(frames[n]!, whiteish));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.count).toBeGreaterThan(boxes[i - 1]!.count * 1.15);
    // The first word stays where it was drawn first.
    expect(Math.abs(boxes[3]!.left - boxes[0]!.left)).toBeLessThanOrEqual(1);
  });

  it('two-tone keywords: numbers and the main word keep the accent while other words are spoken', () => {
    const words = timed(['we', 'found', '42', 'old', 'keys']);
    const frames = renderFrames('keyword', 'en', words, 50);
    const accent = near(accentOf('keyword'));
    const atFirst = frameInk(frames[6]!, accent);
    const atLast = frameInk(frames[45]!, accent);
    expect(atFirst.count).toBeGreaterThan(50);
    expect(atLast.count).toBeGreaterThan(50);
    // "we" (spoken first) is white, not a keyword.
    expect(atFirst.left).toBeGreaterThan(frameInk(frames[6]!, whiteish).left + 5);
  });

  it('neon glow: the spoken word gets a growing accent glow', () => {
    const frames = renderFrames('neon-glow', 'en', english, 10);
    const glow = near(accentOf('neon-glow'), 120);
    expect(frameInk(frames[8]!, glow).count).toBeGreaterThan(frameInk(frames[0]!, glow).count * 1.3);
  });

  it('takes the brand accent for the highlight', () => {
    const frames = renderFrames('word-pop', 'en', english, 7, { accentColor: '#00FF00' });
    expect(frameInk(frames[6]!, near([0, 255, 0])).count).toBeGreaterThan(50);
    expect(frameInk(frames[6]!, near(accentOf('word-pop'))).count).toBe(0);
  });
});

describe('caption templates keep Devanagari and Japanese shaped as the static style does', () => {
  it.each([
    ['hi', ['पुराने', 'प्रकाशस्तंभ', 'क्षितिज']],
    ['ja', ['灯台守', '真夜中', '聞いた']],
  ])('%s: the popped word is the same glyph run as the word drawn plainly', (language, tokens) => {
    const words = timed(tokens);
    // The second word, settled (frame 21 = 0.7 s), against the same word drawn plainly in the template's style and size.
    const animated = frameInk(renderFrames('word-pop', language, words, 22)[21]!, near(accentOf('word-pop')));
    const plainAss = buildCaptionsAss({
      words: [{ word: tokens[1]!, start: 0, end: 1 }],
      style: 'word-pop',
      language,
      width: W,
      height: H,
      font: captionFontFor(language),
      durationSeconds: 10,
    });
    const plain = frameInk(renderFrames('word-pop', language, [], 7, { text: plainAss })[6]!, near(accentOf('word-pop')));
    expect(animated.count).toBeGreaterThan(50);
    expect(sameGlyphRun(animated, plain), JSON.stringify({ animated, plain })).toBe(true);
  });

  // The static ffmpeg 4.1 inside @ffmpeg-installer draws a letter-split word like the whole one (its
  // libass keeps neighbouring runs together), so only a system build shows the difference.
  it.runIf(!ffmpeg.includes('node_modules'))(
    'would notice broken Devanagari shaping: a word split letter by letter is drawn differently',
    () => {
      const word = 'प्रकाशस्तंभ';
      const whole = buildCaptionsAss({
        words: [{ word, start: 0, end: 1 }],
        style: 'word-pop',
        language: 'hi',
        width: W,
        height: H,
        font: captionFontFor('hi'),
        durationSeconds: 10,
      });
      // Per-letter effects: each letter its own run (alternating a 1% scale), so libass shapes letter by letter.
      const split = whole.replace(word, [...word].map((letter, i) => `{\\fscx${100 + (i % 2)}}${letter}`).join(''));
      const [a, b] = [whole, split].map((text) =>
        frameInk(renderFrames('word-pop', 'hi', [], 7, { text })[6]!, near(accentOf('word-pop'))),
      );
      expect(a!.count).toBeGreaterThan(50);
      expect(sameGlyphRun(a!, b!)).toBe(false);
    },
  );
});
