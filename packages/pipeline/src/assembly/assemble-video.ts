import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RESOLUTION_SIZES, captionTemplate } from '@reelsmith/contracts';
import type { AssemblyRequest, AssemblyResult } from '../providers/types.js';
import { captionFontFor, prepareFontsDir, type CaptionFont } from './caption-fonts.js';
import { captionWord } from './caption-grouping.js';
import { defaultFfmpegBinaries, requireFfmpegFilters } from './ffmpeg-binary.js';
import { probeDurationSeconds, runFfmpeg } from './run-ffmpeg.js';
import {
  AUDIO_ENCODER_ARGS,
  OUTPUT_FPS,
  audioFilter,
  captionFilter,
  closingCardFilter,
  fitNarration,
  logoFilter,
  mixedMusic,
  sceneFilter,
  sceneFrameCounts,
  sceneInput,
  supportsPerFrameScale,
  videoEncoderArgs,
  type AssembleOptions,
  type ClosingCard,
  type NarrationFit,
  type RenderContext,
} from './render-graph.js';
import { encodeSoundtrackAhead, renderSegmentAhead, renderSegmented, type SegmentReport } from './segment-cache.js';

// The render's building blocks keep their home here for the code and the benches that import them.
export {
  AUDIO_ENCODER_ARGS,
  DEFAULT_PRESET,
  DEFAULT_SEGMENT_CONCURRENCY,
  MAX_TEMPO,
  OUTPUT_FPS,
  ZOOM_AMOUNT,
  fitNarration,
  logoOverlayPosition,
  sceneFrameCounts,
  supportsPerFrameScale,
  videoEncoderArgs,
  type AssembleOptions,
  type NarrationFit,
} from './render-graph.js';
/**
 * One pass: every scene, the captions, the audio and the encoder in one ffmpeg process. No job
 * renders this way (segments use both cores and are cached); it stays as the reference the segmented
 * render is held to: the tests check that segments draw the same frames (zoom, captions at the cuts),
 * and the benches render the earlier settings with it.
 */
async function renderSinglePass(ctx: RenderContext, fit: NarrationFit, frames: number[], outputPath: string): Promise<void> {
  const { request, width, height } = ctx;
  const args: string[] = [];
  for (const scene of fit.scenes) args.push(...sceneInput(scene));
  args.push('-i', resolve(request.audioPath));
  const filters = fit.scenes.map((scene, index) =>
    sceneFilter(index, frames[index]!, width, height, request, ctx.perFrameScale, Boolean(scene.videoPath)),
  );
  if (request.music) args.push('-stream_loop', '-1', '-i', resolve(request.music.path));
  if (request.brand?.logo) args.push('-i', resolve(request.brand.logo.path));
  // The closing card's picture is the last input, after the audio, the music and the logo.
  const pictures = fit.scenes.map((_, index) => `[v${index}]`);
  if (ctx.closingCard) {
    const cardInput = fit.scenes.length + 1 + (request.music ? 1 : 0) + (request.brand?.logo ? 1 : 0);
    args.push('-i', resolve(ctx.closingCard.imagePath));
    filters.push(closingCardFilter(cardInput, ctx.closingCard.frames, width, height));
    pictures.push(`[v${cardInput}]`);
  }
  let videoOut = pictures.length > 1 ? '[vcat]' : pictures[0]!;
  if (pictures.length > 1) filters.push(`${pictures.join('')}concat=n=${pictures.length}:v=1:a=0[vcat]`);
  if (request.brand?.logo) {
    filters.push(logoFilter(ctx, fit.scenes.length + (request.music ? 2 : 1), videoOut, '[vlogo]')!);
    videoOut = '[vlogo]';
  }
  const captions = captionFilter(ctx, ctx.captions ? fit.words : [], 'captions.ass', ctx.workDir);
  if (captions) {
    filters.push(`${videoOut}${captions}[vsub]`);
    videoOut = '[vsub]';
  }
  filters.push(
    audioFilter(`[${fit.scenes.length}:a]`, fit, request.durationSeconds, await mixedMusic(ctx, `[${fit.scenes.length + 1}:a]`)),
  );
  args.push(
    '-filter_complex',
    filters.join(';'),
    '-map',
    videoOut,
    '-map',
    '[aout]',
    ...videoEncoderArgs(ctx.options),
    ...AUDIO_ENCODER_ARGS,
    '-t',
    request.durationSeconds.toFixed(3),
    '-movflags',
    '+faststart',
    outputPath,
  );
  await runFfmpeg(ctx.binaries.ffmpegPath, args, {
    signal: ctx.options.signal,
    durationSeconds: request.durationSeconds,
    onProgress: ctx.options.onProgress,
    onSpawn: ctx.options.onSpawn,
    cwd: ctx.workDir,
  });
}

