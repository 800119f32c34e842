import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { limitPeaks, measureSampleLoudness, pcm16FromSamples, samplesFromPcm16 } from '../audio/loudness-meter.js';
import { decodeWav, encodeWav } from '../audio/wav.js';
import type { FfmpegBinaries } from './ffmpeg-binary.js';
import { runFfmpeg } from './run-ffmpeg.js';

/** Integrated loudness social platforms normalise to (EBU R128 / ITU BS.1770, in LUFS). */
export const TARGET_LOUDNESS_LUFS = -14;
/** Peaks stay below this (dBFS as a linear share): room for the AAC encoder's overshoot. */
const PEAK_LIMIT = 0.891; // -1 dBFS
/** Close enough to the target: the same tolerance a viewer's platform would apply. */
const TOLERANCE_LU = 0.3;

export interface LoudnessMeasure {
  /** Integrated loudness in LUFS; null for silence. */
  integratedLufs: number | null;
  /** Highest sample in dBFS. */
  samplePeakDb: number | null;
}

/**
 * ffmpeg's EBU R128 meter as the last filter of a chain: the audio passes through unchanged and the
 * summary is printed at the end (at info level: a command using it adds `-loglevel info`; the
 * per-frame lines go to the verbose level), so a pass that writes audio can measure it too.
 */
export const LOUDNESS_METER = 'ebur128=peak=sample:framelog=verbose';

/** Measures a file's audio (audio only: a video stream is not decoded). */
export async function measureLoudness(binaries: FfmpegBinaries, path: string, signal?: AbortSignal): Promise<LoudnessMeasure> {
  return parseLoudness(
    await runFfmpeg(binaries.ffmpegPath, ['-loglevel', 'info', '-i', path, '-vn', '-af', LOUDNESS_METER, '-f', 'null', '-'], { signal }),
  );
}

/** The meter's summary from an ffmpeg command's stderr. */
export function parseLoudness(stderr: string): LoudnessMeasure {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const peak = /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
  const value = (text: string | undefined) => (text === undefined || text === '-inf' ? null : Number(text));
  const integratedLufs = value(integrated);
  // ebur128 reports -70 LUFS (its absolute gate) for silence.
  return { integratedLufs: integratedLufs !== null && integratedLufs > -69.9 ? integratedLufs : null, samplePeakDb: value(peak) };
}

function scaled(samples: Float64Array, gain: number): Float64Array {
  const output = new Float64Array(samples.length);
  for (let n = 0; n < samples.length; n++) output[n] = samples[n]! * gain;
  return output;
}

/**
 * Brings a voice track (a 16-bit mono WAV) to TARGET_LOUDNESS_LUFS in place: a gain, and a
 * look-ahead limiter that keeps peaks under -1 dBFS. The limiter takes back some of the gain on peaky
 * speech, so the gain is corrected by what was measured after it, a few times at most. All of it runs
 * on the samples in this process (loudness-meter): a few milliseconds per scene, where ffmpeg passes
 * cost a process each. Returns the loudness reached; a silent track is left as it is.
 */
export async function normaliseLoudness(path: string): Promise<number | null> {
  const wav = decodeWav(await readFile(path));
  if (wav.channels !== 1) throw new Error(`normaliseLoudness takes mono speech; ${path} has ${wav.channels} channels`);
  const source = samplesFromPcm16(wav.samples);
  const measured = measureSampleLoudness(source, wav.sampleRate);
  if (measured.integratedLufs === null) return null;
  if (Math.abs(measured.integratedLufs - TARGET_LOUDNESS_LUFS) <= TOLERANCE_LU && (measured.samplePeakDb ?? 0) <= -1)
    return measured.integratedLufs;
  let gainDb = TARGET_LOUDNESS_LUFS - measured.integratedLufs;
  let reached = measured.integratedLufs;
  let adjusted = source;
  for (let pass = 0; pass < 4; pass++) {
    adjusted = limitPeaks(scaled(source, 10 ** (gainDb / 20)), wav.sampleRate, PEAK_LIMIT);
    reached = measureSampleLoudness(adjusted, wav.sampleRate).integratedLufs ?? reached;
    if (Math.abs(reached - TARGET_LOUDNESS_LUFS) <= TOLERANCE_LU) break;
    // Never push more than 12 dB into the limiter: past that it would flatten the voice.
    gainDb = Math.min(TARGET_LOUDNESS_LUFS - measured.integratedLufs + 12, gainDb + (TARGET_LOUDNESS_LUFS - reached));
  }
  const partial = `${path}.${process.pid}.loudness.wav`;
  try {
    await writeFile(partial, encodeWav(pcm16FromSamples(adjusted), wav.sampleRate));
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  return reached;
}
