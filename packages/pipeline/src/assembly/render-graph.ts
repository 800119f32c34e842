import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { LogoPosition } from '@reelsmith/contracts';
import type { AssemblyRequest, AssemblyScene, WordTiming } from '../providers/types.js';
import type { CaptionFont } from './caption-fonts.js';
import { captionBandTop } from './caption-presets.js';
import { buildCaptionsAss } from './captions-ass.js';
import type { FfmpegBinaries } from './ffmpeg-binary.js';
import { TARGET_LOUDNESS_LUFS } from './loudness.js';
import { musicGainDb, musicLevelFilter } from './music-mix.js';
import { captureOutput } from './run-ffmpeg.js';

/*
 * The render's filter graphs (a scene's picture and motion, the logo, the captions, the soundtrack
 * mix) and the encoder settings, shared by the single pass, the segment cache and the poster.
 */

export const OUTPUT_FPS = 30;
/** Ken Burns travel per scene: 12% is visible motion without making the picture soft. */
export const ZOOM_AMOUNT = 0.12;
/** Narration may be sped up this much to fit; beyond it the end is trimmed at a word boundary. */
export const MAX_TEMPO = 1.15;
/**
 * The default preset. Measured on the 30 s 9:16 bench storyboard (zoom + captions; see RENDER-TIME.md):
 * ultrafast at CRF 25 with deblocking kept on costs about 35% less encoder CPU than veryfast
 * (me=dia:subme=1, CRF 21), holds SSIM 0.98 against it and stays under 12 MB for 30 s.
 */
export const DEFAULT_PRESET = 'ultrafast';

/**
 * Scene segments rendered at once. One ffmpeg keeps only ~1.4 of 2 cores busy (its filter graph and
 * the encoder hand frames to each other); two segments at a time measured 7.8-8.4 s against 10.8 s
 * one at a time (and 9.0-10.4 s for the single pass) for the 30 s 9:16 bench storyboard on this
 * 2-core machine (RENDER-TIME.md).
 */
export const DEFAULT_SEGMENT_CONCURRENCY = 2;

/**
 * Rate control and x264 settings chosen per preset. ultrafast drops the deblocking filter, which is
 * where blocks would show in skies and gradients; `deblock=0,0` puts it back at almost no cost.
 * It also drops CABAC; `cabac=1` codes the very same frames (framemd5-identical) 18% smaller for
 * about 4% more encoder CPU, which keeps a 30 s video clear of the 12 MB limit (RENDER-TIME.md).
 * For veryfast and slower, diamond search with one subpel pass predicts Ken Burns motion (every block
 * moves a little, the same way as its neighbours) nearly as well and saves about a quarter of the CPU.
 */
function encoderTuning(preset: string): { crf: number; x264Params: string } {
  if (preset === 'ultrafast' || preset === 'superfast') return { crf: 25, x264Params: 'deblock=0,0:cabac=1' };
  return { crf: 21, x264Params: 'me=dia:subme=1' };
}

/** Encoder settings shared by the render and the bench's floor, so both are measured alike. */
export function videoEncoderArgs(options: Pick<AssembleOptions, 'preset' | 'crf' | 'x264Params'> = {}): string[] {
  const preset = options.preset ?? DEFAULT_PRESET;
  const tuning = encoderTuning(preset);
  const params = options.x264Params ?? tuning.x264Params;
  return [
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-crf',
    String(options.crf ?? tuning.crf),
    ...(params ? ['-x264-params', params] : []),
    '-pix_fmt',
    'yuv420p',
    '-profile:v',
    'high',
    '-r',
    String(OUTPUT_FPS),
    '-g',
    String(OUTPUT_FPS * 2),
  ];
}

export const AUDIO_ENCODER_ARGS = ['-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2'];

