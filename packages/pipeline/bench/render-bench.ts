/**
 * Render benchmark: the whole pipeline (offline story, voice and pictures, then the final render)
 * for 30/60/90 s videos in every aspect ratio, with zoom and captions on, and in the same run the
 * floor each render is judged against: one plain single-pass ffmpeg command on the same pictures and
 * narration with the same encoder settings and no zoom or captions.
 *
 *   npm run bench:render            all nine cases, the one-scene re-render row, then caption templates and brand
 *   npm run bench:render -- --quick 30 s 9:16 only
 *   npm run bench:render -- --duration 30   every aspect ratio at one duration
 *   npm run bench:render -- --brand  only the caption templates and brand comparison
 *   npm run bench:render -- --edits  only the storyboard edits: first render, then re-renders with no
 *                                    change, one scene's picture and one scene's narration changed
 *   npm run bench:render -- --research  only a researched topic against the fake Wikimedia server, beside
 *                                    the same topic told without research: both step breakdowns
 *
 * Per case it also renders the reference (the settings used before: veryfast, CRF 21) of the same
 * storyboard and prints the SSIM of the render against it, the file size and the frame count.
 *
 * Other work on the machine slows every figure; the ratio compares two renders made moments apart.
 */
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  CAPTION_STYLE_VALUES,
  RESOLUTIONS,
  isCaptionTemplate,
  type CaptionStyle,
  type Duration,
  type GenerationParams,
  type Resolution,
} from '@reelsmith/contracts';
import { captionFontFor, prepareFontsDir } from '../src/assembly/caption-fonts.js';
import { buildCaptionsAss } from '../src/assembly/captions-ass.js';
import { AUDIO_ENCODER_ARGS, OUTPUT_FPS, assembleVideo, videoEncoderArgs } from '../src/assembly/assemble-video.js';
import { captureOutput, runFfmpeg } from '../src/assembly/run-ffmpeg.js';
import { startFakeWikimediaServer } from '../src/testing/fake-wikimedia-server.js';
import {
  createProviders,
  formatTimings,
  loadPipelineConfig,
  resolveFfmpegBinaries,
  runGeneration,
  type AssemblyRequest,
  type GenerationOutput,
  type RenderBrand,
  type StepTiming,
  type StoryboardInput,
  type VoiceProvider,
} from '../src/index.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
const durationArg = process.argv.indexOf('--duration');
const onlyDuration = durationArg >= 0 ? (Number(process.argv[durationArg + 1]) as Duration) : null;
/** Only the caption templates and brand comparison. */
const brandOnly = process.argv.includes('--brand');
/** Only the storyboard edits through the whole pipeline. */
const editsOnly = process.argv.includes('--edits');
/** Only the research run: a researched topic (fake Wikimedia) beside the same topic without research. */
const researchOnly = process.argv.includes('--research');
/** Render as a job does, making the soundtrack and segments ahead as their inputs are ready (--no-ahead: all in the render). */
const renderAhead = !process.argv.includes('--no-ahead');
/** --neural: narrate with the natural voice (Kokoro, when `npm run voices:download` has fetched it; espeak stands in otherwise). */
const neuralVoice = process.argv.includes('--neural');
const durations: Duration[] = brandOnly || editsOnly || researchOnly ? [] : quick ? [30] : onlyDuration ? [onlyDuration] : [30, 60, 90];
const resolutions: readonly Resolution[] = quick ? ['9:16'] : RESOLUTIONS;

/** Peak resident memory (VmHWM) of a process, read until it exits. */
function watchPeakMemory(pid: number): () => number {
  let peakKb = 0;
  const read = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process has exited; the last reading stands.
    }
  };
  read();
  const timer = setInterval(read, 100);
  return () => {
    read();
    clearInterval(timer);
    return peakKb;
  };
}

/**
 * The floor: the same pictures held for the same time, concatenated, same encoder, one pass.
 * `plain` is the usual command (-loop 1 inputs, decoded every frame); `static` decodes and converts
 * each picture once, the cheapest possible pass, which a moving picture cannot match in encoder time.
 */
