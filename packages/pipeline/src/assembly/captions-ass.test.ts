import { CAPTION_STYLES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../providers/types.js';
import { MissingCaptionFontError, captionFontFor, scriptForLanguage } from './caption-fonts.js';
import { captionWord, groupCaptions, type CaptionOptions } from './caption-grouping.js';
import { captionSafeArea } from './caption-presets.js';
import { buildCaptionsAss, captionsAssWindow, earliestDialogueCs, shiftAssTimes } from './captions-ass.js';
import { createTextMeasurer } from './text-measure.js';

function timed(text: string, wordSeconds = 0.4, joiner = ' '): WordTiming[] {
  const tokens = joiner === '' ? [...text] : text.split(' ');
  return tokens.map((word, index) => ({ word, start: index * wordSeconds, end: index * wordSeconds + wordSeconds * 0.8 }));
}

const latin = captionFontFor('en');
const sentence = timed(
  'The old lighthouse keeper heard a knock at midnight, but nobody stood outside. Only footprints in the fresh snow led toward the sea.',
);

/** A caption file's options for English on a 1080x1920 frame, 30 s long: the sentence, the style and what else a test says. */
const portrait = (options: Partial<CaptionOptions>): CaptionOptions => ({
  words: sentence,
  style: 'tiktok',
  language: 'en',
  width: 1080,
  height: 1920,
  font: latin,
  durationSeconds: 30,
  ...options,
});

function styleLine(ass: string): string[] {
  const line = ass.split('\n').find((l) => l.startsWith('Style: '))!;
  return line.slice('Style: '.length).split(',');
}

describe('caption fonts', () => {
  it('picks Noto for the script of the language', () => {
    expect(scriptForLanguage('hi')).toBe('devanagari');
    expect(scriptForLanguage('ja-JP')).toBe('cjk');
    expect(scriptForLanguage('es')).toBe('latin');
    expect(captionFontFor('hi').family).toBe('Noto Sans Devanagari');
    expect(captionFontFor('ja').family).toBe('Noto Sans JP');
    expect(captionFontFor('ja').source).toBe('npm');
    expect(latin.family).toBe('Noto Sans');
  });

  it('takes the npm packages before the system folders, and says what is missing for the language', () => {
    for (const language of ['en', 'hi', 'ja']) {
      const font = captionFontFor(language);
      expect(font.source).toBe('npm');
      expect(font.regularPath).toContain('node_modules/@expo-google-fonts/');
      expect(font.boldPath).toMatch(/700Bold/);
    }
    expect(() => captionFontFor('hi', { npm: false, system: false })).toThrow(MissingCaptionFontError);
    expect(() => captionFontFor('hi', { npm: false, system: false })).toThrow(
      /"hi" need the Noto Sans Devanagari font.*@expo-google-fonts\/noto-sans-devanagari/,
    );
  });

  it('writes the chosen family into the ASS style for Hindi and Japanese', () => {
    for (const [language, family, text] of [
      ['hi', 'Noto Sans Devanagari', 'पुराने प्रकाशस्तंभ के रखवाले ने आधी रात को दस्तक सुनी'],
      ['ja', 'Noto Sans JP', '灯台守は真夜中にノックの音を聞いた'],
    ] as const) {
      const font = captionFontFor(language);
      const words = language === 'ja' ? timed(text, 0.2, '') : timed(text);
      const ass = buildCaptionsAss({ words, style: 'youtube', language, width: 1080, height: 1920, font, durationSeconds: 30 });
      expect(styleLine(ass)[1]).toBe(family);
      // The text itself survives untouched, and Japanese is joined without spaces.
      expect(ass).toContain(language === 'ja' ? '灯台守' : 'पुराने');
    }
  });
});

describe('caption layout', () => {
  it('gives each of the five styles its own look', () => {
    const looks = CAPTION_STYLES.map((style) =>
      styleLine(buildCaptionsAss(portrait({ style })))
        .slice(1, 17)
        .join(','),
    );
    expect(new Set(looks).size).toBe(5);
  });

  it('highlights the spoken word only in word-by-word styles', () => {
    const tiktok = buildCaptionsAss(portrait({ style: 'tiktok' }));
    const netflix = buildCaptionsAss(portrait({ style: 'netflix' }));
    const tiktokEvents = tiktok.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(tiktokEvents.length).toBe(sentence.length);
    expect(tiktokEvents[0]).toContain('\\c&H');
    expect(tiktok).toContain('LIGHTHOUSE');
    expect(netflix).not.toContain('\\c&H');
    expect(netflix.split('\n').filter((l) => l.startsWith('Dialogue:')).length).toBeLessThan(sentence.length / 3);
  });

  it.each(CAPTION_STYLES)('wraps %s captions inside the safe width in at most two lines', (style) => {
    for (const [width, height] of [
      [1080, 1920],
      [1920, 1080],
      [1080, 1080],
    ] as const) {
      const groups = groupCaptions({ words: sentence, style, language: 'en', width, height, font: latin, durationSeconds: 30 });
      expect(groups.length).toBeGreaterThan(1);
      expect(groups.flatMap((g) => g.words).map((w) => w.word)).toEqual(sentence.map((w) => w.word));
      const ass = buildCaptionsAss({ words: sentence, style, language: 'en', width, height, font: latin, durationSeconds: 30 });
      const fields = styleLine(ass);
      const bold = fields[7] === '-1';
      const fontSize = Number(fields[2]);
      const measure = createTextMeasurer(latin, bold, fontSize);
      const safeWidth = width - Number(fields[19]) - Number(fields[20]);
      for (const group of groups) {
        expect(group.lines.length).toBeLessThanOrEqual(2);
        for (const line of group.lines) expect((measure(line.join(' ')) * group.scale) / 100).toBeLessThanOrEqual(safeWidth);
      }
      // Groups follow each other without overlapping on screen.
      for (let i = 1; i < groups.length; i++) expect(groups[i]!.start).toBeGreaterThanOrEqual(groups[i - 1]!.end - 1e-9);
    }
  });

  it('shrinks a single word wider than the frame instead of letting it overflow', () => {
    const words = timed('Pneumonoultramicroscopicsilicovolcanoconiosis');
    const [group] = groupCaptions(portrait({ words, style: 'tiktok' }));
    expect(group!.scale).toBeLessThan(100);
    expect(buildCaptionsAss(portrait({ words, style: 'tiktok' }))).toContain(`\\fscx${group!.scale}`);
  });

  it('keeps captions above the platform buttons in 9:16 and inside title-safe elsewhere', () => {
    const portrait = captionSafeArea(1080, 1920, 'lower-centre');
    expect(portrait.marginBottom).toBeGreaterThanOrEqual(1920 * 0.2);
    expect(portrait.marginRight).toBeGreaterThan(portrait.marginLeft);
    const landscape = captionSafeArea(1920, 1080, 'bottom');
    expect(landscape.marginBottom).toBeGreaterThanOrEqual(1080 * 0.05);
    expect(landscape.marginBottom).toBeLessThan(1080 * 0.2);
    expect(landscape.marginLeft).toBe(landscape.marginRight);
    const square = captionSafeArea(1080, 1080, 'bottom');
    expect(square.marginLeft).toBeGreaterThanOrEqual(1080 * 0.05);
  });

  it('never shows a caption after the video ends and escapes ASS control characters', () => {
    const words = [...timed('a {\\b1} b'), { word: 'late', start: 31, end: 31.4 }];
    const ass = buildCaptionsAss({ words, style: 'minimal', language: 'en', width: 1080, height: 1080, font: latin, durationSeconds: 30 });
    expect(ass).not.toContain('late');
    expect(ass).not.toContain('{\\b1}');
  });

  it('leaves emoji out of captions instead of drawing empty boxes', () => {
    expect(captionWord('FACTS🐙🔥')).toBe('FACTS');
    expect(captionWord('👍🏽')).toBe('');
    expect(captionWord('❤️')).toBe('');
    expect(captionWord('👩‍🚀')).toBe('');
    expect(captionWord('🇮🇳')).toBe('');
    expect(captionWord('1️⃣')).toBe('1');
    expect(captionWord('गंगा')).toBe('गंगा');
    expect(captionWord('富士山')).toBe('富士山');
    const words = timed('OCTOPUS FACTS 🐙 🔥 three hearts!');
    const groups = groupCaptions(portrait({ words, style: 'minimal' }));
    expect(groups.flatMap((group) => group.lines.flat()).map((word) => word.toLowerCase())).toEqual([
      'octopus',
      'facts',
      'three',
      'hearts!',
    ]);
    const ass = buildCaptionsAss(portrait({ words, style: 'tiktok' }));
    expect(ass).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});

describe('the caption lines of a scene segment (captionsAssWindow)', () => {
  const ass = buildCaptionsAss({
    words: sentence,
    style: 'word-pop',
    language: 'en',
    width: 720,
    height: 1280,
    font: latin,
    durationSeconds: 20,
  });
  const dialogues = (document: string) => document.split('\n').filter((line) => line.startsWith('Dialogue:'));

  it('keeps the styles and every line on screen during the window, a line begun before it included, times and tags untouched', () => {
    // Word 5 ("a") is spoken from 2.0 s to 2.4 s: a window starting at 2.1 s begins mid-word.
    const window = captionsAssWindow(ass, 2.1, 3.05);
    expect(window.document.split('\n').filter((line) => !line.startsWith('Dialogue:'))).toEqual(
      ass.split('\n').filter((line) => !line.startsWith('Dialogue:')),
    );
    const kept = dialogues(window.document);
    expect(window.events).toBe(kept.length);
    expect(kept[0]).toMatch(/^Dialogue: 0,0:00:02\.00,0:00:02\.40,Caption,.*\\t\(0,120,/);
    expect(kept.at(-1)).toMatch(/^Dialogue: 0,0:00:02\.80,0:00:03\.20,/);
    expect(kept.every((line) => dialogues(ass).includes(line))).toBe(true);
  });

  it('leaves out lines that end by the window start or begin at its end', () => {
    const kept = dialogues(captionsAssWindow(ass, 2.4, 2.8).document);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^Dialogue: 0,0:00:02\.40,0:00:02\.80,/);
    expect(captionsAssWindow(ass, 60, 61).events).toBe(0);
  });
});

describe('captions at scene cuts', () => {
  it('never lets a group span a cut, and clears it at the cut (on a whole centisecond at or before it)', () => {
    const cut = 2.537;
    const groups = groupCaptions(portrait({ style: 'tiktok', cuts: [cut] }));
    for (const group of groups) {
      const before = group.words.every((word) => word.start < cut);
      const after = group.words.every((word) => word.start >= cut);
      expect(before || after).toBe(true);
      if (before) expect(group.end).toBeLessThanOrEqual(cut);
    }
    expect(groups.some((group) => group.end === 2.53)).toBe(true);
    const uncut = groupCaptions(portrait({ style: 'tiktok' }));
    expect(uncut.some((group) => group.start < cut && group.end > cut)).toBe(true);
  });

  it("ends a scene's captions the same whenever the next scene's first word falls (a re-voiced scene leaves the one before it)", () => {
    // Scene one says two words and ends 0.45 s before the cut; scene two's first word comes a little
    // or a lot after the cut, as a re-voiced line's leading silence moves it.
    const scene = (secondStart: number) =>
      buildCaptionsAss(
        portrait({
          words: [
            { word: 'Hello', start: 0, end: 0.4 },
            { word: 'there.', start: 0.45, end: 1.55 },
            { word: 'Next', start: secondStart, end: secondStart + 0.3 },
          ],
          cuts: [2],
        }),
      );
    const firstScene = (ass: string) =>
      captionsAssWindow(ass, 0, 2)
        .document.split('\n')
        .filter((line) => line.startsWith('Dialogue:'));
    expect(firstScene(scene(2.02))).toEqual(firstScene(scene(2.3)));
    expect(firstScene(scene(2.02)).at(-1)).toMatch(/^Dialogue: 0,0:00:00\.\d\d,0:00:02\.00,/);
  });

  it('moves every line of a document by whole centiseconds, keeping its tags', () => {
    const ass = buildCaptionsAss(portrait({ style: 'word-pop' }));
    const later = shiftAssTimes(ass, 50);
    expect(earliestDialogueCs(later)).toBe(earliestDialogueCs(ass)! + 50);
    const texts = (doc: string) =>
      doc
        .split('\n')
        .filter((line) => line.startsWith('Dialogue:'))
        .map((line) => line.split(',').slice(3).join(','));
    expect(texts(later)).toEqual(texts(ass));
    expect(shiftAssTimes(later, -50)).toBe(ass);
  });
});
