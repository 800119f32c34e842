import type { CaptionTrack, WordTiming } from '../providers/types.js';
import { captionWord } from './caption-grouping.js';

/**
 * Caption files (SubRip and WebVTT) from the narration's word timings, the way platforms want them:
 * cues of at most two lines of about 42 characters (the common broadcast and Netflix limit; a
 * full-width Chinese or Japanese character counts as two), each cue within one scene and one
 * sentence, its times those of the words it shows.
 */
export interface CaptionCue {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  lines: string[];
}

export const CAPTION_LINE_COLUMNS = 42;
export const CAPTION_MAX_LINES = 2;
/** A pause this long between two words ends the cue, so a caption never hangs over silence. */
const PAUSE_SECONDS = 1.2;
/** Past this a cue is split even mid-sentence: reading speed (about 17 characters a second) and the two lines. */
const MAX_CUE_SECONDS = 7;

const SENTENCE_END = /[.!?。！？।…]["'”’»」』)）]*$/u;
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const SPACELESS = /^(ja|zh)/i;

/** Display columns of a text: full-width characters take two. */
export function columns(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/** Words into lines of at most `limit` columns; a single word longer than a line gets a line of its own. */
function wrap(words: string[], joiner: string, limit: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line}${joiner}${word}` : word;
    if (line && columns(candidate) > limit) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** Cues from word timings: a new cue at each scene cut, sentence end, long pause, or when two lines are full. */
export function buildCaptionCues(track: CaptionTrack): CaptionCue[] {
  const joiner = SPACELESS.test(track.language) ? '' : ' ';
  const cuts = [...track.cuts].sort((a, b) => a - b);
  const sceneOf = (seconds: number) => cuts.filter((cut) => cut <= seconds + 1e-6).length;
  const cues: CaptionCue[] = [];
  let pending: WordTiming[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = wrap(
      pending.map((word) => word.word),
      joiner,
      CAPTION_LINE_COLUMNS,
    );
    cues.push({ start: pending[0]!.start, end: pending.at(-1)!.end, lines });
    pending = [];
  };
  for (const timing of track.words) {
    const word = captionWord(timing.word);
    if (!word) continue;
    const current = { word, start: timing.start, end: Math.max(timing.start, timing.end) };
    const last = pending.at(-1);
    if (last) {
      const fits = wrap([...pending.map((w) => w.word), word], joiner, CAPTION_LINE_COLUMNS).length <= CAPTION_MAX_LINES;
      const breaks =
        !fits ||
        sceneOf(current.start) !== sceneOf(pending[0]!.start) ||
        SENTENCE_END.test(last.word) ||
        current.start - last.end >= PAUSE_SECONDS ||
        current.end - pending[0]!.start > MAX_CUE_SECONDS;
      if (breaks) flush();
    }
    pending.push(current);
  }
  flush();
  // A cue never overlaps the next one (players stack overlapping cues).
  for (let index = 0; index < cues.length - 1; index += 1) {
    const cue = cues[index]!;
    cue.end = Math.min(cue.end, cues[index + 1]!.start);
  }
  return cues.filter((cue) => cue.end > cue.start);
}

function timestamp(seconds: number, separator: ',' | '.'): string {
  const totalMs = Math.max(0, Math.round(seconds * 1000));
  const ms = totalMs % 1000;
  const totalSeconds = Math.floor(totalMs / 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(totalSeconds / 3600))}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}${separator}${pad(ms, 3)}`;
}

/** A cue's text as a file may carry it: no blank line (it would end the cue), no "-->" (it would start one). */
const cueLine = (line: string) => line.replace(/-->/g, '→').trim();

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line after each. */
export function formatSrt(cues: readonly CaptionCue[]): string {
  return cues
    .map(
      (cue, index) => `${index + 1}\n${timestamp(cue.start, ',')} --> ${timestamp(cue.end, ',')}\n${cue.lines.map(cueLine).join('\n')}\n`,
    )
    .join('\n');
}

/** WebVTT: the `WEBVTT` header, then cues with `HH:MM:SS.mmm` times; `<`, `>` and `&` escaped as the format asks. */
export function formatVtt(cues: readonly CaptionCue[]): string {
  const escape = (line: string) => cueLine(line).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = cues.map((cue) => `${timestamp(cue.start, '.')} --> ${timestamp(cue.end, '.')}\n${cue.lines.map(escape).join('\n')}\n`);
  return ['WEBVTT\n', ...body].join('\n');
}
