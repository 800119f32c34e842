import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { captionTemplate } from '@reelsmith/contracts';
import type { AssemblyScene } from '../providers/types.js';
import { prepareFontsDir } from './caption-fonts.js';
import { captionsAssWindow, earliestDialogueCs, shiftAssTimes } from './captions-ass.js';
import { runFfmpeg } from './run-ffmpeg.js';
import { musicLevelFilter } from './music-mix.js';
import {
  AUDIO_ENCODER_ARGS,
  DEFAULT_SEGMENT_CONCURRENCY,
  OUTPUT_FPS,
  assFilter,
  audioFilter,
  captionDocument,
  closingCardFilter,
  logoFilter,
  mixedMusic,
  sceneFilter,
  sceneInput,
  videoEncoderArgs,
  type NarrationFit,
  type RenderContext,
  type SoundtrackContext,
} from './render-graph.js';

/*
 * Scene segments and the encoded soundtrack, cached in a video's folder under a hash of everything
 * each is made from, so the next version renders only the scenes an edit touched.
 */

/** Bump when the segment command changes in a way the hashed inputs do not show. */
const SEGMENT_FORMAT = 'segment-v3';
/** Bump when the soundtrack command changes in a way the hashed inputs do not show. */
const SOUNDTRACK_FORMAT = 'soundtrack-v2';

interface SegmentJob {
  index: number;
  key: string;
  path: string;
  frames: number;
  /** The segment's first frame in the video. */
  startFrame: number;
  startSeconds: number;
  seconds: number;
  /** The caption lines on screen during the segment, on the segment's clock (null: none). */
  captions: SceneCaptions | null;
  scene: AssemblyScene;
  /** The brand's closing card (its picture is the background, blurred), not a scene of the story. */
  card?: true;
}

/** Caption times are centiseconds and frames thirtieths of a second: both are whole ticks of 1/3000 s. */
const CAPTION_TICKS_PER_SECOND = 3000;
const TICKS_PER_FRAME = CAPTION_TICKS_PER_SECOND / OUTPUT_FPS;
const TICKS_PER_CENTISECOND = CAPTION_TICKS_PER_SECOND / 100;

interface SceneCaptions {
  /** The segment's caption lines, their times moved back by a whole number of centiseconds. */
  document: string;
  /** When the segment's first frame falls on the moved lines' clock, in ticks. */
  firstFrameTicks: number;
}

/**
 * A segment's caption lines on a clock of their own: moved back to start at the segment's first
 * frame, or at the earliest line when one began before it (ASS has no negative times, and a line's
 * animations run from its own start). Frames are stamped on that clock in ticks that both caption
 * times and frames divide exactly, so each frame shows what one pass over the whole video shows,
 * while the key no longer holds the segment's place in the video.
 */
function sceneLocalCaptions(document: string, startFrame: number): SceneCaptions {
  const startCs = Math.floor((startFrame * TICKS_PER_FRAME) / TICKS_PER_CENTISECOND);
  const shiftCs = Math.min(startCs, earliestDialogueCs(document) ?? startCs);
  return { document: shiftAssTimes(document, -shiftCs), firstFrameTicks: startFrame * TICKS_PER_FRAME - shiftCs * TICKS_PER_CENTISECOND };
}

/** Half a millisecond: less than any step between a caption time (whole centiseconds) and a frame's time. */
const HALF_MS = 0.0005;

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Scenes as separate video-only segments (identical encoder settings, so they join without
 * re-encoding), each cached in segmentCacheDir under a hash of everything its pixels depend on.
 */