export interface AssembleOptions {
  binaries?: FfmpegBinaries;
  /** x264 preset (RENDER_PRESET). */
  preset?: string;
  crf?: number;
  /** Extra x264 settings; defaults to the preset's tuning. */
  x264Params?: string;
  /** Renders at another frame size than the resolution's (tests and previews); the aspect ratio should match. */
  frameSize?: { width: number; height: number };
  /**
   * Scene by scene (default; into workDir when there is no segmentCacheDir), or `false` for one
   * ffmpeg pass over the whole video: two segments at a time use both cores, which one pass does not
   * (RENDER-TIME.md). The bench compares both.
   */
  segmented?: boolean;
  /** Segments rendered at once (default DEFAULT_SEGMENT_CONCURRENCY). */
  segmentConcurrency?: number;
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
  onSpawn?: (pid: number) => void;
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
    .map((scene) => ({
      imagePath: scene.imagePath,
      ...(scene.videoPath ? { videoPath: scene.videoPath } : {}),
      start: scene.start / tempo,
      end: scene.end / tempo,
    }))
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
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=s=16x16:d=0.1',
      '-vf',
      "scale=w='16+2*mod(n\\,2)':h=16:eval=frame",
      '-f',
      'null',
      '-',
    ]).then(
      () => true,
      () => false,
    );
    frameEvalSupport.set(ffmpegPath, pending);
  }
  return pending;
}

const even = (value: number) => Math.round(value / 2) * 2;

/** ffmpeg input arguments for a scene: its picture, or its clip looped for as long as the scene needs. */
export function sceneInput(scene: AssemblyScene): string[] {
  return scene.videoPath ? ['-stream_loop', '-1', '-i', resolve(scene.videoPath)] : ['-i', resolve(scene.imagePath)];
}