async function renderFloor(kind: 'plain' | 'static', request: AssemblyRequest, outputPath: string, ffmpegPath: string): Promise<number> {
  const args: string[] = [];
  const seconds = request.scenes.map((scene, index) => (request.scenes[index + 1]?.start ?? request.durationSeconds) - scene.start);
  request.scenes.forEach((scene, index) => {
    if (kind === 'plain') args.push('-framerate', String(OUTPUT_FPS), '-loop', '1', '-t', seconds[index]!.toFixed(3));
    args.push('-i', resolve(scene.imagePath));
  });
  args.push('-i', resolve(request.audioPath));
  const n = request.scenes.length;
  const held = request.scenes.map((_, index) =>
    kind === 'plain'
      ? `[${index}:v]`
      : `[${index}:v]format=yuv420p,loop=loop=${Math.max(0, Math.round(seconds[index]! * OUTPUT_FPS) - 1)}:size=1:start=0,setpts=N/${OUTPUT_FPS}/TB[s${index}];`,
  );
  const graph =
    kind === 'plain'
      ? `${held.join('')}concat=n=${n}:v=1:a=0[v]`
      : `${held.join('')}${request.scenes.map((_, i) => `[s${i}]`).join('')}concat=n=${n}:v=1:a=0[v]`;
  args.push(
    '-filter_complex',
    `${graph};[${n}:a]aresample=48000,apad[a]`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...videoEncoderArgs(),
    ...AUDIO_ENCODER_ARGS,
    '-t',
    request.durationSeconds.toFixed(3),
    '-movflags',
    '+faststart',
    outputPath,
  );
  const started = performance.now();
  await runFfmpeg(ffmpegPath, args);
  return (performance.now() - started) / 1000;
}

/**
 * CPU seconds (user + system) of this process's children that have ended: fields 16-17 of
 * /proc/self/stat, in clock ticks (USER_HZ, 100 on Linux). Every ffmpeg the render starts is a waited
 * child, so the difference across the render is the CPU work the render needed.
 */
function endedChildrenCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ", field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** SSIM (All) of `video` against `reference`, frame by frame. */
async function ssim(ffmpegPath: string, video: string, reference: string): Promise<number> {
  const out = await captureOutput(
    ffmpegPath,
    ['-hide_banner', '-nostdin', '-i', video, '-i', reference, '-lavfi', '[0:v][1:v]ssim', '-f', 'null', '-'],
    undefined,
    true,
  );
  const match = /All:([0-9.]+)/.exec(out);
  return match ? Number(match[1]) : Number.NaN;
}

async function videoFrames(ffprobePath: string | null, video: string): Promise<number> {
  if (!ffprobePath) return Number.NaN;
  const out = await captureOutput(ffprobePath, [
    '-v',
    'error',
    '-count_packets',
    '-select_streams',
    'v',
    '-show_entries',
    'stream=nb_read_packets',
    '-of',
    'csv=p=0',
    video,
  ]);
  return Number(out.trim());
}

/** The earlier settings, as they rendered then: veryfast, one ffmpeg pass. */
const REFERENCE = { preset: 'veryfast', crf: 21, x264Params: 'me=dia:subme=1', segmented: false } as const;

interface CaseResult {
  label: string;
  totalSeconds: number;
  /** CPU seconds of the whole pipeline: this process (story, voice, pictures) and every child it ran. */
  totalCpuSeconds: number;
  renderSeconds: number;
  /** CPU seconds of the render's ffmpeg processes. */
  renderCpuSeconds: number;
  realtime: number;
  ffmpegPeakMb: number;
  nodePeakMb: number;
  floorSeconds: number;
  staticFloorSeconds: number;
  ssim: number;
  sizeMb: number;
  frames: number;
  referenceSeconds: number;
  /** Where the whole pipeline's seconds went, step by step, on the performance.now() clock from `startedAt`. */
  timings: StepTiming[];
  startedAt: number;
}

/**
 * The voice step's real-time factor (synthesis seconds, in the story step and the voice step, over
 * the seconds of narration they made) and which model ran (the provider's own health line: Kokoro's
 * graph, or espeak standing in while it is missing).
 */
