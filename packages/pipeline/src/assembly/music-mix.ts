import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FfmpegBinaries } from './ffmpeg-binary.js';
import { LOUDNESS_METER, parseLoudness } from './loudness.js';
import { runFfmpeg } from './run-ffmpeg.js';
import type { WordTiming } from '../providers/types.js';

/**
 * How loud music sits under the narration. A music file can be mastered anywhere from -30 to -6
 * LUFS, so a plain volume factor made one track inaudible and another louder than the voice: the
 * music is measured, then set relative to the voice's own loudness.
 */

/** The volume setting a creator starts from; at it the music sits MUSIC_UNDER_SPEECH_LU under the voice. */
export const MUSIC_REFERENCE_PERCENT = 30;
/** Music under speech, relative to the voice's integrated loudness: clearly heard, never competing with words. */
export const MUSIC_UNDER_SPEECH_LU = -20;
/** How far the music rises between sentences and before the first and after the last word. */
export const MUSIC_PAUSE_LIFT_DB = 8;
/** The music dips over this long before a word starts... */
const DUCK_ATTACK_SECONDS = 0.15;
/** ...and comes back up over this long after the last word of a sentence. */
const DUCK_RELEASE_SECONDS = 0.45;
/** Gaps shorter than this are breaths inside a sentence: the music stays down through them. */
const SENTENCE_GAP_SECONDS = 0.7;

/**
 * The slider's change in dB: 20·log10(percent / 30), the amplitude the slider names (60% is twice
 * the default, +6 dB; 15% half, -6 dB; 100% +10.5 dB, still 9.5 LU under the voice). Null mutes.
 */
export function musicVolumeOffsetDb(volumePercent: number): number | null {
  const percent = Math.min(100, Math.max(0, volumePercent));
  return percent === 0 ? null : 20 * Math.log10(percent / MUSIC_REFERENCE_PERCENT);
}

/** Stretches of speech (words closer than a sentence gap merged), in seconds on the video's clock. */
export function speechSpans(words: readonly WordTiming[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const word of [...words].sort((a, b) => a.start - b.start)) {
    const last = spans[spans.length - 1];
    if (last && word.start - last[1] < Math.max(SENTENCE_GAP_SECONDS, DUCK_ATTACK_SECONDS + DUCK_RELEASE_SECONDS))
      last[1] = Math.max(last[1], word.end);
    else spans.push([word.start, word.end]);
  }
  return spans;
}

/**
 * The duck as a `volume` expression of time: 1 (the level set for speech) while words are spoken,
 * MUSIC_PAUSE_LIFT_DB higher in pauses, with linear ramps between. The spans never overlap (closer
 * ones were merged), so their sum is at most 1. Driven by the word timings rather than a compressor
 * keyed on the voice, the level under speech is the one chosen, whatever the voice's dynamics; only
 * the expression language both the system ffmpeg and the bundled 4.1 build know is used.
 */
export function duckExpression(spans: ReadonlyArray<readonly [number, number]>): string {
  const ramp = (x: string) => `min(1,max(0,${x}))`;
  const speaking = spans
    .map(
      ([start, end]) =>
        `${ramp(`(t-${(start - DUCK_ATTACK_SECONDS).toFixed(3)})/${DUCK_ATTACK_SECONDS}`)}*${ramp(`(${(end + DUCK_RELEASE_SECONDS).toFixed(3)}-t)/${DUCK_RELEASE_SECONDS}`)}`,
    )
    .join('+');
  return `pow(10,${(MUSIC_PAUSE_LIFT_DB / 20).toFixed(4)}*(1-(${speaking || '0'})))`;
}

/**
 * The music's part of the mix filter (after it is resampled to the mix format): its gain, then the
 * duck. The duck is evaluated every 10 ms (480 samples at 48 kHz) so its ramps have no audible steps.
 */
export function musicLevelFilter(gainDb: number, words: readonly WordTiming[]): string {
  return `volume=${gainDb.toFixed(2)}dB,asetnsamples=n=480:p=0,volume='${duckExpression(speechSpans(words))}':eval=frame`;
}

const measured = new Map<string, Promise<number | null>>();

/** Where a file's measured loudness is kept: beside it, so the next process (the next version's render) reads it. */
export const loudnessSidecarPath = (path: string): string => `${resolve(path)}.loudness.json`;

function readSidecar(path: string, key: string): number | null | undefined {
  try {
    const stored = JSON.parse(readFileSync(loudnessSidecarPath(path), 'utf8')) as { key?: string; lufs?: number | null };
    return stored.key === key && (typeof stored.lufs === 'number' || stored.lufs === null) ? stored.lufs : undefined;
  } catch {
    return undefined;
  }
}

function writeSidecar(path: string, key: string, lufs: number | null): void {
  const sidecar = loudnessSidecarPath(path);
  const partial = `${sidecar}.${process.pid}.partial`;
  try {
    writeFileSync(partial, JSON.stringify({ key, lufs }));
    renameSync(partial, sidecar);
  } catch {
    // A folder that cannot be written (a read-only upload) only costs the next render a measurement.
    rmSync(partial, { force: true });
  }
}

/**
 * Integrated loudness (LUFS) of a file as the mix hears it (48 kHz stereo), or null for silence.
 * Measured once per file version and kept beside the file: a long MP3 takes a few hundred ms to
 * measure, and every re-render with the same music (each in its own process) would measure it again.
 */
function loudnessOf(binaries: FfmpegBinaries, path: string, format: string, signal?: AbortSignal): Promise<number | null> {
  const stat = statSync(path);
  const version = `${binaries.ffmpegPath}\n${stat.size}\n${stat.mtimeMs}\n${format}`;
  const key = `${resolve(path)}\n${version}`;
  let pending = measured.get(key);
  if (!pending) {
    const kept = readSidecar(path, version);
    pending =
      kept !== undefined
        ? Promise.resolve(kept)
        : runFfmpeg(
            binaries.ffmpegPath,
            [
              '-loglevel',
              'info',
              '-i',
              resolve(path),
              '-vn',
              '-af',
              `aresample=48000,aformat=${format},${LOUDNESS_METER}`,
              '-f',
              'null',
              '-',
            ],
            { signal },
          ).then((stderr) => {
            const lufs = parseLoudness(stderr).integratedLufs;
            writeSidecar(path, version, lufs);
            return lufs;
          });
    measured.set(key, pending);
    pending.catch(() => measured.delete(key));
  }
  return pending;
}

/**
 * The gain (dB) that puts the music, under speech, MUSIC_UNDER_SPEECH_LU (moved by the volume
 * setting) below the voice's loudness; null when the music is muted or silent. A silent voice is
 * taken at the loudness narration is normalised to.
 */
export async function musicGainDb(
  binaries: FfmpegBinaries,
  voicePath: string,
  music: { path: string; volumePercent: number },
  format: string,
  voiceFallbackLufs: number,
  signal?: AbortSignal,
): Promise<number | null> {
  const offset = musicVolumeOffsetDb(music.volumePercent);
  if (offset === null) return null;
  const [voice, track] = await Promise.all([
    loudnessOf(binaries, voicePath, format, signal),
    loudnessOf(binaries, music.path, format, signal),
  ]);
  if (track === null) return null;
  return (voice ?? voiceFallbackLufs) + MUSIC_UNDER_SPEECH_LU + offset - track;
}