/**
 * The poster: the first scene's picture as the video shows it, with the brand's logo and, when the
 * style is an animated template, its first caption drawn as it looks mid-way through the first word
 * (the frame is stamped with that time so the caption file's animations are at that point).
 */
function posterArgs(ctx: RenderContext, fit: NarrationFit, posterPath: string): string[] {
  const { width, height, request } = ctx;
  const cover = `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`;
  const first = fit.words.find((word) => captionWord(word.word) !== '');
  const template = ctx.captions && first && captionTemplate(request.captionStyle) ? first : null;
  const at = template ? Math.min(template.start + 0.25, (template.start + template.end) / 2 + 0.15) : 0;
  let graph = `[0:v]${cover},format=yuv420p,setpts=${at.toFixed(3)}/TB[vposter]`;
  let out = '[vposter]';
  const logo = logoFilter(ctx, 1, out, '[vposterlogo]');
  if (logo) {
    graph += `;${logo}`;
    out = '[vposterlogo]';
  }
  const firstSceneEnd = fit.scenes[1]?.start ?? Infinity;
  const captions = template
    ? captionFilter(
        ctx,
        fit.words.filter((word) => word.start < firstSceneEnd),
        'poster.ass',
        ctx.workDir,
      )
    : null;
  if (captions) {
    graph += `;${out}${captions}[vposterass]`;
    out = '[vposterass]';
  }
  return [
    '-i',
    resolve(fit.scenes[0]!.imagePath),
    ...(request.brand?.logo ? ['-i', resolve(request.brand.logo.path)] : []),
    '-filter_complex',
    graph,
    '-map',
    out,
    '-frames:v',
    '1',
    '-q:v',
    '3',
    posterPath,
  ];
}

/** The seconds the narration and pictures fill: the video's length less the brand's closing card. */
function storySecondsOf(request: Pick<AssemblyRequest, 'durationSeconds' | 'brand'>): number {
  const endCard = request.brand?.endCard;
  return endCard ? Math.max(1, request.durationSeconds - endCard.seconds) : request.durationSeconds;
}

/** Where a render keeps its segments and soundtrack (null: one pass, nothing cached). */
function segmentDirOf(request: AssemblyRequest, options: AssembleOptions, workDir: string): string | null {
  return request.segmentCacheDir ? resolve(request.segmentCacheDir) : options.segmented === false ? null : join(workDir, 'segments');
}

/** A scene's picture as the pictures step made it. */
export interface ScenePicture {
  imagePath: string;
  videoPath?: string;
}

/**
 * Parts of a render made before its pictures are all there: the soundtrack as soon as the narration
 * and music are, and each scene's segment as soon as its picture is. Each goes into the segment cache
 * under the key the render itself computes (the request must be the render's own, its pictures aside:
 * scenes whose picture is not made yet may name any path), so the render finds them done, or still
 * running and waits for them. Without a segment cache there is nothing to keep them in.
 */
export interface RenderAhead {
  soundtrack(): Promise<void>;
  scene(index: number, picture: ScenePicture): Promise<void>;
}

export async function planRenderAhead(request: AssemblyRequest, options: AssembleOptions = {}): Promise<RenderAhead> {
  const { ctx, fit, frames } = await planRender(request, options);
  const segmentDir = segmentDirOf(request, options, ctx.workDir);
  return {
    soundtrack: async () => {
      if (segmentDir) await encodeSoundtrackAhead(ctx, fit, segmentDir);
    },
    scene: async (index, picture) => {
      // A scene past the end (the fit drops scenes that would start in the last half second) has no segment.
      if (!segmentDir || index >= fit.scenes.length) return;
      const scenes = fit.scenes.map((scene, at) =>
        at === index
          ? {
              start: scene.start,
              end: scene.end,
              imagePath: picture.imagePath,
              ...(picture.videoPath ? { videoPath: picture.videoPath } : {}),
            }
          : scene,
      );
      await renderSegmentAhead(ctx, { ...fit, scenes }, frames, segmentDir, index);
    },
  };
}

/** Renders the final MP4 (H.264 yuv420p + AAC, faststart) and its poster. */
interface RenderPlan {
  ctx: RenderContext;
  fit: NarrationFit;
  frames: number[];
}