export function sceneFilter(
  input: number,
  frames: number,
  width: number,
  height: number,
  request: AssemblyRequest,
  perFrameScale: boolean,
  clip = false,
): string {
  const cover = (w: number, h: number) => `scale=${w}:${h}:force_original_aspect_ratio=increase:flags=lanczos,crop=${w}:${h}`;
  if (clip) {
    // Moving footage: resampled to the output rate, scaled to cover the frame and cut to the scene's
    // frames. No Ken Burns on top: the footage moves by itself, and a zoom over it looks like a wobble.
    return `[${input}:v]fps=${OUTPUT_FPS},${cover(width, height)},format=yuv420p,trim=end_frame=${frames},settb=1/${OUTPUT_FPS},setpts=N,setsar=1[v${input}]`;
  }
  // settb first: an image's time base is 1/25, and N/30 in it rounds, which made -r 30 drop a frame (899 for 30 s).
  const hold = `loop=loop=${frames - 1}:size=1:start=0,settb=1/${OUTPUT_FPS},setpts=N`;
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

/** Music fades in over this long at the start and out over MUSIC_FADE_OUT at the end. */
const MUSIC_FADE_IN = 1;
const MUSIC_FADE_OUT = 2;
/** The one sample format every branch of the soundtrack's mix is converted to before it is summed. */
const MIX_FORMAT = 'sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

/**
 * The narration as fitted, and with `music` (an input looped with -stream_loop) mixed under it:
 * the music is brought to its level under speech (`gainDb`, from musicGainDb), lifted in the
 * pauses between the words, and faded in and out.
 */
export function audioFilter(input: string, fit: NarrationFit, durationSeconds: number, music?: MixedMusic): string {
  const chain: string[] = [];
  if (fit.tempo > 1.0001) chain.push(`atempo=${fit.tempo.toFixed(4)}`);
  if (fit.cutAt !== null)
    chain.push(`atrim=0:${fit.cutAt.toFixed(3)}`, `afade=t=out:st=${Math.max(0, fit.cutAt - 0.12).toFixed(3)}:d=0.12`);
  chain.push('aresample=48000', 'apad');
  if (!music) return `${input}${chain.join(',')}[aout]`;
  const end = durationSeconds.toFixed(3);
  return [
    `${input}${chain.join(',')},atrim=0:${end},aformat=${MIX_FORMAT}[voice]`,
    `${music.input}aresample=48000,aformat=${MIX_FORMAT},atrim=0:${end},${musicLevelFilter(music.gainDb, fit.words)},` +
      `afade=t=in:st=0:d=${MUSIC_FADE_IN},afade=t=out:st=${Math.max(0, durationSeconds - MUSIC_FADE_OUT).toFixed(3)}:d=${MUSIC_FADE_OUT},aformat=${MIX_FORMAT}[ducked]`,
    // A plain sum of the two stereo pairs. amix halves each input unless told normalize=0, an option
    // ffmpeg 4.4 added: the 4.1 build inside @ffmpeg-installer refuses it. amerge + pan ('=' without
    // '<' adds the channels as they are) gives the same sum on every version, so no probe is needed;
    // amerge negotiates no format of its own, so both inputs arrive in one (MIX_FORMAT).
    '[voice][ducked]amerge=inputs=2,pan=stereo|c0=c0+c2|c1=c1+c3[aout]',
  ].join(';');
}

export interface MixedMusic {
  /** The looped music input's pad, e.g. `[1:a]`. */
  input: string;
  gainDb: number;
}

/** The music's gain for the mix, or undefined when there is no music to mix (none, muted or silent). */
export async function mixedMusic(ctx: SoundtrackContext, input: string): Promise<MixedMusic | undefined> {
  const { music } = ctx.request;
  if (!music) return undefined;
  const gainDb = await musicGainDb(ctx.binaries, ctx.request.audioPath, music, MIX_FORMAT, TARGET_LOUDNESS_LUFS, ctx.options.signal);
  return gainDb === null ? undefined : { input, gainDb };
}

/** What the soundtrack depends on: the request's narration, music and length, and how to run ffmpeg. */
export type SoundtrackContext = Pick<RenderContext, 'options' | 'binaries'> & {
  request: Pick<AssemblyRequest, 'audioPath' | 'durationSeconds' | 'music'>;
};

export interface RenderContext {
  request: AssemblyRequest;
  options: AssembleOptions;
  binaries: FfmpegBinaries;
  workDir: string;
  width: number;
  height: number;
  perFrameScale: boolean;
  /** The caption file's font, also set when only the brand's end card needs it. */
  font: CaptionFont | null;
  fontsDir: string | null;
  /** Word captions are drawn (captions on and narration timed). */
  captions: boolean;
  /** Where the pictures change (each scene's first frame after the first), in seconds. */
  cuts: number[];
  /** When the story ends: the video's end, or where the brand's closing card begins. */
  storySeconds: number;
  /** The brand's closing card after the last word, or null without one. */
  closingCard: ClosingCard | null;
}

/** The brand's end card as a picture of its own after the narration. */
export interface ClosingCard {
  text: string;
  /** Its first frame in the video. */
  startFrame: number;
  frames: number;
  /** The background: the last scene's picture, blurred and dimmed so the card's text reads on it. */
  imagePath: string;
}

/**
 * The closing card's background as a filter: the last picture covered, blurred and dimmed once, then
 * held (its text is drawn by the caption file, so the card reads as the video's own last frame, not
 * as a flat slate that could be another video's).
 */
export function closingCardFilter(input: number, frames: number, width: number, height: number): string {
  const radius = Math.max(2, Math.round(Math.min(width, height) / 40));
  return (
    `[${input}:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},` +
    `boxblur=${radius}:2,eq=brightness=-0.18:saturation=0.7,format=yuv420p,` +
    `loop=loop=${frames - 1}:size=1:start=0,settb=1/${OUTPUT_FPS},setpts=N,setsar=1[v${input}]`
  );
}

/** Gap between the logo and the caption band or a frame edge, as a share of the shorter side. */
const LOGO_MARGIN = 0.045;

/**
 * Where the logo goes (overlay x/y expressions; w and h are the logo's size). In 9:16 the platforms
 * put their header across the top ~8% and their buttons down the right ~15% from about 40% of the
 * height, so top corners sit below the header and bottom corners sit above the caption band, the
 * right one clear of the button column; the other formats only keep a title-safe border.
 */
export function logoOverlayPosition(
  ctx: Pick<RenderContext, 'width' | 'height' | 'captions'> & { captionStyle: AssemblyRequest['captionStyle'] },
  position: LogoPosition,
): { x: string; y: string } {
  const { width, height } = ctx;
  const portrait = height > width * 1.3;
  const margin = Math.round(Math.min(width, height) * LOGO_MARGIN);
  const top = portrait ? Math.round(height * 0.1) : margin;
  const bandTop = ctx.captions ? captionBandTop(ctx.captionStyle, width, height) : height - (portrait ? Math.round(height * 0.22) : 0);
  const right = portrait && position === 'bottom-right' ? Math.round(width * 0.15) : margin;
  const bottom = `max(${top},${Math.min(bandTop - margin, height - margin)}-h)`;
  return {
    x: position.endsWith('left') ? String(margin) : `W-w-${right}`,
    y: position.startsWith('top') ? String(top) : bottom,
  };
}

/**
 * The logo as overlay filters: scaled once (a single still frame) and laid over each frame of the
 * video in its corner; overlay repeats the still, so this is the only per-frame work it adds.
 */
export function logoFilter(ctx: RenderContext, logoInput: number, videoIn: string, videoOut: string): string | null {
  const logo = ctx.request.brand?.logo;
  if (!logo) return null;
  const width = Math.max(8, Math.round((Math.min(ctx.width, ctx.height) * logo.scale) / 2) * 2);
  const { x, y } = logoOverlayPosition({ ...ctx, captionStyle: ctx.request.captionStyle }, logo.position);
  // The still is turned into yuva420p once: an RGBA overlay made overlay convert every frame of the
  // video (about 9 ms a 1080x1920 frame, +55% CPU on a plain segment), while yuv420 blends in place
  // at the cost of the logo's area. Its size never changes, so x and y are evaluated once.
  return (
    `[${logoInput}:v]scale=${width}:-2:flags=lanczos,format=rgba,colorchannelmixer=aa=${logo.opacity.toFixed(3)},format=yuva420p[logo];` +
    `${videoIn}[logo]overlay=x='${x}':y='${y}':format=yuv420:eval=init${videoOut}`
  );
}

/** The end card's text on the video's clock: on its own card, after the story. */
function endCardFor(ctx: RenderContext): { text: string; start: number; end: number } | null {
  const card = ctx.closingCard;
  if (!card) return null;
  return { text: card.text, start: card.startFrame / OUTPUT_FPS, end: (card.startFrame + card.frames) / OUTPUT_FPS };
}

/**
 * The caption file for `words` (and the end card) on the video's clock, or null when it draws
 * nothing. The single pass draws it whole; each scene segment draws the part on screen during it.
 */
export function captionDocument(ctx: RenderContext, words: WordTiming[]): string | null {
  const endCard = endCardFor(ctx);
  if (!ctx.font || !ctx.fontsDir || (words.length === 0 && !endCard)) return null;
  return buildCaptionsAss({
    words,
    style: ctx.request.captionStyle,
    language: ctx.request.language,
    width: ctx.width,
    height: ctx.height,
    font: ctx.font,
    // Captions end with the narration: none are drawn over the closing card.
    durationSeconds: ctx.storySeconds,
    accentColor: ctx.request.brand?.accentColor ?? null,
    endCard,
    cuts: ctx.cuts,
  });
}

/** The `ass` filter for a caption file written into `cwd` (relative names avoid filtergraph escaping of paths). */
export function assFilter(ctx: RenderContext, document: string, name: string, cwd: string): string {
  writeFileSync(join(cwd, name), document, 'utf8');
  return `ass=filename=${name}:fontsdir=${relative(cwd, ctx.fontsDir!) || '.'}`;
}

/** The `ass` filter for `words` on the video's clock, or null when there is nothing to draw. */
export function captionFilter(ctx: RenderContext, words: WordTiming[], name: string, cwd: string): string | null {
  const document = captionDocument(ctx, words);
  return document ? assFilter(ctx, document, name, cwd) : null;
}
