import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeAudio } from '../testing/fake-media.js';
import { constantBitrateDuration, probeAudioDuration } from './audio-duration.js';

describe('audio duration', () => {
  it('probes MP3 and WAV with ffprobe', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audio-duration-'));
    await writeFile(join(dir, 'a.mp3'), await fakeAudio({ format: 'mp3', seconds: 2 }));
    await writeFile(join(dir, 'a.wav'), await fakeAudio({ format: 'wav', seconds: 1.5 }));
    // MP3 encoders pad a few frames.
    expect(Math.abs((await probeAudioDuration(join(dir, 'a.mp3'))) - 2)).toBeLessThan(0.1);
    expect(await probeAudioDuration(join(dir, 'a.wav'))).toBeCloseTo(1.5, 2);
    expect(await constantBitrateDuration(join(dir, 'a.wav'), 48_000, 44)).toBeCloseTo(1.5, 1);
  });

  it('fails clearly on a file that is not audio or a missing ffprobe', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audio-duration-'));
    await writeFile(join(dir, 'not-audio.mp3'), 'hello');
    await expect(probeAudioDuration(join(dir, 'not-audio.mp3'))).rejects.toThrow(/ffprobe/);
    await expect(probeAudioDuration(join(dir, 'not-audio.mp3'), '/nonexistent/ffprobe')).rejects.toThrow(/ffprobe could not read/);
  });
});
