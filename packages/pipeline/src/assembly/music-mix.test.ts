import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { resolveFfmpegBinaries } from './ffmpeg-binary.js';
import { duckExpression, loudnessSidecarPath, musicVolumeOffsetDb, speechSpans } from './music-mix.js';
import { runFfmpeg } from './run-ffmpeg.js';

describe('the music volume setting', () => {
  it('names an amplitude against the 30% default: each doubling is 6 dB, 0 is silence', () => {
    expect(musicVolumeOffsetDb(30)).toBeCloseTo(0);
    expect(musicVolumeOffsetDb(60)).toBeCloseTo(6.02, 1);
    expect(musicVolumeOffsetDb(15)).toBeCloseTo(-6.02, 1);
    expect(musicVolumeOffsetDb(100)).toBeCloseTo(10.46, 1);
    expect(musicVolumeOffsetDb(0)).toBeNull();
  });
});

describe('speech spans', () => {
  it('merges words of a sentence and keeps a pause between sentences apart', () => {
    const words = [
      { word: 'a', start: 0.5, end: 0.8 },
      { word: 'b', start: 0.9, end: 1.3 },
      { word: 'c', start: 1.6, end: 2 },
      { word: 'd', start: 3.5, end: 3.9 },
    ];
    expect(speechSpans(words)).toEqual([
      [0.5, 2],
      [3.5, 3.9],
    ]);
    expect(speechSpans([])).toEqual([]);
  });

  it('gives a duck with no speech at all the pause level throughout', () => {
    expect(duckExpression([])).toBe('pow(10,0.4000*(1-(0)))');
  });
});

describe('the loudness the mix measures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'music-mix-loudness-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const binaries = resolveFfmpegBinaries();
  const format = 'sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';
  /** musicGainDb as a new process sees it: nothing remembered in memory. */
  const freshGain = async (voice: string, music: string) => {
    vi.resetModules();
    const { musicGainDb } = await import('./music-mix.js');
    return musicGainDb(binaries, voice, { path: music, volumePercent: 30 }, format, -14);
  };

  it('is measured once per file and kept beside it, for the next process; a changed file is measured again', async () => {
    const voice = join(dir, 'voice.wav');
    const music = join(dir, 'music.wav');
    await runFfmpeg(binaries.ffmpegPath, ['-f', 'lavfi', '-i', 'sine=frequency=300:duration=3', '-af', 'volume=-6dB', voice]);
    await runFfmpeg(binaries.ffmpegPath, ['-f', 'lavfi', '-i', 'sine=frequency=500:duration=3', '-af', 'volume=-20dB', music]);
    const measured = await freshGain(voice, music);
    const kept = JSON.parse(readFileSync(loudnessSidecarPath(music), 'utf8')) as { key: string; lufs: number };
    // The music is 14 dB quieter than the voice, and sits 20 LU under it: 6 dB off (within the K-weighting of 300 against 500 Hz).
    expect(measured).toBeGreaterThan(-7);
    expect(measured).toBeLessThan(-5);
    // The next process reads the kept figure rather than measuring: a figure 10 LU louder moves the gain by 10 dB.
    writeFileSync(loudnessSidecarPath(music), JSON.stringify({ key: kept.key, lufs: kept.lufs + 10 }));
    expect(await freshGain(voice, music)).toBeCloseTo(measured! - 10, 5);
    // A new version of the file (another modification time) is measured again.
    utimesSync(music, new Date(), new Date(Date.now() + 5000));
    expect(await freshGain(voice, music)).toBeCloseTo(measured!, 5);
  });
});
