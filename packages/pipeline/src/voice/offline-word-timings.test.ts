import { describe, expect, it } from 'vitest';
import { buildSpeechText, timingsFromEvents } from './offline-word-timings.js';

describe('word timing helpers', () => {
  it('maps word events to caption words and interpolates words without an event', () => {
    const words = [
      { display: 'one', spoken: 'one' },
      { display: '&', spoken: ' ' },
      { display: 'three.', spoken: 'three.' },
    ];
    const { text, offsets } = buildSpeechText(words);
    expect(text).toBe('one   three. ');
    const samples = new Int16Array(22050 * 2).fill(5000);
    const timings = timingsFromEvents(
      words,
      offsets,
      [
        { type: 'word', textPosition: 1, length: 3, audioMs: 0 },
        { type: 'word', textPosition: 7, length: 5, audioMs: 1000 },
      ],
      samples,
      22050,
    );
    expect(timings.map((timing) => timing.word)).toEqual(['one', '&', 'three.']);
    expect(timings[0]!.start).toBe(0);
    expect(timings[1]!.start).toBeGreaterThan(0);
    expect(timings[1]!.start).toBeLessThan(1);
    expect(timings[2]!.start).toBe(1);
    expect(timings[2]!.end).toBeLessThanOrEqual(2);
  });
});
