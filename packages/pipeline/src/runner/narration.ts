import type { FfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { LOUDNESS_METER, normaliseLoudness, parseLoudness } from '../assembly/loudness.js';
import { runFfmpeg } from '../assembly/run-ffmpeg.js';
import type { SynthesisResult, WordTiming } from '../providers/types.js';

/** Silence between scenes: a breath that lets each picture land before the next line. */
export const SCENE_GAP_SECONDS = 0.3;

/** The narration ends this long before the video does: a last breath, well within a second of the end. */
export const NARRATION_END_MARGIN_SECONDS = 0.5;
/** Pauses between scenes may grow to this (a beat a viewer reads as pacing, not as dead air)… */
export const MAX_SCENE_GAP_SECONDS = 1.0;
export const MIN_SCENE_GAP_SECONDS = 0.15;
/** …and the voice may be slowed or sped by at most 10%, beyond which it stops sounding natural. */
export const MIN_NARRATION_TEMPO = 0.9;
export const MAX_NARRATION_TEMPO = 1.1;

export interface NarrationPacing {
  /** Silence between two scenes. */
  gapSeconds: number;
  /** atempo factor for the whole narration: below 1 slower (longer), above 1 faster. */
  tempo: number;
  /** When the narration ends once paced. */
  endSeconds: number;
}

/**
 * The pauses and tempo that make scenes of `speechSeconds` end NARRATION_END_MARGIN_SECONDS before
 * `durationSeconds`. A short narration first gets longer pauses (up to 0.6 s), then a slightly
 * slower voice (to 0.95), then pauses up to a second and the voice down to 0.9; a long one gets
 * shorter pauses, then a voice up to 10% faster. What cannot be fitted within those bounds stays
 * (a long narration is then cut after its last whole word at assembly).
 */
export function paceNarration(speechSeconds: readonly number[], durationSeconds: number): NarrationPacing {
  const speech = speechSeconds.reduce((sum, seconds) => sum + seconds, 0);
  const gaps = Math.max(0, speechSeconds.length - 1);
  const target = Math.max(0, durationSeconds - NARRATION_END_MARGIN_SECONDS);
  const end = (gap: number, tempo: number) => speech / tempo + gaps * gap;
  const gapFor = (tempo: number) => (gaps > 0 ? (target - speech / tempo) / gaps : SCENE_GAP_SECONDS);
  const tempoFor = (gap: number) => (target - gaps * gap > 0 ? speech / (target - gaps * gap) : MAX_NARRATION_TEMPO);
  const done = (gap: number, tempo: number): NarrationPacing => ({ gapSeconds: gap, tempo, endSeconds: end(gap, tempo) });

  if (end(SCENE_GAP_SECONDS, 1) > target) {
    const gap = gaps > 0 ? Math.max(MIN_SCENE_GAP_SECONDS, Math.min(SCENE_GAP_SECONDS, gapFor(1))) : SCENE_GAP_SECONDS;
    return done(gap, Math.min(MAX_NARRATION_TEMPO, Math.max(1, tempoFor(gap))));
  }
  let gap = SCENE_GAP_SECONDS;
  let tempo = 1;
  for (const [maxGap, minTempo] of [[0.6, 0.95], [MAX_SCENE_GAP_SECONDS, MIN_NARRATION_TEMPO]] as const) {
    if (gaps > 0) gap = Math.min(maxGap, Math.max(gap, gapFor(tempo)));
    if (end(gap, tempo) >= target - 1e-6) break;
    tempo = Math.max(minTempo, Math.min(tempo, tempoFor(gap)));
    if (end(gap, tempo) >= target - 1e-6) break;
  }
  return done(gap, tempo);
}

/** How many times a written story may be re-planned to fit its narration to the video. */
export const MAX_STORY_REPLANS = 2;

/**
 * null when scenes of `speechSeconds`, once paced, end within the last second of the video; else
 * the factor to scale the story's word budget by so that a rewrite fills it at the nominal pacing.
 */
export function storyBudgetCorrection(speechSeconds: readonly number[], durationSeconds: number): number | null {
  const pacing = paceNarration(speechSeconds, durationSeconds);
  const endsBefore = durationSeconds - pacing.endSeconds;
  if (endsBefore >= 0 && endsBefore <= 1) return null;
  const speech = speechSeconds.reduce((sum, seconds) => sum + seconds, 0);
  const wanted = durationSeconds - NARRATION_END_MARGIN_SECONDS - SCENE_GAP_SECONDS * Math.max(0, speechSeconds.length - 1);
  return speech > 0 ? Math.max(0.3, wanted / speech) : 2;
}

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

/**
 * Where each scene's audio lands in the joined narration, and the words moved to match; with a
 * tempo, speech takes 1/tempo of its time while the pauses keep theirs.
 */
export function layOutNarration(parts: readonly SynthesisResult[], gapSeconds = SCENE_GAP_SECONDS, tempo = 1): Omit<Narration, 'audioPath'> {
  const scenes: SceneTiming[] = [];
  const words: WordTiming[] = [];
  let cursor = 0;
  parts.forEach((part, index) => {
    if (index > 0) cursor += gapSeconds;
    const length = part.durationSeconds / tempo;
    scenes.push({ start: cursor, end: cursor + length });
    for (const word of part.words) words.push({ word: word.word, start: cursor + word.start / tempo, end: cursor + word.end / tempo });
    cursor += length;
  });
  return { durationSeconds: cursor, words, scenes };
}

/**
 * Joins the scenes' audio (any format a provider wrote) into one 48 kHz mono WAV with a silence
 * of `gapSeconds` between scenes and the speech at `tempo`. Silence comes from lavfi inputs rather
 * than apad's pad_dur, which the ffmpeg 4.1 fallback binary lacks.
 */
export async function joinNarration(
  binaries: FfmpegBinaries,
  parts: readonly SynthesisResult[],
  outputPath: string,
  signal?: AbortSignal,
  gapSeconds = SCENE_GAP_SECONDS,
  tempo = 1,
): Promise<Narration> {
  const layout = layOutNarration(parts, gapSeconds, tempo);
  const args: string[] = [];
  for (const part of parts) args.push('-i', part.audioPath);
  const gaps = Math.max(0, parts.length - 1);
  for (let index = 0; index < gaps; index++) {
    args.push('-f', 'lavfi', '-t', gapSeconds.toFixed(3), '-i', 'anullsrc=r=48000:cl=mono');
  }
  const normalise = 'aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono';
  // Only speech changes pace (atempo keeps its pitch); the pauses between scenes keep their length.
  const paced = Math.abs(tempo - 1) > 1e-4 ? `atempo=${tempo.toFixed(4)},` : '';
  const filters: string[] = [];
  const sequence: string[] = [];
  parts.forEach((_, index) => {
    filters.push(`[${index}:a]${paced}${normalise}[s${index}]`);
    if (index > 0) {
      const gapInput = parts.length + index - 1;
      filters.push(`[${gapInput}:a]${normalise}[g${index}]`);
      sequence.push(`[g${index}]`);
    }
    sequence.push(`[s${index}]`);
  });
  // The join measures its own loudness on the way out, so normalising needs no extra pass to start.
  filters.push(`${sequence.join('')}concat=n=${sequence.length}:v=0:a=1,${LOUDNESS_METER}[out]`);
  args.push('-loglevel', 'info', '-filter_complex', filters.join(';'), '-map', '[out]', '-c:a', 'pcm_s16le', outputPath);
  const measured = parseLoudness(await runFfmpeg(binaries.ffmpegPath, args, { signal }));
  // Every voice (espeak, Azure, ElevenLabs, a creator's recording) ends at one loudness; music is
  // mixed under it at a level relative to the voice, so the finished video lands near -14 LUFS.
  await normaliseLoudness(binaries, outputPath, signal, measured);
  return { audioPath: outputPath, ...layout };
}