async function printVoiceStep(voice: VoiceProvider, timings: readonly StepTiming[], narrationPath: string, ffprobePath: string) {
  const synthesis = timings.filter((timing) => timing.name.endsWith(': synthesis'));
  const seconds = synthesis.reduce((sum, timing) => sum + timing.seconds, 0);
  const cpuSeconds = synthesis.reduce((sum, timing) => sum + (timing.cpuSeconds ?? 0), 0);
  const speech = Number(
    (await captureOutput(ffprobePath, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', narrationPath])).trim(),
  );
  const model = (await voice.health()).details;
  console.log(
    `voice: ${voice.name} (${model}): synthesis ${seconds.toFixed(2)} s (CPU ${cpuSeconds.toFixed(2)} s) for ${speech.toFixed(1)} s of narration, real-time factor ${(seconds / speech).toFixed(3)}`,
  );
}

async function runCase(duration: Duration, resolution: Resolution): Promise<CaseResult> {
  const config = loadPipelineConfig({
    ...process.env,
    STORY_PROVIDER: 'offline',
    IMAGE_PROVIDER: 'offline',
    VOICE_PROVIDER: neuralVoice ? 'neural' : 'offline',
    RESEARCH_PROVIDER: 'off',
  });
  const providers = createProviders(config);
  const binaries = resolveFfmpegBinaries();
  const workspaceDir = await mkdtemp(join(tmpdir(), `render-bench-${duration}-${resolution.replace(':', 'x')}-`));
  let nodePeak = process.memoryUsage().rss;
  const nodeTimer = setInterval(() => (nodePeak = Math.max(nodePeak, process.memoryUsage().rss)), 100);
  // One watcher per ffmpeg process (a render in segments starts several); each is stopped at the end,
  // or its timer would keep the bench from exiting.
  const watchers: (() => number)[] = [];
  let renderRequest: AssemblyRequest | null = null;
  let renderStarted = 0;
  let renderSeconds = 0;
  let renderCpuSeconds = 0;
  let videoPath = '';
  const started = performance.now();
  const ownCpuBefore = process.cpuUsage();
  const childCpuBefore = endedChildrenCpuSeconds();
  const timings: StepTiming[] = [];
  try {
    await runGeneration(
      {
        jobId: `bench-${duration}-${resolution}`,
        params: {
          topic: 'The lighthouse keeper who heard a knock at midnight',
          style: 'mysterious',
          language: 'en',
          duration,
          voice: neuralVoice ? 'kokoro-af-heart' : 'en-us-m3',
          voiceProvider: neuralVoice ? 'neural' : 'offline',
          visualStyle: 'cinematic',
          resolution,
          customPrompt: '',
          enableZoom: true,
          zoomDirection: 'in',
          enableCaptions: true,
          captionStyle: 'tiktok',
          music: 'auto',
        },
        workspaceDir,
        providers,
      },
      {
        binaries,
        onTiming: (timing) => timings.push(timing),
        // As a job runs: the soundtrack and segments whose inputs are ready are made before the render
        // (so 'render' below is what is left of it once the pictures are done).
        renderAhead,
        assemble: async (request, options) => {
          renderRequest = request;
          if (keep) writeFileSync(join(workspaceDir, 'assembly-request.json'), JSON.stringify(request, null, 2));
          renderStarted = performance.now();
          const cpuBefore = endedChildrenCpuSeconds();
          try {
            const result = await assembleVideo(request, { ...options, onSpawn: (pid) => void watchers.push(watchPeakMemory(pid)) });
            videoPath = result.videoPath;
            return result;
          } finally {
            renderSeconds = (performance.now() - renderStarted) / 1000;
            renderCpuSeconds = endedChildrenCpuSeconds() - cpuBefore;
          }
        },
      },
    );
    const totalSeconds = (performance.now() - started) / 1000;
    await printVoiceStep(providers.voice, timings, join(workspaceDir, 'voice', 'narration.wav'), binaries.ffprobePath);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const totalCpuSeconds = (ownCpu.user + ownCpu.system) / 1e6 + endedChildrenCpuSeconds() - childCpuBefore;
    const ffmpegPeakKb = Math.max(0, ...watchers.map((stop) => stop()));
    if (!renderRequest) throw new Error('The pipeline never reached the render step.');
    const floorSeconds = await renderFloor('plain', renderRequest, join(workspaceDir, 'floor.mp4'), binaries.ffmpegPath);
    const staticFloorSeconds = await renderFloor('static', renderRequest, join(workspaceDir, 'static-floor.mp4'), binaries.ffmpegPath);
    const request = renderRequest as AssemblyRequest;
    const referencePath = join(workspaceDir, 'reference.mp4');
    const referenceStarted = performance.now();
    await assembleVideo(
      {
        ...request,
        outputPath: referencePath,
        posterPath: join(workspaceDir, 'reference.jpg'),
        workDir: join(workspaceDir, 'reference-work'),
      },
      { binaries, ...REFERENCE },
    );
    const referenceSeconds = (performance.now() - referenceStarted) / 1000;
    return {
      label: `${duration}s ${resolution}`,
      totalSeconds,
      totalCpuSeconds,
      renderSeconds,
      renderCpuSeconds,
      realtime: totalSeconds / duration,
      ffmpegPeakMb: ffmpegPeakKb / 1024,
      nodePeakMb: nodePeak / 1024 / 1024,
      floorSeconds,
      staticFloorSeconds,
      ssim: await ssim(binaries.ffmpegPath, videoPath, referencePath),
      sizeMb: statSync(videoPath).size / 1e6,
      frames: await videoFrames(binaries.ffprobePath, videoPath),
      referenceSeconds,
      timings,
      startedAt: started / 1000,
    };
  } finally {
    for (const stop of watchers) stop();
    clearInterval(nodeTimer);
    if (!keep) await rm(workspaceDir, { recursive: true, force: true });
    else console.log(`kept ${workspaceDir}`);
  }
}

const cores = availableParallelism();
const header = [
  'case',
  'total s',
  'total CPU s',
  'total/limit',
  'x realtime',
  'render s',
  'render CPU s',
  `limit s (CPU/${cores})`,
  'render/limit',
  'floor s',
  'render/floor',
  'static floor s',
  'render/static',
  'ref (veryfast) s',
  'render/ref',
  'SSIM vs ref',
  'MB',
  'frames',
  'ffmpeg peak MB',
  'node peak MB',
];
const rows: string[][] = [];
const binaries = resolveFfmpegBinaries();
console.log(`ffmpeg: ${binaries.ffmpegPath} (${binaries.ffmpegSource}); encoder: ${videoEncoderArgs().join(' ')}`);
for (const duration of durations) {
  for (const resolution of resolutions) {
    const result = await runCase(duration, resolution);
    const row = [
      result.label,
      result.totalSeconds.toFixed(1),
      result.totalCpuSeconds.toFixed(1),
      (result.totalSeconds / (result.totalCpuSeconds / cores)).toFixed(2),
      result.realtime.toFixed(2),
      result.renderSeconds.toFixed(1),
      result.renderCpuSeconds.toFixed(1),
      (result.renderCpuSeconds / cores).toFixed(1),
      (result.renderSeconds / (result.renderCpuSeconds / cores)).toFixed(2),
      result.floorSeconds.toFixed(1),
      (result.renderSeconds / result.floorSeconds).toFixed(2),
      result.staticFloorSeconds.toFixed(1),
      (result.renderSeconds / result.staticFloorSeconds).toFixed(2),
      result.referenceSeconds.toFixed(1),
      (result.renderSeconds / result.referenceSeconds).toFixed(2),
      result.ssim.toFixed(4),
      result.sizeMb.toFixed(1),
      String(result.frames),
      result.ffmpegPeakMb.toFixed(0),
      result.nodePeakMb.toFixed(0),
    ];
    rows.push(row);
    console.log(row.join('  '));
    console.log(
      `\n${result.label}, whole pipeline step by step (CPU s: this process and the processes it ran, meanwhile):\n${formatTimings(result.timings, result.startedAt, { label: 'whole pipeline', seconds: result.totalSeconds, cpuSeconds: result.totalCpuSeconds })}\n`,
    );
  }
}
/** Per-frame MD5s of a video's pictures (ffmpeg's framemd5), in order. */
async function frameHashes(ffmpegPath: string, video: string): Promise<string[]> {
  const out = await captureOutput(ffmpegPath, ['-v', 'error', '-i', video, '-map', '0:v', '-f', 'framemd5', '-']);
  return out
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').pop()!.trim());
}

/**
 * The offline 30 s 9:16 lighthouse video rendered once in `workspaceDir`, with the request its render
 * step was given (the rerender and brand cases start from it).
 */
const LIGHTHOUSE: GenerationParams = {
  topic: 'The lighthouse keeper who heard a knock at midnight',
  style: 'mysterious',
  language: 'en',
  duration: 30,
  voice: 'en-us-m3',
  voiceProvider: 'offline',
  visualStyle: 'cinematic',
  resolution: '9:16',
  customPrompt: '',
  enableZoom: true,
  zoomDirection: 'in',
  enableCaptions: true,
  captionStyle: 'tiktok',
  music: 'auto',
};

const offlineProviders = () =>
  createProviders(
    loadPipelineConfig({
      ...process.env,
      STORY_PROVIDER: 'offline',
      IMAGE_PROVIDER: 'offline',
      VOICE_PROVIDER: 'offline',
      RESEARCH_PROVIDER: 'off',
    }),
  );

async function firstRender(
  workspaceDir: string,
  jobId: string,
  binaries: ReturnType<typeof resolveFfmpegBinaries>,
): Promise<AssemblyRequest> {
  let captured: AssemblyRequest | null = null;
  await runGeneration(
    { jobId, params: LIGHTHOUSE, workspaceDir, providers: offlineProviders() },
    { binaries, assemble: async (request, options) => ((captured = request), assembleVideo(request, options)) },
  );
  const base = captured as AssemblyRequest | null;
  if (!base) throw new Error('The pipeline never reached the render step.');
  return base;
}

/**
 * The storyboard's case: a 30 s 9:16 video rendered as cached scene segments, then rendered again
 * after one scene's narration changed (its words and its stretch of audio), as the storyboard does.
 */
async function runRerender(): Promise<string[]> {
  const binaries = resolveFfmpegBinaries();
  const workspaceDir = await mkdtemp(join(tmpdir(), 'render-bench-rerender-'));
  try {
    const base = await firstRender(workspaceDir, 'bench-rerender', binaries);
    const segmentCacheDir = join(workspaceDir, 'segments');
    const timed = async (request: AssemblyRequest, name: string) => {
      const started = performance.now();
      const result = await assembleVideo(
        {
          ...request,
          outputPath: join(workspaceDir, `${name}.mp4`),
          posterPath: join(workspaceDir, `${name}.jpg`),
          workDir: join(workspaceDir, `${name}-work`),
        },
        { binaries, ...(request.segmentCacheDir ? {} : { segmented: false }) },
      );
      return { seconds: (performance.now() - started) / 1000, result };
    };
    const single = await timed(base, 'single-pass');
    const first = await timed({ ...base, segmentCacheDir }, 'v1');
    // Scene 2's narration rewritten: new words, and its stretch of the narration louder (a new recording).
    const changed = Math.min(2, base.scenes.length - 1);
    const from = base.scenes[changed]!.start;
    const to = base.scenes[changed + 1]?.start ?? base.durationSeconds;
    const audioPath = join(workspaceDir, 'narration-v2.wav');
    copyFileSync(base.audioPath, join(workspaceDir, 'narration-v1.wav'));
    await runFfmpeg(binaries.ffmpegPath, [
      '-i',
      base.audioPath,
      '-af',
      `volume=1.5:enable='between(t,${from.toFixed(3)},${to.toFixed(3)})'`,
      audioPath,
    ]);
    const words = base.words.map((w) => (w.start >= from && w.start < to ? { ...w, word: `${w.word}!` } : w));
    const second = await timed({ ...base, words, audioPath, segmentCacheDir }, 'v2');
    const [v1, v2] = await Promise.all([
      frameHashes(binaries.ffmpegPath, first.result.videoPath),
      frameHashes(binaries.ffmpegPath, second.result.videoPath),
    ]);
    const cutFrom = Math.round(from * OUTPUT_FPS);
    const cutTo = Math.round(to * OUTPUT_FPS);
    const untouched = v1.map((hash, index) => (index < cutFrom || index >= cutTo ? hash === v2[index] : true)).every(Boolean);
    return [
      single.seconds.toFixed(1),
      first.seconds.toFixed(1),
      (first.seconds / single.seconds).toFixed(2),
      second.seconds.toFixed(1),
      `${second.result.renderStats.segmentsRendered}/${second.result.renderStats.segmentsRendered + second.result.renderStats.segmentsReused}`,
      `${((second.seconds / first.seconds) * 100).toFixed(0)}%`,
      untouched && v1.length === v2.length ? 'yes' : 'NO',
    ];
  } finally {
    if (!keep) await rm(workspaceDir, { recursive: true, force: true });
    else console.log(`kept ${workspaceDir}`);
  }
}

/**
 * The storyboard's edits as the server runs them: each version in a fresh workspace over the video's
 * one artefact folder (narration, pictures, segments), timed whole (story to video). The first
 * render, then re-renders with no change, with scene 3's picture repainted (a new seed) and with
 * scene 3's narration rewritten to other words of the same count.
 */
async function runStoryboardEdits(): Promise<string[][]> {
  const binaries = resolveFfmpegBinaries();
  const root = await mkdtemp(join(tmpdir(), 'render-bench-edits-'));
  const artefactDir = join(root, 'artefacts');
  let version = 0;
  const render = async (storyboard?: StoryboardInput): Promise<{ seconds: number; output: GenerationOutput }> => {
    version += 1;
    const started = performance.now();
    const output = await runGeneration(
      {
        jobId: 'bench-edits',
        params: LIGHTHOUSE,
        workspaceDir: join(root, `v${version}`),
        artefactDir,
        providers: offlineProviders(),
        ...(storyboard ? { storyboard } : {}),
      },
      { binaries },
    );
    return { seconds: (performance.now() - started) / 1000, output };
  };
  try {
    const first = await render();
    const scenes = first.output.scenes!;
    const storyboard = (): StoryboardInput => ({
      title: first.output.title,
      scenes: scenes.map((scene) => ({ narration: scene.narration, imagePrompt: scene.imagePrompt, imageSeed: scene.imageSeed })),
    });
    const edited = Math.min(2, scenes.length - 1);
    const same = await render(storyboard());
    const picture = storyboard();
    picture.scenes[edited]!.imageSeed += 1000;
    const pictureEdit = await render(picture);
    // Other words, as many: the next scene's words, repeated or cut to the edited scene's count.
    const narration = storyboard();
    const count = scenes[edited]!.narration.split(/\s+/).length;
    const donor = scenes[(edited + 1) % scenes.length]!.narration.split(/\s+/);
    narration.scenes[edited]!.narration = Array.from({ length: count }, (_, index) => donor[index % donor.length]).join(' ');
    const narrationEdit = await render(narration);
    const row = (name: string, run: { seconds: number; output: GenerationOutput }) => [
      name,
      run.seconds.toFixed(1),
      `${((run.seconds / first.seconds) * 100).toFixed(0)}%`,
      `${run.output.renderStats.segmentsRendered}/${run.output.renderStats.segmentsRendered + run.output.renderStats.segmentsReused}`,
      String(run.output.renderStats.segmentsReused),
      run.output.durationSeconds.toFixed(2),
    ];
    return [row('first render', first), row('no change', same), row('one picture', pictureEdit), row('one narration', narrationEdit)];
  } finally {
    if (!keep) await rm(root, { recursive: true, force: true });
    else console.log(`kept ${root}`);
  }
}

function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padStart(widths[column]!)).join(' | ')} |`;
  console.log(`\n${title}\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}`);
}

if (!brandOnly && !researchOnly) {
  printTable(
    'Storyboard edits, 30s 9:16, whole pipeline per version (fresh workspace, one artefact folder):',
    ['version', 'seconds', 'of first', 'segments rendered', 'reused', 'duration s'],
    await runStoryboardEdits(),
  );
}

if (!brandOnly && !editsOnly && !researchOnly) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padStart(widths[column]!)).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}`);
  console.log('\ntotal: whole pipeline (story, voice, pictures, render); render: the final ffmpeg pass with zoom and captions;');
  console.log(
    `render CPU: user + system seconds of the render's ffmpeg processes; limit: that work spread perfectly over the ${cores} cores, the least wall time it can take; render/limit near 1 means the cores were busy throughout;`,
  );
  console.log(
    `total CPU: the same for the whole pipeline (this process and every process it ran); total/limit: total s against total CPU / ${cores};`,
  );
  console.log('floor: one plain ffmpeg pass (-loop 1 inputs) on the same pictures and audio, same encoder settings, no zoom or captions;');
  console.log('static floor: the same, each picture decoded and converted once (no motion for the encoder to code).');
  console.log(
    `ref: the same storyboard rendered with the earlier settings (${videoEncoderArgs(REFERENCE).join(' ')}); SSIM of the render against it (1 = identical).`,
  );

  const rerenderHeader = [
    '30s 9:16',
    'single pass s',
    'segmented v1 s',
    'v1/single',
    're-render s',
    'segments rendered',
    're-render/v1',
    'untouched frames identical',
  ];
  const rerender = await runRerender();
  const rw = rerenderHeader.map((title, column) => Math.max(title.length, rerender[column]?.length ?? 0));
  const rline = (cells: string[]) => `| ${cells.map((cell, column) => cell.padStart(rw[column]!)).join(' | ')} |`;
  console.log(
    `\nOne scene's narration changed (storyboard re-render, segmentCacheDir):\n${rline(rerenderHeader)}\n|${rw.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rline(['render', ...rerender])}`,
  );
}

