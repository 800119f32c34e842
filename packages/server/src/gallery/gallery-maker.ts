import { generateVideoBodySchema, RESOLUTION_SIZES, type GalleryExample, type Resolution } from '@reelsmith/contracts';
import {
  assembleVideo,
  createProviders,
  getVoices,
  loadPipelineConfig,
  resolveFfmpegBinaries,
  runFfmpeg,
  runGeneration,
  type FfmpegBinaries,
} from '@reelsmith/pipeline';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

/** URL prefix the gallery's files are served under. */
export const GALLERY_URL_PREFIX = '/gallery/';

/**
 * What each example is made from: a topic, style and caption look per format, the shortest
 * duration the product allows, the offline providers (no key, no network), captions and music on.
 */
export const GALLERY_RECIPES: ReadonlyArray<{
  slug: string;
  resolution: Resolution;
  topic: string;
  style: string;
  captionStyle: 'tiktok' | 'youtube' | 'instagram';
}> = [
  { slug: 'portrait', resolution: '9:16', topic: 'Why octopuses have three hearts', style: 'educational', captionStyle: 'tiktok' },
  { slug: 'landscape', resolution: '16:9', topic: 'The lighthouse keeper who vanished', style: 'mysterious', captionStyle: 'youtube' },
  { slug: 'square', resolution: '1:1', topic: 'Small habits that change a morning', style: 'motivational', captionStyle: 'instagram' },
];
type Recipe = (typeof GALLERY_RECIPES)[number];

/**
 * The examples play in tiles a few hundred pixels wide: rendered at half the product's frame size
 * they cost about a quarter of the CPU and a visitor on a phone downloads a quarter of the bytes.
 */
const frameSize = (resolution: Resolution) => ({
  width: RESOLUTION_SIZES[resolution].width / 2,
  height: RESOLUTION_SIZES[resolution].height / 2,
});
/** Poster width: the tile's width on a wide screen at 2x; the poster loads with the page, so it stays small. */
const POSTER_WIDTH = 480;
/** Lowest CPU priority: a creator's job or a page request always goes first. */
export const BACKGROUND_NICENESS = 19;

/** The recipe's version: a changed recipe makes a new example (its files' names change with it). */
const recipeHash = (recipe: Recipe) =>
  createHash('sha256')
    .update(JSON.stringify({ ...recipe, v: 1 }))
    .digest('hex')
    .slice(0, 12);

/** The record of a made example: `<slug>.json`, naming the recipe version it was made from. */
const recordPath = (dir: string, recipe: Recipe) => join(dir, `${recipe.slug}.json`);

/** The example as recorded, or null while none is made from this version of its recipe. */
export function readExample(dir: string, recipe: Recipe): GalleryExample | null {
  try {
    const record = JSON.parse(readFileSync(recordPath(dir, recipe), 'utf8')) as { recipe: string; example: GalleryExample };
    return record.recipe === recipeHash(recipe) ? record.example : null;
  } catch {
    return null;
  }
}

/** Records a made example, atomically: a crash never leaves a record of a half-made one. */
export function saveExample(dir: string, recipe: Recipe, example: GalleryExample): void {
  const partial = `${recordPath(dir, recipe)}.partial`;
  writeFileSync(partial, JSON.stringify({ recipe: recipeHash(recipe), example }));
  renameSync(partial, recordPath(dir, recipe));
}

export interface MakeExampleOptions {
  env?: Record<string, string | undefined>;
  binaries?: FfmpegBinaries;
  signal?: AbortSignal;
}

/**
 * Makes one example with the product's own generator and keeps its video and a small poster in
 * `dir` (the caller records it with saveExample once it is whole).
 */
export async function makeExample(dir: string, recipe: Recipe, options: MakeExampleOptions = {}): Promise<GalleryExample> {
  const env = options.env ?? process.env;
  const config = loadPipelineConfig({
    ...env,
    STORY_PROVIDER: 'offline',
    IMAGE_PROVIDER: 'offline',
    VOICE_PROVIDER: 'offline',
    RESEARCH_PROVIDER: 'off',
  });
  const binaries = options.binaries ?? resolveFfmpegBinaries({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }, env);
  const hash = recipeHash(recipe);
  const workspaceDir = join(dir, 'work', recipe.slug);
  rmSync(workspaceDir, { recursive: true, force: true });
  mkdirSync(workspaceDir, { recursive: true });
  const lowPriority = (pid: number) => {
    try {
      setPriority(pid, BACKGROUND_NICENESS);
    } catch {
      // The process may already have ended; it ran at normal priority for a moment, nothing more.
    }
  };
  try {
    const voice = getVoices('offline', 'en')[0]!;
    const params = generateVideoBodySchema.parse({
      topic: recipe.topic,
      style: recipe.style,
      language: 'en',
      duration: 30,
      voice: voice.id,
      resolution: recipe.resolution,
      enableCaptions: true,
      captionStyle: recipe.captionStyle,
      enableZoom: true,
      music: 'auto',
    });
    const output = await runGeneration(
      {
        jobId: `gallery-${recipe.slug}`,
        params,
        workspaceDir,
        providers: createProviders(config),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      {
        binaries,
        renderPreset: config.renderPreset,
        assemble: (request, assembleOptions) =>
          assembleVideo(request, { ...assembleOptions, frameSize: frameSize(recipe.resolution), onSpawn: lowPriority }),
      },
    );
    const name = `${recipe.slug}-${hash}`;
    renameSync(output.videoPath, join(dir, `${name}.mp4`));
    await runFfmpeg(
      binaries.ffmpegPath,
      ['-y', '-i', output.posterPath, '-vf', `scale=${POSTER_WIDTH}:-2`, '-q:v', '5', join(dir, `${name}.jpg`)],
      { onSpawn: lowPriority, ...(options.signal ? { signal: options.signal } : {}) },
    );
    const size = frameSize(recipe.resolution);
    return {
      resolution: recipe.resolution,
      title: output.title,
      videoUrl: `${GALLERY_URL_PREFIX}${name}.mp4`,
      posterUrl: `${GALLERY_URL_PREFIX}${name}.jpg`,
      width: size.width,
      height: size.height,
      durationSeconds: Math.round(output.durationSeconds * 10) / 10,
    };
  } finally {
    rmSync(workspaceDir, { recursive: true, force: true });
  }
}
