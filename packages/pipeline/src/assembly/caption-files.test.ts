import srtValidator from 'srt-validator';
import { WebVTTParser } from 'webvtt-parser';
import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../providers/types.js';
import { buildCaptionCues, CAPTION_LINE_COLUMNS, columns, formatSrt, formatVtt } from './caption-files.js';

/** Words timed one after the other, 0.3 s each with 0.05 s between, from `at`. */
function timed(text: string, at = 0, spaceless = false): WordTiming[] {
  const tokens = spaceless ? [...text] : text.split(/\s+/).filter(Boolean);
  return tokens.map((word, index) => ({ word, start: at + index * 0.35, end: at + index * 0.35 + 0.3 }));
}

const srtTimes = (srt: string) =>
  [...srt.matchAll(/(\d\d):(\d\d):(\d\d),(\d{3}) --> (\d\d):(\d\d):(\d\d),(\d{3})/g)].map((m) => {
    const s = (h: string, mi: string, se: string, ms: string) => Number(h) * 3600 + Number(mi) * 60 + Number(se) + Number(ms) / 1000;
    return { start: s(m[1]!, m[2]!, m[3]!, m[4]!), end: s(m[5]!, m[6]!, m[7]!, m[8]!) };
  });

describe('caption files', () => {
  const words = [
    ...timed('Octopuses have three hearts. Two pump blood through the gills, and the third one serves the rest of the body.'),
    ...timed('Their blood is blue because it carries copper instead of iron.', 8),
  ];
  const track = { words, cuts: [8], language: 'en' };

  it('keeps each cue to two lines of at most 42 columns, inside one scene and one sentence', () => {
    const cues = buildCaptionCues(track);
    expect(cues.length).toBeGreaterThan(2);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(columns(line)).toBeLessThanOrEqual(CAPTION_LINE_COLUMNS);
      expect(cue.start < 8 && cue.end > 8.001).toBe(false);
    }
    expect(cues[0]!.lines.join(' ')).toBe('Octopuses have three hearts.');
    // Every word is shown once, in order.
    expect(cues.flatMap((cue) => cue.lines.join(' ').split(' '))).toEqual(words.map((w) => w.word));
  });

  it('writes SubRip that a strict validator accepts, with the words’ times', () => {
    const srt = formatSrt(buildCaptionCues(track));
    expect(srtValidator(srt)).toEqual([]);
    const times = srtTimes(srt);
    expect(times[0]!.start).toBeCloseTo(words[0]!.start, 3);
    expect(times[0]!.end).toBeCloseTo(words[3]!.end, 3);
    expect(times.at(-1)!.end).toBeCloseTo(words.at(-1)!.end, 3);
  });

  it('writes WebVTT that the W3C parser accepts without errors, escaping markup', () => {
    const vtt = formatVtt(
      buildCaptionCues({ ...track, words: [...timed('Tom & Jerry <live> --> now.'), ...timed('Octopuses have three hearts.', 3)] }),
    );
    const parsed = new WebVTTParser().parse(vtt, 'subtitles');
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues[0]!.text).toBe('Tom &amp; Jerry &lt;live&gt; → now.');
    expect(parsed.cues[0]!.startTime).toBeCloseTo(0, 3);
  });

  it('counts full-width characters twice and joins Japanese without spaces', () => {
    const cues = buildCaptionCues({
      words: timed('タコには心臓が三つあります。二つはえらに血を送ります。', 0, true),
      cuts: [],
      language: 'ja',
    });
    expect(cues[0]!.lines.join('')).toBe('タコには心臓が三つあります。');
    for (const cue of cues) for (const line of cue.lines) expect(columns(line)).toBeLessThanOrEqual(CAPTION_LINE_COLUMNS);
  });

  it('leaves out emoji-only words and never overlaps cues', () => {
    const cues = buildCaptionCues({
      words: [{ word: '🐙', start: 0, end: 0.2 }, ...timed('Hello there.', 0.1), ...timed('Next line.', 0.6)],
      cuts: [],
      language: 'en',
    });
    expect(cues.map((cue) => cue.lines.join(' '))).toEqual(['Hello there.', 'Next line.']);
    expect(cues[0]!.end).toBeLessThanOrEqual(cues[1]!.start);
  });
});