/**
 * Caption templates and the brand kit: the caption file alone (libass over a flat 1080x1920 frame for
 * 10 s) for every style, to find the template libass works hardest on; then the 30 s 9:16 render with
 * the tiktok style against the same render with that template, a logo and an end card, alternated
 * twice so that load on the machine falls on both alike (the lower of each pair is kept).
 */
interface TimedRender {
  seconds: number;
  cpuSeconds: number;
}

async function runBrandCase(): Promise<{
  libass: Array<[string, number]>;
  heaviest: string;
  tiktok: TimedRender[];
  branded: TimedRender[];
}> {
  const binaries = resolveFfmpegBinaries();
  const workspaceDir = await mkdtemp(join(tmpdir(), 'render-bench-brand-'));
  try {
    const base = await firstRender(workspaceDir, 'bench-brand', binaries);
    const font = captionFontFor('en');
    const fonts = prepareFontsDir(font, join(workspaceDir, 'fonts'));
    const libass: Array<[string, number]> = [];
    for (const style of CAPTION_STYLE_VALUES) {
      const name = `${style}.ass`;
      writeFileSync(
        join(workspaceDir, name),
        buildCaptionsAss({
          words: base.words.filter((w) => w.start < 10),
          style,
          language: 'en',
          width: 1080,
          height: 1920,
          font,
          durationSeconds: 10,
          accentColor: '#00C8FF',
        }),
      );
      const before = endedChildrenCpuSeconds();
      await runFfmpeg(
        binaries.ffmpegPath,
        [
          '-f',
          'lavfi',
          '-i',
          'color=c=0x335577:s=1080x1920:r=30:d=10',
          '-vf',
          `ass=filename=${name}:fontsdir=${fonts.slice(workspaceDir.length + 1)}`,
          '-f',
          'null',
          '-',
        ],
        { cwd: workspaceDir },
      );
      libass.push([style, endedChildrenCpuSeconds() - before]);
    }
    const heaviest = libass
      .filter(([style]) => isCaptionTemplate(style as CaptionStyle))
      .sort((a, b) => b[1] - a[1])[0]![0] as CaptionStyle;
    const logo = join(workspaceDir, 'logo.png');
    await runFfmpeg(binaries.ffmpegPath, [
      '-f',
      'lavfi',
      '-i',
      'color=c=0xFF00FF:s=512x512,format=rgba,geq=r=255:g=0:b=255:a=if(lt(hypot(X-256\\,Y-256)\\,250)\\,230\\,0)',
      '-frames:v',
      '1',
      logo,
    ]);
    const brand: RenderBrand = {
      accentColor: '#00C8FF',
      fontId: 'noto-sans',
      logo: { path: logo, position: 'top-right', scale: 0.18, opacity: 0.9 },
      endCard: { text: '@lighthousekeeper', seconds: 2 },
    };
    const timed = async (request: AssemblyRequest, name: string): Promise<TimedRender> => {
      const started = performance.now();
      const cpuBefore = endedChildrenCpuSeconds();
      await assembleVideo(
        {
          ...request,
          outputPath: join(workspaceDir, `${name}.mp4`),
          posterPath: join(workspaceDir, `${name}.jpg`),
          workDir: join(workspaceDir, `${name}-work`),
        },
        { binaries },
      );
      return { seconds: (performance.now() - started) / 1000, cpuSeconds: endedChildrenCpuSeconds() - cpuBefore };
    };
    const tiktok: TimedRender[] = [];
    const branded: TimedRender[] = [];
    for (const round of [1, 2]) {
      tiktok.push(await timed({ ...base, segmentCacheDir: join(workspaceDir, `tiktok-${round}`) }, `tiktok-${round}`));
      branded.push(
        await timed(
          { ...base, captionStyle: heaviest, brand, segmentCacheDir: join(workspaceDir, `branded-${round}`) },
          `branded-${round}`,
        ),
      );
    }
    return { libass, heaviest, tiktok, branded };
  } finally {
    if (!keep) await rm(workspaceDir, { recursive: true, force: true });
    else console.log(`kept ${workspaceDir}`);
  }
}

