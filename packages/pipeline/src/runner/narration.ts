import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { OUTPUT_FPS } from '../assembly/assemble-video.js';
import type { FfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { normaliseLoudness } from '../assembly/loudness.js';
import { runFfmpeg } from '../assembly/run-ffmpeg.js';
import { decodeWav, encodeWav } from '../audio/wav.js';
import type { SynthesisResult, WordTiming } from '../providers/types.js';
import { hashInputs } from './checkpoint.js';

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
  for (const [maxGap, minTempo] of [
    [0.6, 0.95],
    [MAX_SCENE_GAP_SECONDS, MIN_NARRATION_TEMPO],
  ] as const) {
    if (gaps > 0) gap = Math.min(maxGap, Math.max(gap, gapFor(tempo)));
    if (end(gap, tempo) >= target - 1e-6) break;
    tempo = Math.max(minTempo, Math.min(tempo, tempoFor(gap)));
    if (end(gap, tempo) >= target - 1e-6) break;
  }
  return done(gap, tempo);
}

/**
 * The seconds the story fills: the video less the brand's closing card. The card follows the last
 * word as a picture of its own, so the narration is planned that much shorter and the video stays
 * the length the creator picked.
 */
export function storySecondsFor(durationSeconds: number, endCard: { seconds: number } | null | undefined): number {
  return endCard ? Math.max(1, durationSeconds - endCard.seconds) : durationSeconds;
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

/** One scene's narration as placed in the video. */
export interface ScenePlacement {
  /** The scene's voice artefact (a hash of its text, voice, language and provider). */
  key: string;
  /** Seconds the voice took, as synthesised. */
  speechSeconds: number;
  /** atempo of this scene's speech: below 1 slower, above 1 faster. */
  tempo: number;
  /** Whole frames the scene's picture holds; its speech starts on its first frame. */
  pictureFrames: number;
}

/**
 * Where every scene's narration sits in the video, kept beside the video's narration artefacts so
 * the next version can leave the scenes nobody touched exactly where they were.
 */
export interface NarrationPlan {
  /** The length the creator asked for. */
  plannedSeconds: number;
  scenes: ScenePlacement[];
}

/** The video's length under a plan: its pictures end to end. */
export const planSeconds = (plan: NarrationPlan): number => plan.scenes.reduce((sum, scene) => sum + scene.pictureFrames, 0) / OUTPUT_FPS;

/**
 * A fresh story's plan: one pacing (paceNarration) for the whole narration, each picture held from
 * its scene's first word until the next scene's, the last until the planned end.
 */
export function planNarration(keys: readonly string[], speechSeconds: readonly number[], durationSeconds: number): NarrationPlan {
  const pacing = paceNarration(speechSeconds, durationSeconds);
  const starts: number[] = [];
  let cursor = 0;
  speechSeconds.forEach((seconds) => {
    starts.push(Math.round(cursor * OUTPUT_FPS));
    cursor += seconds / pacing.tempo + pacing.gapSeconds;
  });
  const total = Math.round(durationSeconds * OUTPUT_FPS);
  return {
    plannedSeconds: durationSeconds,
    scenes: keys.map((key, index) => ({
      key,
      speechSeconds: speechSeconds[index]!,
      tempo: pacing.tempo,
      pictureFrames: Math.max(1, (starts[index + 1] ?? total) - starts[index]!),
    })),
  };
}

/** A moved scene keeps its cached segment only when it moves by whole steps of this many frames (0.1 s at 30 fps). */
export const SCENE_SHIFT_FRAMES = 3;
/**
 * A re-voiced scene may lengthen or shorten the video by at most this much before the whole
 * narration is paced anew: the length a creator picked is a promise of ±0.5 s, and the finished
 * MP4's container adds up to a frame or two of audio priming on top.
 */
export const MAX_DURATION_DRIFT_SECONDS = 0.4;

/**
 * The next version's plan after an edit, or null when it cannot keep the last one (another scene
 * count or length, or edits that would move the end more than MAX_DURATION_DRIFT_SECONDS). A scene
 * whose voice is unchanged keeps its tempo and picture, so its audio, its words' times and its
 * rendered segment stay as they were. A re-voiced scene is fitted on its own to the speech time
 * its place had: its tempo within ±10% first, then its picture longer or shorter by what is left,
 * rounded to SCENE_SHIFT_FRAMES so the scenes after it move by whole steps (which keeps their
 * segments: segment keys are scene-local up to that step). The pause after its speech is kept.
 */
export function replanNarration(
  previous: NarrationPlan,
  keys: readonly string[],
  speechSeconds: readonly number[],
  durationSeconds: number,
): NarrationPlan | null {
  if (previous.plannedSeconds !== durationSeconds || previous.scenes.length !== keys.length) return null;
  const scenes = keys.map((key, index): ScenePlacement => {
    const before = previous.scenes[index]!;
    const speech = speechSeconds[index]!;
    if (before.key === key && Math.abs(before.speechSeconds - speech) < 1e-6) return before;
    const slot = before.speechSeconds / before.tempo;
    const pauseFrames = before.pictureFrames - slot * OUTPUT_FPS;
    const tempo = slot > 0 ? Math.min(MAX_NARRATION_TEMPO, Math.max(MIN_NARRATION_TEMPO, speech / slot)) : 1;
    const overFrames = (speech / tempo - slot) * OUTPUT_FPS;
    let steps = Math.round(overFrames / SCENE_SHIFT_FRAMES);
    // The pause after the speech never drops below the shortest a viewer hears as a break.
    while (
      before.pictureFrames + steps * SCENE_SHIFT_FRAMES - (speech / tempo) * OUTPUT_FPS <
      Math.min(pauseFrames, MIN_SCENE_GAP_SECONDS * OUTPUT_FPS)
    )
      steps += 1;
    return { key, speechSeconds: speech, tempo, pictureFrames: Math.max(1, before.pictureFrames + steps * SCENE_SHIFT_FRAMES) };
  });
  // Shorter speech that would end the video more than the drift allows keeps more of its picture
  // (a longer pause after its words) instead of moving every scene: re-voiced scenes, last first,
  // grow back by whole steps, never past their previous length.
  for (let index = scenes.length - 1; index >= 0; index--) {
    const before = previous.scenes[index]!;
    if (scenes[index] === before) continue;
    while (
      scenes[index]!.pictureFrames + SCENE_SHIFT_FRAMES <= before.pictureFrames &&
      planSeconds({ plannedSeconds: durationSeconds, scenes }) < durationSeconds - MAX_DURATION_DRIFT_SECONDS - 1e-6
    )
      scenes[index] = { ...scenes[index]!, pictureFrames: scenes[index]!.pictureFrames + SCENE_SHIFT_FRAMES };
  }
  const plan = { plannedSeconds: durationSeconds, scenes };
  return Math.abs(planSeconds(plan) - durationSeconds) <= MAX_DURATION_DRIFT_SECONDS + 1e-6 ? plan : null;
}

/**
 * The finished video's length: the plan's when an edit moved it within MAX_DURATION_DRIFT_SECONDS
 * (untouched scenes keep their frames), else exactly the length the creator picked. A narration
 * that overflows it is then sped up and cut after its last whole word at assembly, never allowed to
 * make the video longer.
 */
export function videoLengthFor(narration: Pick<Narration, 'videoSeconds'>, durationSeconds: number): number {
  return Math.abs(narration.videoSeconds - durationSeconds) <= MAX_DURATION_DRIFT_SECONDS + 1e-6 ? narration.videoSeconds : durationSeconds;
}

export interface Narration {
  audioPath: string;
  /** Seconds of audio in the joined narration. */
  durationSeconds: number;
  /**
   * The scenes' pictures end to end: within MAX_DURATION_DRIFT_SECONDS of the planned length after
   * an edit, longer when a fresh story's speech overflows it (the video is then held to the planned
   * length by `videoLengthFor`).
   */
  videoSeconds: number;
  words: WordTiming[];
  /** When each scene's speech starts (on its picture's first frame) and ends. */
  scenes: SceneTiming[];
}

const NARRATION_SAMPLE_RATE = 48000;
/**
 * Bump when the fitted-speech command changes in a way its key does not show (v2: loudness measured
 * and limited in this process, not by ffmpeg's ebur128 and alimiter).
 */
const FITTED_FORMAT = 'fitted-v2';

/**
 * One scene's speech at its tempo, resampled to 48 kHz mono and brought to the narration loudness,
 * cached beside its voicing under its voice key and tempo: a scene left alone is never processed
 * again, and its samples in the joined narration stay identical from version to version.
 */
async function fitSceneSpeech(
  binaries: FfmpegBinaries,
  part: SynthesisResult,
  placement: ScenePlacement,
  dir: string,
  signal?: AbortSignal,
): Promise<string> {
  const path = join(
    dir,
    `${placement.key}-${hashInputs({ format: FITTED_FORMAT, tempo: placement.tempo.toFixed(4), ffmpeg: binaries.ffmpegPath }).slice(0, 12)}.fitted.wav`,
  );
  if (existsSync(path)) return path;
  // One temporary file per call: scenes with identical narration share `path` and are fitted at once,
  // so a name per process let them overwrite and rename each other's file. The rename is atomic.
  const partial = `${path}.${process.pid}.${randomUUID()}.partial.wav`;
  try {
    // Only speech changes pace (atempo keeps its pitch); the pauses between scenes are laid in later.
    const paced = Math.abs(placement.tempo - 1) > 1e-4 ? `atempo=${placement.tempo.toFixed(4)},` : '';
    await runFfmpeg(
      binaries.ffmpegPath,
      [
        '-i',
        part.audioPath,
        '-af',
        `${paced}aresample=${NARRATION_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono`,
        '-c:a',
        'pcm_s16le',
        partial,
      ],
      { signal },
    );
    // Every voice (espeak, Azure, ElevenLabs, a creator's recording) ends at one loudness; music is
    // mixed under it at a level relative to the voice, so the finished video lands near -14 LUFS.
    await normaliseLoudness(partial);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  return path;
}

/**
 * The narration laid out by `plan`: each scene's fitted speech on its picture's first frame, silence
 * between, as one 48 kHz mono WAV of the video's length (or longer, when a fresh story's speech
 * overflows it and the assembly speeds it up). The words move with their scene.
 */
export async function joinNarration(
  binaries: FfmpegBinaries,
  parts: readonly SynthesisResult[],
  plan: NarrationPlan,
  outputPath: string,
  cacheDir: string,
  signal?: AbortSignal,
): Promise<Narration> {
  // Each scene is fitted in its own ffmpeg processes, all at once: a few short single-threaded
  // passes each, which one after another left a core idle and paid every process start in turn.
  const fittedPaths = await Promise.all(parts.map((part, index) => fitSceneSpeech(binaries, part, plan.scenes[index]!, cacheDir, signal)));
  const fitted = fittedPaths.map((path) => decodeWav(readFileSync(path)).samples);
  const samplesPerFrame = NARRATION_SAMPLE_RATE / OUTPUT_FPS;
  const starts: number[] = [];
  let frame = 0;
  for (const scene of plan.scenes) {
    starts.push(frame * samplesPerFrame);
    frame += scene.pictureFrames;
  }
  const videoSamples = frame * samplesPerFrame;
  const length = Math.max(videoSamples, ...fitted.map((samples, index) => starts[index]! + samples.length));
  const joined = new Int16Array(length);
  const words: WordTiming[] = [];
  const scenes: SceneTiming[] = [];
  fitted.forEach((samples, index) => {
    const start = starts[index]!;
    // A fresh story's speech that overflows its picture (the assembly then speeds the whole up) is
    // laid first, so the next scene's speech still starts where its picture does.
    joined.set(samples, start);
    const seconds = samples.length / NARRATION_SAMPLE_RATE;
    const part = parts[index]!;
    const scale = part.durationSeconds > 0 ? seconds / part.durationSeconds : 1;
    const at = start / NARRATION_SAMPLE_RATE;
    scenes.push({ start: at, end: at + seconds });
    for (const word of part.words) words.push({ word: word.word, start: at + word.start * scale, end: at + word.end * scale });
  });
  writeFileSync(outputPath, encodeWav(joined, NARRATION_SAMPLE_RATE));
  return {
    audioPath: outputPath,
    durationSeconds: length / NARRATION_SAMPLE_RATE,
    videoSeconds: videoSamples / NARRATION_SAMPLE_RATE,
    words,
    scenes,
  };
}
