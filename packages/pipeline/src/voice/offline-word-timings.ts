import type { WordTiming } from '../providers/types.js';
import type { EspeakEvent } from './espeak-engine.js';
import { speechWeight } from './word-timing-estimate.js';

/** A word as captions show it, and the text espeak is given to say it. */
export interface SpeechWord {
  display: string;
  spoken: string;
}

/** Joins the spoken forms with spaces and remembers where each word starts in that text. */
export function buildSpeechText(words: readonly SpeechWord[]): { text: string; offsets: number[] } {
  let text = '';
  const offsets: number[] = [];
  for (const word of words) {
    offsets.push(Array.from(text).length);
    text += `${word.spoken} `;
  }
  return { text, offsets };
}

/** Last non-silent moment (seconds) in [fromSeconds, toSeconds): trims the pause after a word. */
function speechEnd(samples: Int16Array, sampleRate: number, fromSeconds: number, toSeconds: number): number {
  const window = Math.max(1, Math.round(sampleRate * 0.01));
  const first = Math.floor(fromSeconds * sampleRate);
  let cursor = Math.min(samples.length, Math.floor(toSeconds * sampleRate));
  while (cursor - window > first) {
    let peak = 0;
    for (let index = cursor - window; index < cursor; index++) peak = Math.max(peak, Math.abs(samples[index] ?? 0));
    if (peak > 600) break;
    cursor -= window;
  }
  return cursor / sampleRate;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * Word timings from espeak's own word events. Each caption word starts at the first word event
 * inside its span of the spoken text and ends where the audio falls silent before the next word.
 * Words espeak gave no event for (symbols, merged tokens) are placed by interpolating between their
 * neighbours in proportion to length.
 */
export function timingsFromEvents(
  words: readonly SpeechWord[],
  offsets: readonly number[],
  events: readonly EspeakEvent[],
  samples: Int16Array,
  sampleRate: number,
): WordTiming[] {
  const duration = samples.length / sampleRate;
  const wordEvents = events.filter((event) => event.type === 'word').sort((a, b) => a.audioMs - b.audioMs);
  const starts: (number | undefined)[] = words.map((word, index) => {
    const from = offsets[index] ?? 0;
    const to = from + Array.from(word.spoken).length;
    const event = wordEvents.find((candidate) => candidate.textPosition - 1 >= from && candidate.textPosition - 1 < to);
    return event === undefined ? undefined : Math.min(event.audioMs / 1000, duration);
  });
  // Keep anchors monotonic: an out-of-order event is dropped and interpolated instead.
  let latest = 0;
  for (let index = 0; index < starts.length; index++) {
    const start = starts[index];
    if (start === undefined) continue;
    if (start < latest) starts[index] = undefined;
    else latest = start;
  }
  const weights = words.map((word) => speechWeight(word.display));
  let previousAnchor = -1;
  for (let index = 0; index <= starts.length; index++) {
    if (index < starts.length && starts[index] === undefined) continue;
    const gapFrom = previousAnchor + 1;
    if (index > gapFrom) {
      const fromTime = previousAnchor >= 0 ? (starts[previousAnchor] ?? 0) : 0;
      const toTime = index < starts.length ? (starts[index] ?? duration) : duration;
      // The anchor before the gap owns its own share of the span, so the gap starts after it.
      const spanFrom = previousAnchor >= 0 ? previousAnchor : gapFrom;
      const spanWeights = weights.slice(spanFrom, index);
      const totalWeight = spanWeights.reduce((sum, weight) => sum + weight, 0) || 1;
      let cursor = fromTime;
      for (let position = spanFrom; position < index; position++) {
        if (position >= gapFrom) starts[position] = cursor;
        cursor += ((weights[position] ?? 1) / totalWeight) * (toTime - fromTime);
      }
    }
    previousAnchor = index;
  }
  return words.map((word, index) => {
    const start = starts[index] ?? 0;
    const next = index + 1 < words.length ? (starts[index + 1] ?? duration) : duration;
    const end = Math.max(start + 0.05, speechEnd(samples, sampleRate, start, next));
    return { word: word.display, start: round(start), end: Math.min(round(Math.min(end, Math.max(next, start + 0.05))), duration) };
  });
}
