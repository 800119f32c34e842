import { mkdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { RESOLUTION_SIZES } from '@reelsmith/contracts';
import type { AssemblyRequest, AssemblyScene, WordTiming } from '../providers/types.js';
import { captionFontFor, prepareFontsDir } from './caption-fonts.js';
import { writeCaptionsAss } from './captions-ass.js';
import { defaultFfmpegBinaries, requireFfmpegFilters, type FfmpegBinaries } from './ffmpeg-binary.js';
import { captureOutput, probeDurationSeconds, runFfmpeg } from './run-ffmpeg.js';

export const OUTPUT_FPS = 30;
/** Ken Burns travel per scene: 12% is visible motion without making the picture soft. */
export const ZOOM_AMOUNT = 0.12;
/** Narration may be sped up this much to fit; beyond it the end is trimmed at a word boundary. */
export const MAX_TEMPO = 1.15;
/**
 * Diamond motion search with one subpel pass: on Ken Burns footage (every block moves a little, the
 * same way as its neighbours) it predicts nearly as well as veryfast's hexagon search and cuts the
 * encoder's CPU time by about a quarter (measured: 34.9 -> 25.5 CPU-seconds for 30 s of 9:16).
 */
export const X264_PARAMS = 'me=dia:subme=1';

/** Encoder settings shared by the render and the bench's floor, so both are measured alike. */
export function videoEncoderArgs(options: Pick<AssembleOptions, 'preset' | 'crf' | 'x264Params'> = {}): string[] {
  const params = options.x264Params ?? X264_PARAMS;
  return [
    '-c:v', 'libx264', '-preset', options.preset ?? 'veryfast', '-crf', String(options.crf ?? 21),
    ...(params ? ['-x264-params', params] : []),
    '-pix_fmt', 'yuv420p', '-profile:v', 'high', '-r', String(OUTPUT_FPS), '-g', String(OUTPUT_FPS * 2),
  ];
}

export const AUDIO_ENCODER_ARGS = ['-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2'];

export interface AssembleOptions {
  binaries?: FfmpegBinaries;
  /** x264 preset (RENDER_PRESET). */
  preset?: string;
  crf?: number;
  /** Extra x264 settings; defaults to X264_PARAMS. */
  x264Params?: string;
  /** Renders at another frame size than the resolution's (tests and previews); the aspect ratio should match. */
  frameSize?: { width: number; height: number };
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
  onSpawn?: (pid: number) => void;
}

export interface AssemblyResult {
  videoPath: string;
  posterPath: string;
  durationSeconds: number;
  width: number;
  height: number;
  sizeBytes: number;
}

export interface NarrationFit {
  /** atempo factor applied to the narration (1 = untouched). */
  tempo: number;
  /** Seconds of (sped-up) narration kept; null when all of it fits. */
  cutAt: number | null;
  words: WordTiming[];
  scenes: AssemblyScene[];
}

/**
 * Fits the narration into the chosen duration: shorter narration is padded with silence later; longer
 * narration is sped up by at most MAX_TEMPO, and what still overflows is cut after the last whole word.
 */
export function fitNarration(audioSeconds: number, durationSeconds: number, words: WordTiming[], scenes: AssemblyScene[]): NarrationFit {
  const tempo = audioSeconds > durationSeconds + 0.05 ? Math.min(MAX_TEMPO, audioSeconds / (durationSeconds - 0.05)) : 1;
  const scaled = words.map((w) => ({ word: w.word, start: w.start / tempo, end: w.end / tempo }));
  let cutAt: number | null = null;
  let kept = scaled;
  if (audioSeconds / tempo > durationSeconds) {
    const limit = durationSeconds - 0.15;
    kept = scaled.filter((w) => w.end <= limit);
    const lastWord = kept[kept.length - 1];
    cutAt = lastWord ? Math.min(limit, lastWord.end + 0.08) : limit;
  }
  const fittedScenes = scenes
    .map((scene) => ({ imagePath: scene.imagePath, start: scene.start / tempo, end: scene.end / tempo }))
    .filter((scene) => scene.start < durationSeconds - 0.5);
  return { tempo, cutAt, words: kept, scenes: fittedScenes };
}

/** Whole frames per scene: cuts land on the frame nearest each scene start, the last scene runs to the end. */
export function sceneFrameCounts(scenes: AssemblyScene[], durationSeconds: number, fps = OUTPUT_FPS): number[] {
  const total = Math.round(durationSeconds * fps);
  const starts = scenes.map((scene, index) => (index === 0 ? 0 : Math.round(scene.start * fps)));
  const counts = starts.map((start, index) => (index === starts.length - 1 ? total : (starts[index + 1] ?? total)) - start);
  // Narration timings can put two cuts on the same frame; every scene keeps at least one frame.
  for (let index = 0; index < counts.length; index++) {
    if (counts[index]! < 1) {
      const deficit = 1 - counts[index]!;
      counts[index] = 1;
      const donor = counts.findIndex((count) => count > 1 + deficit);
      if (donor >= 0) counts[donor]! -= deficit;
    }
  }
  return counts;
}

const frameEvalSupport = new Map<string, Promise<boolean>>();

/**
 * ffmpeg 5+ can rescale per frame with the frame number in the expression (smooth, cheap Ken Burns);
 * the bundled 4.1 build cannot, and falls back to zoompan on an upscaled picture.
 */
export function supportsPerFrameScale(ffmpegPath: string): Promise<boolean> {
  let pending = frameEvalSupport.get(ffmpegPath);
  if (!pending) {
    pending = captureOutput(ffmpegPath, [
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=s=16x16:d=0.1',
      '-vf', "scale=w='16+2*mod(n\\,2)':h=16:eval=frame", '-f', 'null', '-',
    ]).then(
      () => true,
      () => false,
    );
    frameEvalSupport.set(ffmpegPath, pending);
  }
  return pending;
}

const even = (value: number) => Math.round(value / 2) * 2;

function sceneFilter(input: number, frames: number, width: number, height: number, request: AssemblyRequest, perFrameScale: boolean): string {
  const cover = (w: number, h: number) => `scale=${w}:${h}:force_original_aspect_ratio=increase:flags=lanczos,crop=${w}:${h}`;
  const hold = `loop=loop=${frames - 1}:size=1:start=0,setpts=N/${OUTPUT_FPS}/TB`;
  if (!request.enableZoom) {
    return `[${input}:v]${cover(width, height)},format=yuv420p,${hold},setsar=1[v${input}]`;
  }
  const span = Math.max(1, frames - 1);
  const progress = request.zoomDirection === 'in' ? `(n/${span})` : `(1-n/${span})`;
  if (perFrameScale) {
    // Picture prepared once (cover + yuv420p) a little larger than the widest zoom, then every frame is
    // a centred crop of a per-frame downscale: even sizes keep the centre fixed, so there is no jitter.
    const sourceW = even(width * (1 + ZOOM_AMOUNT + 0.03));
    const sourceH = even(height * (1 + ZOOM_AMOUNT + 0.03));
    const w = `trunc(${width}*(1+${ZOOM_AMOUNT}*${progress})/2)*2`;
    const h = `trunc(${height}*(1+${ZOOM_AMOUNT}*${progress})/2)*2`;
    // crop's iw/ih stay those of the first frame when scale changes size per frame, so the centre
    // offset is computed from the same per-frame size; exact=1 keeps odd offsets (no 1-px wobble).
    return (
      `[${input}:v]${cover(sourceW, sourceH)},format=yuv420p,${hold},` +
      `scale=w='${w}':h='${h}':eval=frame:flags=bilinear,` +
      `crop=w=${width}:h=${height}:x='(${w}-${width})/2':y='(${h}-${height})/2':exact=1,setsar=1[v${input}]`
    );
  }
  // zoompan crops at whole input pixels; working at 2x output size halves the visible step.
  const zoomProgress = request.zoomDirection === 'in' ? `(on/${span})` : `(1-on/${span})`;
  return (
    `[${input}:v]${cover(width * 2, height * 2)},format=yuv420p,` +
    `zoompan=z='1+${ZOOM_AMOUNT}*${zoomProgress}':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=${frames}:s=${width}x${height}:fps=${OUTPUT_FPS},` +
    `setsar=1[v${input}]`
  );
}

/** Renders the final MP4 (H.264 yuv420p + AAC, faststart) and its poster. */
export async function assembleVideo(request: AssemblyRequest, options: AssembleOptions = {}): Promise<AssemblyResult> {
  const binaries = options.binaries ?? defaultFfmpegBinaries();
  const { width, height } = options.frameSize ?? RESOLUTION_SIZES[request.resolution];
  const duration = request.durationSeconds;
  if (request.scenes.length === 0) throw new Error('There are no scenes to put in the video.');
  const workDir = resolve(request.workDir);
  mkdirSync(workDir, { recursive: true });

  const audioSeconds = await probeDurationSeconds(binaries, request.audioPath, options.signal);
  const fit = fitNarration(audioSeconds, duration, request.words, request.scenes);
  const frames = sceneFrameCounts(fit.scenes, duration);
  const perFrameScale = request.enableZoom ? await supportsPerFrameScale(binaries.ffmpegPath) : false;

  const args: string[] = [];
  for (const scene of fit.scenes) args.push('-i', resolve(scene.imagePath));
  args.push('-i', resolve(request.audioPath));
  const audioInput = fit.scenes.length;

  const filters = fit.scenes.map((_, index) => sceneFilter(index, frames[index]!, width, height, request, perFrameScale));
  const concatInputs = fit.scenes.map((_, index) => `[v${index}]`).join('');
  let videoOut = fit.scenes.length > 1 ? '[vcat]' : '[v0]';
  if (fit.scenes.length > 1) filters.push(`${concatInputs}concat=n=${fit.scenes.length}:v=1:a=0[vcat]`);

  if (request.enableCaptions && fit.words.length > 0) {
    const font = captionFontFor(request.language);
    await requireFfmpegFilters(binaries.ffmpegPath, ['ass']);
    const fontsDir = prepareFontsDir(font, join(workDir, 'fonts'));
    const assPath = join(workDir, 'captions.ass');
    writeCaptionsAss(assPath, { words: fit.words, style: request.captionStyle, language: request.language, width, height, font, durationSeconds: duration });
    // Relative names (ffmpeg runs in workDir) avoid filtergraph escaping of arbitrary paths.
    filters.push(`${videoOut}ass=filename=${basename(assPath)}:fontsdir=${relative(workDir, fontsDir) || '.'}[vsub]`);
    videoOut = '[vsub]';
  }

  const audioChain: string[] = [];
  if (fit.tempo > 1.0001) audioChain.push(`atempo=${fit.tempo.toFixed(4)}`);
  if (fit.cutAt !== null) {
    audioChain.push(`atrim=0:${fit.cutAt.toFixed(3)}`, `afade=t=out:st=${Math.max(0, fit.cutAt - 0.12).toFixed(3)}:d=0.12`);
  }
  audioChain.push('aresample=48000', 'apad');
  filters.push(`[${audioInput}:a]${audioChain.join(',')}[aout]`);

  const outputPath = resolve(request.outputPath);
  const posterPath = resolve(request.posterPath);
  args.push(
    '-filter_complex', filters.join(';'),
    '-map', videoOut, '-map', '[aout]',
    ...videoEncoderArgs(options),
    ...AUDIO_ENCODER_ARGS,
    '-t', duration.toFixed(3),
    '-movflags', '+faststart',
    outputPath,
  );

  const poster = runFfmpeg(
    binaries.ffmpegPath,
    ['-i', resolve(fit.scenes[0]!.imagePath), '-vf', `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`, '-frames:v', '1', '-q:v', '3', posterPath],
    { signal: options.signal },
  );
  const video = runFfmpeg(binaries.ffmpegPath, args, {
    signal: options.signal,
    durationSeconds: duration,
    onProgress: options.onProgress,
    onSpawn: options.onSpawn,
    cwd: workDir,
  });
  // Both ffmpeg processes end before we return or throw, so a failed render leaves none running.
  const settled = await Promise.allSettled([video, poster]);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  options.onProgress?.(100);

  const finalSeconds = await probeDurationSeconds(binaries, outputPath, options.signal).catch(() => duration);
  return { videoPath: outputPath, posterPath, durationSeconds: finalSeconds, width, height, sizeBytes: statSync(outputPath).size };
}