function planSegments(
  ctx: RenderContext,
  fit: NarrationFit,
  frames: number[],
  cacheDir: string,
  wanted: (index: number) => boolean = () => true,
): SegmentJob[] {
  const encoder = videoEncoderArgs(ctx.options);
  // One caption file for the whole video, as the single pass draws it; each segment keeps the lines
  // on screen during its frames (a caption crossing a cut is in both segments, its times unchanged).
  const whole = captionDocument(ctx, ctx.captions ? fit.words : []);
  const card = ctx.closingCard;
  // The closing card is one more segment after the story's, over its picture.
  const pictures: Array<{ scene: AssemblyScene; frames: number; card?: true }> = fit.scenes.map((scene, index) => ({
    scene,
    frames: frames[index]!,
  }));
  if (card) pictures.push({ scene: { imagePath: card.imagePath, start: 0, end: 0 }, frames: card.frames, card: true });
  let nextFrame = 0;
  const jobs: SegmentJob[] = [];
  pictures.forEach(({ scene, frames: count, card: isCard }, index) => {
    const startFrame = nextFrame;
    const startSeconds = startFrame / OUTPUT_FPS;
    const seconds = count / OUTPUT_FPS;
    nextFrame += count;
    // Only the wanted segments are keyed: a key reads its picture, which may not be made yet for the others.
    if (!wanted(index)) return;
    // The lines drawn on the segment's frames: a line that starts on the next scene's first frame
    // is never drawn here (libass shows a line while start <= the frame's time < end), so it stays
    // out of this segment's key. Windowing by the segment's end put the next scene's first line in
    // it, and an edit to that scene re-rendered this one too. Half a millisecond past the last
    // frame's time compares whole-centisecond line times without float error.
    const lastFrameSeconds = (startFrame + count - 1) / OUTPUT_FPS;
    const window = whole ? captionsAssWindow(whole, startSeconds, lastFrameSeconds + HALF_MS) : null;
    const local = window && window.events > 0 ? sceneLocalCaptions(window.document, startFrame) : null;
    const key = createHash('sha256')
      .update(
        JSON.stringify({
          format: SEGMENT_FORMAT,
          picture: fileHash(scene.videoPath ?? scene.imagePath),
          ...(scene.videoPath ? { clip: true } : {}),
          ...(isCard ? { card: true } : {}),
          frames: count,
          size: [ctx.width, ctx.height],
          zoom: ctx.request.enableZoom ? ctx.request.zoomDirection : null,
          perFrameScale: ctx.perFrameScale,
          // The lines themselves (styles, times, tags) and where the segment sits on their clock.
          // The lines on the segment's own clock and where its first frame falls on it: a scene that
          // moves by whole SCENE_SHIFT steps keeps its key, so an edit before it does not redraw it.
          captions:
            local && ctx.font
              ? {
                  ass: local.document,
                  firstFrameTicks: local.firstFrameTicks,
                  font: ctx.font.regularPath,
                  template: captionTemplate(ctx.request.captionStyle)?.version ?? null,
                }
              : null,
          logo: ctx.request.brand?.logo
            ? { ...ctx.request.brand.logo, path: fileHash(ctx.request.brand.logo.path), captions: ctx.captions }
            : null,
          encoder,
          ffmpeg: ctx.binaries.ffmpegPath,
        }),
      )
      .digest('hex')
      .slice(0, 32);
    jobs.push({
      index,
      key,
      path: join(cacheDir, `${key}.mp4`),
      frames: count,
      startFrame,
      startSeconds,
      seconds,
      captions: local,
      scene,
      ...(isCard ? { card: true as const } : {}),
    });
  });
  return jobs;
}

async function renderSegment(ctx: RenderContext, job: SegmentJob, cacheDir: string, onProgress: (seconds: number) => void): Promise<void> {
  const { width, height, request } = ctx;
  const scene = job.card
    ? closingCardFilter(0, job.frames, width, height)
    : sceneFilter(0, job.frames, width, height, request, ctx.perFrameScale, Boolean(job.scene.videoPath));
  await writeThroughPartial(job.path, async (partial, unique) => {
    const assName = `captions-${unique}.ass`;
    try {
      // Frames are stamped with their time on the captions' clock while they are drawn, then
      // restarted from zero so the segments join end to end.
      const captions = job.captions
        ? `settb=1/${CAPTION_TICKS_PER_SECOND},setpts=N*${TICKS_PER_FRAME}+${job.captions.firstFrameTicks},${assFilter(ctx, job.captions.document, assName, cacheDir)},settb=1/${OUTPUT_FPS},setpts=N`
        : null;
      const logo = logoFilter(ctx, 1, '[vscene]', captions ? '[vlogo]' : '[v0]');
      let graph = logo ? `${scene.replace(/\[v0\]$/, '[vscene]')};${logo}` : scene;
      if (captions) graph = logo ? `${graph};[vlogo]${captions}[v0]` : graph.replace(/\[v0\]$/, `,${captions}[v0]`);
      await runFfmpeg(
        ctx.binaries.ffmpegPath,
        [
          ...sceneInput(job.scene),
          ...(ctx.request.brand?.logo ? ['-i', resolve(ctx.request.brand.logo.path)] : []),
          '-filter_complex',
          graph,
          '-map',
          '[v0]',
          ...videoEncoderArgs(ctx.options),
          '-frames:v',
          String(job.frames),
          '-an',
          partial,
        ],
        {
          signal: ctx.options.signal,
          durationSeconds: job.seconds,
          onProgress: (percent) => onProgress((percent / 100) * job.seconds),
          onSpawn: ctx.options.onSpawn,
          cwd: cacheDir,
        },
      );
    } finally {
      rmSync(join(cacheDir, assName), { force: true });
    }
  });
}

