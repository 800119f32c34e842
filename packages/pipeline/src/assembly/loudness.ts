import { renameSync, rmSync } from 'node:fs';
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

/**
 * Brings a voice track to TARGET_LOUDNESS_LUFS in place: a gain, and a look-ahead limiter that
 * keeps peaks under -1 dBFS. The limiter takes back some of the gain on peaky speech, so the gain is
 * corrected by what was measured after it, a few times at most (each pass runs at over 1000x real
 * time on a WAV). `measured` skips the first measurement when the pass that wrote the file made it.
 * Returns the loudness reached; a silent track is left as it is.
 */
export async function normaliseLoudness(
  binaries: FfmpegBinaries,
  path: string,
  signal?: AbortSignal,
  measured?: LoudnessMeasure,
): Promise<number | null> {
  const source = measured ?? (await measureLoudness(binaries, path, signal));
  if (source.integratedLufs === null) return null;
  if (Math.abs(source.integratedLufs - TARGET_LOUDNESS_LUFS) <= TOLERANCE_LU && (source.samplePeakDb ?? 0) <= -1)
    return source.integratedLufs;
  const adjusted = `${path}.loudness.wav`;
  let gainDb = TARGET_LOUDNESS_LUFS - source.integratedLufs;
  let reached = source.integratedLufs;
  try {
    for (let pass = 0; pass < 3; pass++) {
      // One pass applies the gain and measures what it made.
      const stderr = await runFfmpeg(
        binaries.ffmpegPath,
        [
          '-loglevel',
          'info',
          '-i',
          path,
          '-af',
          `volume=${gainDb.toFixed(2)}dB,alimiter=limit=${PEAK_LIMIT}:attack=5:release=50:level=disabled,${LOUDNESS_METER}`,
          '-c:a',
          'pcm_s16le',
          adjusted,
        ],
        { signal },
      );
      reached = parseLoudness(stderr).integratedLufs ?? reached;
      if (Math.abs(reached - TARGET_LOUDNESS_LUFS) <= TOLERANCE_LU) break;
      // Never push more than 12 dB into the limiter: past that it would flatten the voice.
      gainDb = Math.min(TARGET_LOUDNESS_LUFS - source.integratedLufs + 12, gainDb + (TARGET_LOUDNESS_LUFS - reached));
    }
    renameSync(adjusted, path);
  } finally {
    rmSync(adjusted, { force: true });
  }
  return reached;
}
