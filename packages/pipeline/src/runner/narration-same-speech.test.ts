import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultFfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { encodeWav } from '../audio/wav.js';
import { joinNarration, planNarration } from './narration.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-same-speech-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A second of a 220 Hz tone at 24 kHz, as a voice would leave it. */
function speech(path: string): string {
  const rate = 24_000;
  const samples = new Int16Array(rate);
  for (let index = 0; index < samples.length; index++) samples[index] = Math.round(8_000 * Math.sin((2 * Math.PI * 220 * index) / rate));
  writeFileSync(path, encodeWav(samples, rate));
  return path;
}

describe('joinNarration with scenes of identical narration', () => {
  // Five scenes saying the same sentence share one voicing key, so their fitted speech has one
  // cache path: fitted at once, they used to write (and rename) the same temporary file.
  it('fits every scene and joins them, leaving no temporary file behind', async () => {
    const audioPath = speech(join(dir, 'sentence.wav'));
    const parts = Array.from({ length: 5 }, () => ({ audioPath, durationSeconds: 1, words: [{ word: 'Hello', start: 0, end: 1 }] }));
    const plan = planNarration(Array<string>(5).fill('same-sentence'), [1, 1, 1, 1, 1], 10);
    for (let round = 0; round < 3; round++) {
      const cache = join(dir, `cache-${round}`);
      mkdirSync(cache);
      const narration = await joinNarration(defaultFfmpegBinaries(), parts, plan, join(dir, `joined-${round}.wav`), cache);
      expect(narration.scenes).toHaveLength(5);
      expect(narration.words).toHaveLength(5);
      expect(readdirSync(cache).filter((name) => name.includes('partial'))).toEqual([]);
    }
  }, 60_000);
});