/**
 * Writes a cache file through a uniquely named partial file renamed into place: a cancelled or
 * failed run never leaves half a file behind a good key, and two renders of the same video may make
 * the same file at once (the rename is atomic). `unique` names any other scratch file of the run.
 */
async function writeThroughPartial(path: string, produce: (partial: string, unique: string) => Promise<void>): Promise<void> {
  const unique = `${basename(path, extname(path))}.${process.pid}-${randomBytes(4).toString('hex')}`;
  const partial = join(dirname(path), `${unique}.partial${extname(path)}`);
  try {
    await produce(partial, unique);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Runs jobs with at most `limit` at a time; the first failure stops new ones and is thrown after the rest end. */
async function runLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await run(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw failure;
}

export interface SegmentReport {
  rendered: number;
  reused: number;
  /** The encoded soundtrack was found in the cache (only pictures or captions changed). */
  soundtrackReused: boolean;
}

/**
 * The soundtrack (narration as fitted, music mixed under it) encoded once to AAC, cached beside the
 * segments under a hash of what it depends on. It is a job of its own in the segment pool: encoding
 * 30 s of AAC takes about 1.5 CPU s, which at the join would run while both cores sit idle, and an
 * edit that changes only pictures reuses it.
 */
function planSoundtrack(ctx: SoundtrackContext, fit: NarrationFit, cacheDir: string): { path: string; run: () => Promise<void> } {
  const { request } = ctx;
  const total = request.durationSeconds;
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        format: SOUNDTRACK_FORMAT,
        narration: fileHash(request.audioPath),
        tempo: fit.tempo.toFixed(4),
        cutAt: fit.cutAt,
        total,
        music: request.music
          ? { audio: fileHash(request.music.path), volumePercent: request.music.volumePercent, level: musicLevelFilter(0, fit.words) }
          : null,
        encoder: AUDIO_ENCODER_ARGS,
        ffmpeg: ctx.binaries.ffmpegPath,
      }),
    )
    .digest('hex')
    .slice(0, 32);
  const path = join(cacheDir, `soundtrack-${key}.m4a`);
  const run = async () => {
    const music = await mixedMusic(ctx, '[1:a]');
    await writeThroughPartial(path, (partial) =>
      runFfmpeg(
        ctx.binaries.ffmpegPath,
        [
          '-i',
          resolve(request.audioPath),
          ...(request.music ? ['-stream_loop', '-1', '-i', resolve(request.music.path)] : []),
          '-filter_complex',
          audioFilter('[0:a]', fit, total, music),
          '-map',
          '[aout]',
          ...AUDIO_ENCODER_ARGS,
          '-t',
          total.toFixed(3),
          partial,
        ],
        { signal: ctx.options.signal, onSpawn: ctx.options.onSpawn },
      ).then(() => undefined),
    );
  };
  return { path, run };
}

/**
 * The soundtrack encoded into the segment cache now, before the pictures are ready: it needs only the
 * narration and the music, and its 1.5 CPU s of AAC then runs beside the pictures being painted (on
 * this process's thread) instead of inside the render, where both cores are already busy. The render
 * finds it in the cache. Nothing happens when it is already there.
 */
export async function encodeSoundtrackAhead(ctx: SoundtrackContext, fit: NarrationFit, cacheDir: string): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  const soundtrack = planSoundtrack(ctx, fit, cacheDir);
  await madeAhead(soundtrack.path, soundtrack.run);
}

/**
 * A story scene's segment rendered now, as soon as its picture is made, while the other pictures are
 * still being painted on this process's thread (a core the render would otherwise not have yet). The
 * render finds it in the cache, or waits for it. Nothing happens when it is already there.
 */
export async function renderSegmentAhead(
  ctx: RenderContext,
  fit: NarrationFit,
  frames: number[],
  cacheDir: string,
  index: number,
): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  if (ctx.font) ctx = { ...ctx, fontsDir: prepareFontsDir(ctx.font, join(cacheDir, 'fonts')) };
  const [job] = planSegments(ctx, fit, frames, cacheDir, (at) => at === index);
  if (job && !job.card) await madeAhead(job.path, () => renderSegment(ctx, job, cacheDir, () => undefined));
}