if (!editsOnly && !researchOnly) {
  const brandCase = await runBrandCase();
  console.log(
    `\nCaption file alone (libass, 10 s of 1080x1920), CPU s: ${brandCase.libass.map(([style, cpu]) => `${style} ${cpu.toFixed(2)}`).join(', ')}`,
  );
  const best = (runs: TimedRender[], key: keyof TimedRender) => Math.min(...runs.map((run) => run[key]));
  const described = (runs: TimedRender[]) =>
    runs.map((run) => `${run.seconds.toFixed(1)} s (${run.cpuSeconds.toFixed(1)} CPU s)`).join(' / ');
  const change = (key: keyof TimedRender) => `${((best(brandCase.branded, key) / best(brandCase.tiktok, key) - 1) * 100).toFixed(1)}%`;
  console.log(
    `30s 9:16 render, tiktok: ${described(brandCase.tiktok)}; ${brandCase.heaviest} + logo + end card: ${described(brandCase.branded)}`,
  );
  console.log(
    `best of each: wall ${best(brandCase.tiktok, 'seconds').toFixed(1)} vs ${best(brandCase.branded, 'seconds').toFixed(1)} s (${change('seconds')}), CPU ${best(brandCase.tiktok, 'cpuSeconds').toFixed(1)} vs ${best(brandCase.branded, 'cpuSeconds').toFixed(1)} s (${change('cpuSeconds')}); on a shared machine the CPU figure is the steadier one.`,
  );
}

