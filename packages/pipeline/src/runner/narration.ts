import type { FfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { runFfmpeg } from '../assembly/run-ffmpeg.js';
import type { SynthesisResult, WordTiming } from '../providers/types.js';

/** Silence between scenes: a breath that lets each picture land before the next line. */
export const SCENE_GAP_SECONDS = 0.3;

export interface SceneTiming {
  start: number;
  end: number;
}

export interface Narration {
  audioPath: string;
  durationSeconds: number;
  words: WordTiming[];
  /** When each scene's narration starts and ends in the joined audio. */
  scenes: SceneTiming[];
}

/** Where each scene's audio lands in the joined narration, and the words moved to match. */
export function layOutNarration(parts: readonly SynthesisResult[], gapSeconds = SCENE_GAP_SECONDS): Omit<Narration, 'audioPath'> {
  const scenes: SceneTiming[] = [];
  const words: WordTiming[] = [];
  let cursor = 0;
  parts.forEach((part, index) => {
    if (index > 0) cursor += gapSeconds;
    scenes.push({ start: cursor, end: cursor + part.durationSeconds });
    for (const word of part.words) words.push({ word: word.word, start: cursor + word.start, end: cursor + word.end });
    cursor += part.durationSeconds;
  });
  return { durationSeconds: cursor, words, scenes };
}

/**
 * Joins the scenes' audio (any format a provider wrote) into one 48 kHz mono WAV with a short
 * silence between scenes. Silence comes from lavfi inputs rather than apad's pad_dur, which the
 * ffmpeg 4.1 fallback binary lacks.
 */
export async function joinNarration(
  binaries: FfmpegBinaries,
  parts: readonly SynthesisResult[],
  outputPath: string,
  signal?: AbortSignal,
  gapSeconds = SCENE_GAP_SECONDS,
): Promise<Narration> {
  const layout = layOutNarration(parts, gapSeconds);
  const args: string[] = [];
  for (const part of parts) args.push('-i', part.audioPath);
  const gaps = Math.max(0, parts.length - 1);
  for (let index = 0; index < gaps; index++) {
    args.push('-f', 'lavfi', '-t', gapSeconds.toFixed(3), '-i', 'anullsrc=r=48000:cl=mono');
  }
  const normalise = 'aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono';
  const filters: string[] = [];
  const sequence: string[] = [];
  parts.forEach((_, index) => {
    filters.push(`[${index}:a]${normalise}[s${index}]`);
    if (index > 0) {
      const gapInput = parts.length + index - 1;
      filters.push(`[${gapInput}:a]${normalise}[g${index}]`);
      sequence.push(`[g${index}]`);
    }
    sequence.push(`[s${index}]`);
  });
  filters.push(`${sequence.join('')}concat=n=${sequence.length}:v=0:a=1[out]`);
  args.push('-filter_complex', filters.join(';'), '-map', '[out]', '-c:a', 'pcm_s16le', outputPath);
  await runFfmpeg(binaries.ffmpegPath, args, { signal });
  return { audioPath: outputPath, ...layout };
}