/**
 * Files of the cache being made ahead in this process, by path: a render that needs one of them waits
 * for it (as one of its pool's jobs) instead of making the same file a second time.
 */
const madeAheadInFlight = new Map<string, Promise<void>>();
/** Made ahead and not yet taken by a render: that render counts them as its own work, not as reused. */
const madeAheadDone = new Set<string>();

async function madeAhead(path: string, make: () => Promise<void>): Promise<void> {
  if (existsSync(path) || madeAheadInFlight.has(path)) return;
  const making = make()
    .then(() => void madeAheadDone.add(path))
    .finally(() => madeAheadInFlight.delete(path));
  madeAheadInFlight.set(path, making);
  await making;
}

/** Whether the file at `path` was made ahead for the render now taking it (it is taken once). */
function takeMadeAhead(path: string): boolean {
  return madeAheadDone.delete(path);
}

export async function renderSegmented(
  ctx: RenderContext,
  fit: NarrationFit,
  frames: number[],
  outputPath: string,
  cacheDir: string,
): Promise<SegmentReport> {
  mkdirSync(cacheDir, { recursive: true });
  // The fonts sit beside the caption files so the filter names them relatively ('fonts'), free of path escaping.
  if (ctx.font) ctx = { ...ctx, fontsDir: prepareFontsDir(ctx.font, join(cacheDir, 'fonts')) };
  const jobs = planSegments(ctx, fit, frames, cacheDir);
  const missing = jobs.filter((job) => !existsSync(job.path));
  const madeAheadForThis = jobs.filter((job) => !missing.includes(job) && takeMadeAhead(job.path)).length;
  const soundtrack = planSoundtrack(ctx, fit, cacheDir);
  const total = ctx.request.durationSeconds;
  const done = new Map<number, number>(jobs.filter((job) => !missing.includes(job)).map((job) => [job.index, job.seconds]));
  let lastPercent = -1;
  const report = () => {
    // The join is quick; renders fill 0-95%.
    const percent = Math.min(95, ([...done.values()].reduce((a, b) => a + b, 0) / total) * 95);
    if (percent > lastPercent) {
      lastPercent = percent;
      ctx.options.onProgress?.(percent);
    }
  };
  // Longest segment first, the soundtrack last: the pool's last jobs are the short ones, so both
  // cores stay busy until near the end instead of one long segment finishing alone.
  // Those made ahead and still running first: waiting for one holds a pool slot while its ffmpeg uses a core.
  const running = (path: string) => madeAheadInFlight.get(path);
  const tasks: Array<() => Promise<void>> = [...missing]
    .sort((a, b) => Number(Boolean(running(b.path))) - Number(Boolean(running(a.path))) || b.frames - a.frames || a.index - b.index)
    .map((job) => {
      const render = () =>
        renderSegment(ctx, job, cacheDir, (seconds) => {
          done.set(job.index, seconds);
          report();
        });
      const ahead = running(job.path);
      // One made ahead is waited for (and made here if that failed).
      return ahead
        ? () =>
            ahead.then(() => {
              done.set(job.index, job.seconds);
              report();
            }, render)
        : render;
    });
  const soundtrackCached = existsSync(soundtrack.path);
  const soundtrackReused = soundtrackCached && !takeMadeAhead(soundtrack.path);
  const soundtrackAhead = running(soundtrack.path);
  if (!soundtrackCached) tasks.push(soundtrackAhead ? () => soundtrackAhead.catch(() => soundtrack.run()) : soundtrack.run);
  await runLimited(tasks, ctx.options.segmentConcurrency ?? DEFAULT_SEGMENT_CONCURRENCY, (task) => task());

  const listPath = join(ctx.workDir, 'segments.txt');
  writeFileSync(listPath, jobs.map((job) => `file '${job.path.replace(/'/g, "'\\''")}'\n`).join(''));
  // Video and audio both copied as encoded: the join only writes the container.
  await runFfmpeg(
    ctx.binaries.ffmpegPath,
    [
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      listPath,
      '-i',
      soundtrack.path,
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c',
      'copy',
      '-t',
      total.toFixed(3),
      '-movflags',
      '+faststart',
      outputPath,
    ],
    { signal: ctx.options.signal, onSpawn: ctx.options.onSpawn, cwd: ctx.workDir },
  );
  // Made ahead for this render (finished before it began, or while it waited) is its own work.
  const rendered = missing.length + madeAheadForThis;
  for (const job of missing) takeMadeAhead(job.path);
  takeMadeAhead(soundtrack.path);
  return { rendered, reused: jobs.length - rendered, soundtrackReused };
}