/**
 * Research's cost: the default job (30 s, 9:16, offline providers) for a topic the fake Wikipedia
 * answers, told from its article with Commons pictures, beside the same topic told offline without
 * research, each with its step breakdown ("research", "story: synthesis"…). Run alone with --research,
 * and after the other cases in a full run.
 */
async function runResearchCase(research: boolean, fake: Awaited<ReturnType<typeof startFakeWikimediaServer>>) {
  const providers = createProviders(
    loadPipelineConfig({
      ...process.env,
      STORY_PROVIDER: 'offline',
      IMAGE_PROVIDER: 'offline',
      VOICE_PROVIDER: 'offline',
      ...(research ? fake.env : { RESEARCH_PROVIDER: 'off' }),
    }),
  );
  const workspaceDir = await mkdtemp(join(tmpdir(), `render-bench-research-${research}-`));
  const timings: StepTiming[] = [];
  const started = performance.now();
  const ownCpuBefore = process.cpuUsage();
  const childCpuBefore = endedChildrenCpuSeconds();
  try {
    const output = await runGeneration(
      {
        jobId: `bench-research-${research}`,
        params: { ...LIGHTHOUSE, topic: 'How honeybees talk by dancing', style: 'educational', research },
        workspaceDir,
        providers,
      },
      { binaries, renderAhead, onTiming: (timing) => timings.push(timing) },
    );
    const seconds = (performance.now() - started) / 1000;
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const cpuSeconds = (ownCpu.user + ownCpu.system) / 1e6 + endedChildrenCpuSeconds() - childCpuBefore;
    return { seconds, cpuSeconds, timings, startedAt: started / 1000, source: output.research?.title ?? null };
  } finally {
    if (!keep) await rm(workspaceDir, { recursive: true, force: true });
    else console.log(`kept ${workspaceDir}`);
  }
}

if (researchOnly || (!brandOnly && !editsOnly && !quick && !onlyDuration)) {
  const fake = await startFakeWikimediaServer();
  try {
    // Without research first, so both runs find the offline voice's rate already measured.
    for (const research of [false, true]) {
      const result = await runResearchCase(research, fake);
      console.log(
        `\n30s 9:16 "How honeybees talk by dancing", ${research ? `researched (told from "${result.source ?? 'no article'}")` : 'without research'}: ${result.seconds.toFixed(1)} s, ${result.cpuSeconds.toFixed(1)} CPU s\n${formatTimings(result.timings, result.startedAt, { label: 'whole pipeline', seconds: result.seconds, cpuSeconds: result.cpuSeconds })}`,
      );
    }
  } finally {
    await fake.close();
  }
}
