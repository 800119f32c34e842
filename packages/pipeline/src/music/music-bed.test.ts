import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MUSIC_MOODS } from '@reelsmith/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveFfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { encodeLoop, MUSIC_SAMPLE_RATE, synthesiseMusicLoop, writeMusicBed } from './music-bed.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-music-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);
const loops = Object.fromEntries(MUSIC_MOODS.map((mood) => [mood, synthesiseMusicLoop(mood)]));

describe('music beds', () => {
  it.each(MUSIC_MOODS)('%s: a loop of whole chords, in stereo, at one loudness and never clipping', (mood) => {
    const loop = loops[mood]!;
    const seconds = loop.frames / MUSIC_SAMPLE_RATE;
    expect(seconds).toBeGreaterThan(6);
    expect(seconds).toBeLessThan(30);
    const level = (rms(loop.left) + rms(loop.right)) / 2;
    expect(level).toBeGreaterThan(0.08);
    expect(level).toBeLessThan(0.16);
    const peak = [loop.left, loop.right].reduce((max, samples) => samples.reduce((m, value) => Math.max(m, Math.abs(value)), max), 0);
    expect(peak).toBeLessThanOrEqual(0.9001);
    // Left and right differ (detuned pad, panned plucks): a bed with width, not mono.
    expect(loop.left.some((value, i) => Math.abs(value - loop.right[i]!) > 0.01)).toBe(true);
  });

  it('repeats without a seam: the jump from the last sample to the first is like any other step', () => {
    for (const mood of MUSIC_MOODS) {
      const { left, frames } = loops[mood]!;
      let largest = 0;
      for (let i = 1; i < frames; i++) largest = Math.max(largest, Math.abs(left[i]! - left[i - 1]!));
      expect(Math.abs(left[0]! - left[frames - 1]!)).toBeLessThanOrEqual(largest);
    }
  });

  it('gives each mood its own music, and the same bytes every time', () => {
    const wavs = MUSIC_MOODS.map((mood) => encodeLoop(loops[mood]!));
    expect(new Set(wavs.map((wav) => wav.toString('base64'))).size).toBe(MUSIC_MOODS.length);
    expect(encodeLoop(synthesiseMusicLoop('calm')).equals(wavs[MUSIC_MOODS.indexOf('calm')]!)).toBe(true);
    // Tempo and rhythm differ: the upbeat bed has more note onsets than the calm one.
    const onsets = (samples: Float32Array) => {
      const window = Math.round(MUSIC_SAMPLE_RATE * 0.02);
      let count = 0;
      let previous = 0;
      for (let i = 0; i + window < samples.length; i += window) {
        const energy = rms(samples.subarray(i, i + window));
        if (energy > previous * 1.5 && energy > 0.05) count++;
        previous = energy;
      }
      return count / (samples.length / MUSIC_SAMPLE_RATE);
    };
    expect(onsets(loops.upbeat!.left)).toBeGreaterThan(onsets(loops.calm!.left));
  });

  it('writes a WAV that ffmpeg reads, once', async () => {
    const path = join(dir, 'upbeat.wav');
    await writeMusicBed('upbeat', path);
    const first = statSync(path).mtimeMs;
    await writeMusicBed('upbeat', path);
    expect(statSync(path).mtimeMs).toBe(first);
    const probe = execFileSync(
      resolveFfmpegBinaries().ffprobePath ?? 'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels', '-of', 'json', path],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(probe).streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: String(MUSIC_SAMPLE_RATE), channels: 2 });
    expect(readFileSync(path).subarray(0, 4).toString('ascii')).toBe('RIFF');
  });
});
