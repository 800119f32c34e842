import { join } from 'node:path';
import type { AssembleOptions, ScenePicture } from '../assembly/assemble-video.js';
import { GENERATED_MUSIC_VOLUME_PERCENT } from '../music/music-bed.js';
import type { AssemblyRequest } from '../providers/types.js';
import { storySecondsFor, videoLengthFor, type Narration } from './narration.js';
import type { RunContext } from './run-context.js';

/**
 * The plan's length (an edit may move it a little so untouched scenes keep theirs), never more than
 * MAX_DURATION_DRIFT_SECONDS from the length the creator picked; the brand's closing card follows it
 * (the story was planned that much shorter).
 */
export function videoSecondsFor(ctx: RunContext, narration: Narration): { storySeconds: number; durationSeconds: number } {
  const { params, run } = ctx;
  const storySeconds = videoLengthFor(narration, storySecondsFor(params.duration, run.brand?.endCard));
  return { storySeconds, durationSeconds: storySeconds + (run.brand?.endCard?.seconds ?? 0) };
}

/**
 * The render's request: the pictures held for their scenes (each until the next scene's narration
 * begins, the last until the story ends), the fitted narration, the music under it, the options.
 */
export function renderRequestFor(
  ctx: RunContext,
  narration: Narration,
  pictures: readonly ScenePicture[],
  bed: string | null,
): AssemblyRequest {
  const { params, run, workspaceDir } = ctx;
  const { storySeconds, durationSeconds } = videoSecondsFor(ctx, narration);
  const timings = narration.scenes;
  // The creator's own track (storyboard) wins; otherwise the mood the job asked for, made offline.
  const music = run.music ?? (bed ? { path: bed, volumePercent: GENERATED_MUSIC_VOLUME_PERCENT } : undefined);
  return {
    scenes: pictures.map((picture, index) => ({
      imagePath: picture.imagePath,
      ...(picture.videoPath ? { videoPath: picture.videoPath } : {}),
      start: index === 0 ? 0 : (timings[index]?.start ?? 0),
      end: index + 1 < timings.length ? (timings[index + 1]?.start ?? storySeconds) : storySeconds,
    })),
    audioPath: narration.audioPath,
    words: narration.words,
    resolution: params.resolution,
    durationSeconds,
    enableZoom: params.enableZoom,
    zoomDirection: params.zoomDirection,
    enableCaptions: params.enableCaptions,
    captionStyle: params.captionStyle,
    language: params.language,
    outputPath: join(workspaceDir, 'video', 'video.mp4'),
    posterPath: join(workspaceDir, 'video', 'poster.jpg'),
    workDir: join(workspaceDir, 'video', 'work'),
    // Scene segments outlive the job so the next version re-renders only the scenes that changed;
    // without a video folder (npm run generate) the render keeps them in its work folder.
    ...(run.artefactDir ? { segmentCacheDir: join(run.artefactDir, 'segments') } : {}),
    ...(music ? { music } : {}),
    ...(run.brand ? { brand: run.brand } : {}),
  };
}

export function renderOptionsFor(ctx: RunContext): AssembleOptions {
  const { options, binaries, signal } = ctx;
  return { binaries, ...(options.renderPreset ? { preset: options.renderPreset } : {}), ...(signal ? { signal } : {}) };
}
