import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveFfmpegBinaries } from './ffmpeg-binary.js';
import { readFileSync } from 'node:fs';
import { measureSampleLoudness, samplesFromPcm16 } from '../audio/loudness-meter.js';
import { decodeWav } from '../audio/wav.js';
import { measureLoudness, normaliseLoudness, TARGET_LOUDNESS_LUFS } from './loudness.js';
import { runFfmpeg } from './run-ffmpeg.js';

const binaries = resolveFfmpegBinaries();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-loudness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Speech-like test audio: a tone that comes and goes (syllables) with a few sharp peaks, at `volume`. */
async function voiceLike(name: string, volume: number): Promise<string> {
  const path = join(dir, name);
  await runFfmpeg(binaries.ffmpegPath, [
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:sample_rate=48000:duration=12',
    '-af',
    `volume='${volume}*(0.35+0.65*abs(sin(2*PI*2.5*t)))*if(lt(mod(t,3),0.02),2.5,1)':eval=frame,aformat=channel_layouts=mono`,
    '-c:a',
    'pcm_s16le',
    path,
  ]);
  return path;
}

describe('loudness', () => {
  it('measures integrated loudness and peak, and calls silence silence', async () => {
    const quiet = await voiceLike('quiet.wav', 0.05);
    const loud = await voiceLike('loud.wav', 0.4);
    const a = await measureLoudness(binaries, quiet);
    const b = await measureLoudness(binaries, loud);
    expect(a.integratedLufs).not.toBeNull();
    // Eight times the amplitude is 18 dB louder.
    expect(b.integratedLufs! - a.integratedLufs!).toBeCloseTo(18.06, 0);
    const silent = join(dir, 'silent.wav');
    await runFfmpeg(binaries.ffmpegPath, ['-f', 'lavfi', '-t', '3', '-i', 'anullsrc=r=48000:cl=mono', '-c:a', 'pcm_s16le', silent]);
    expect((await measureLoudness(binaries, silent)).integratedLufs).toBeNull();
    expect(await normaliseLoudness(silent)).toBeNull();
  });

  it.each([
    ['a quiet voice', 0.03],
    ['a voice too loud', 0.95],
  ])('brings %s to -14 LUFS with peaks under -1 dBFS', async (_, volume) => {
    const path = await voiceLike(`voice-${volume}.wav`, volume);
    const before = await measureLoudness(binaries, path);
    expect(Math.abs(before.integratedLufs! - TARGET_LOUDNESS_LUFS)).toBeGreaterThan(3);
    await normaliseLoudness(path);
    const after = await measureLoudness(binaries, path);
    expect(after.integratedLufs!).toBeGreaterThanOrEqual(TARGET_LOUDNESS_LUFS - 0.5);
    expect(after.integratedLufs!).toBeLessThanOrEqual(TARGET_LOUDNESS_LUFS + 0.5);
    expect(after.samplePeakDb!).toBeLessThanOrEqual(-0.9);
  });

  it.each([
    ['speech-like, 48 kHz', 'speech-48k.wav', 0.3, 48000],
    ['speech-like, 22.05 kHz (espeak)', 'speech-22k.wav', 0.3, 22050],
    ['quiet, 44.1 kHz', 'speech-44k.wav', 0.02, 44100],
  ])('measures what ffmpeg ebur128 measures: %s', async (_, name, volume, rate) => {
    const path = join(dir, name);
    await runFfmpeg(binaries.ffmpegPath, [
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=180:sample_rate=${rate}:duration=6,volume='${volume}*abs(sin(2*PI*3*t))*(1+0.5*sin(2*PI*1100*t))':eval=frame`,
      '-c:a',
      'pcm_s16le',
      path,
    ]);
    const wav = decodeWav(readFileSync(path));
    const ours = measureSampleLoudness(samplesFromPcm16(wav.samples), wav.sampleRate);
    const theirs = await measureLoudness(binaries, path);
    // ffmpeg prints one decimal.
    expect(Math.abs(ours.integratedLufs! - theirs.integratedLufs!)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(ours.samplePeakDb! - theirs.samplePeakDb!)).toBeLessThanOrEqual(0.1);
  });
});