/** Everything a render decides before drawing: the narration's fit, each scene's frames, fonts, the context. */
async function planRender(request: AssemblyRequest, options: AssembleOptions): Promise<RenderPlan> {
  const binaries = options.binaries ?? defaultFfmpegBinaries();
  const { width, height } = options.frameSize ?? RESOLUTION_SIZES[request.resolution];
  const duration = request.durationSeconds;
  if (request.scenes.length === 0) throw new Error('There are no scenes to put in the video.');
  const workDir = resolve(request.workDir);
  mkdirSync(workDir, { recursive: true });

  // The probe and the binary's checks (each a short ffmpeg run, the checks cached per binary) at once.
  const [audioSeconds, perFrameScale] = await Promise.all([
    probeDurationSeconds(binaries, request.audioPath, options.signal),
    request.enableZoom ? supportsPerFrameScale(binaries.ffmpegPath) : false,
    (request.enableCaptions && request.words.length > 0) || request.brand?.endCard
      ? requireFfmpegFilters(binaries.ffmpegPath, ['ass'])
      : undefined,
  ]);
  // The brand's end card is a picture of its own after the last word: the narration and its
  // pictures fill the video up to it (the runner planned the story that much shorter).
  const endCard = request.brand?.endCard ?? null;
  const storySeconds = storySecondsOf(request);
  const fit = fitNarration(audioSeconds, storySeconds, request.words, request.scenes);
  const frames = sceneFrameCounts(fit.scenes, storySeconds);
  const storyFrames = frames.reduce((sum, count) => sum + count, 0);
  const closingCard: ClosingCard | null =
    endCard && fit.scenes.length > 0
      ? {
          text: endCard.text,
          startFrame: storyFrames,
          frames: Math.max(1, Math.round(duration * OUTPUT_FPS) - storyFrames),
          imagePath: fit.scenes[fit.scenes.length - 1]!.imagePath,
        }
      : null;
  let font: CaptionFont | null = null;
  let fontsDir: string | null = null;
  const captions = request.enableCaptions && fit.words.length > 0;
  if (captions || request.brand?.endCard) {
    font = captionFontFor(request.language, {}, request.brand?.fontId);
    fontsDir = prepareFontsDir(font, join(workDir, 'fonts'));
  }
  // The closing card is a cut too: a caption never runs onto it.
  const cuts = (closingCard ? frames : frames.slice(0, -1)).map(
    (_, index) => frames.slice(0, index + 1).reduce((sum, count) => sum + count, 0) / OUTPUT_FPS,
  );
  const ctx: RenderContext = {
    request,
    options,
    binaries,
    workDir,
    width,
    height,
    perFrameScale,
    font,
    fontsDir,
    captions,
    cuts,
    storySeconds: storyFrames / OUTPUT_FPS,
    closingCard,
  };
  return { ctx, fit, frames };
}

export async function assembleVideo(request: AssemblyRequest, options: AssembleOptions = {}): Promise<AssemblyResult> {
  const started = performance.now();
  const { ctx, fit, frames } = await planRender(request, options);
  const { binaries, workDir, width, height } = ctx;
  const duration = request.durationSeconds;
  const outputPath = resolve(request.outputPath);
  const posterPath = resolve(request.posterPath);
  const poster = runFfmpeg(binaries.ffmpegPath, posterArgs(ctx, fit, posterPath), { signal: options.signal, cwd: workDir });
  const segmentDir = segmentDirOf(request, options, workDir);
  let segments: SegmentReport | null = null;
  const video = segmentDir
    ? renderSegmented(ctx, fit, frames, outputPath, segmentDir).then((report) => void (segments = report))
    : renderSinglePass(ctx, fit, frames, outputPath);
  // Both ffmpeg processes end before we return or throw, so a failed render leaves none running.
  const settled = await Promise.allSettled([video, poster]);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  options.onProgress?.(100);

  const finalSeconds = await probeDurationSeconds(binaries, outputPath, options.signal).catch(() => duration);
  const report = segments as SegmentReport | null;
  return {
    videoPath: outputPath,
    posterPath,
    durationSeconds: finalSeconds,
    width,
    height,
    sizeBytes: statSync(outputPath).size,
    // The single pass draws every scene, none of them cached.
    renderStats: {
      seconds: (performance.now() - started) / 1000,
      segmentsRendered: report?.rendered ?? request.scenes.length,
      segmentsReused: report?.reused ?? 0,
    },
    ...(report ? { soundtrackReused: report.soundtrackReused } : {}),
    // Made whether or not the captions are burned in: the caption files need them either way.
    captionTrack: { words: fit.words, cuts: ctx.cuts, language: request.language },
  };
}
