/**
 * Render benchmark: the whole pipeline (offline story, voice and pictures, then the final render)
 * for 30/60/90 s videos in every aspect ratio, with zoom and captions on, and in the same run the
 * floor each render is judged against: one plain single-pass ffmpeg command on the same pictures and
 * narration with the same encoder settings and no zoom or captions.
 *
 *   npm run bench:render            all nine cases
 *   npm run bench:render -- --quick 30 s 9:16 only
 *
 * Other work on the machine slows every figure; the ratio compares two renders made moments apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RESOLUTIONS, type Duration, type Resolution } from '@reelsmith/contracts';
import { AUDIO_ENCODER_ARGS, OUTPUT_FPS, assembleVideo, videoEncoderArgs } from '../src/assembly/assemble-video.js';
import { runFfmpeg } from '../src/assembly/run-ffmpeg.js';
import { createProviders, loadPipelineConfig, resolveFfmpegBinaries, runGeneration, type AssemblyRequest } from '../src/index.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
const durations: Duration[] = quick ? [30] : [30, 60, 90];
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
    kind === 'plain' ? `[${index}:v]` : `[${index}:v]format=yuv420p,loop=loop=${Math.max(0, Math.round(seconds[index]! * OUTPUT_FPS) - 1)}:size=1:start=0,setpts=N/${OUTPUT_FPS}/TB[s${index}];`,
  );
  const graph = kind === 'plain' ? `${held.join('')}concat=n=${n}:v=1:a=0[v]` : `${held.join('')}${request.scenes.map((_, i) => `[s${i}]`).join('')}concat=n=${n}:v=1:a=0[v]`;
  args.push(
    '-filter_complex', `${graph};[${n}:a]aresample=48000,apad[a]`,
    '-map', '[v]', '-map', '[a]',
    ...videoEncoderArgs(), ...AUDIO_ENCODER_ARGS,
    '-t', request.durationSeconds.toFixed(3), '-movflags', '+faststart', outputPath,
  );
  const started = performance.now();
  await runFfmpeg(ffmpegPath, args);
  return (performance.now() - started) / 1000;
}

interface CaseResult {
  label: string;
  totalSeconds: number;
  renderSeconds: number;
  realtime: number;
  ffmpegPeakMb: number;
  nodePeakMb: number;
  floorSeconds: number;
  staticFloorSeconds: number;
}

async function runCase(duration: Duration, resolution: Resolution): Promise<CaseResult> {
  const config = loadPipelineConfig({ ...process.env, STORY_PROVIDER: 'offline', IMAGE_PROVIDER: 'offline', VOICE_PROVIDER: 'offline' });
  const providers = createProviders(config);
  const binaries = resolveFfmpegBinaries();
  const workspaceDir = await mkdtemp(join(tmpdir(), `render-bench-${duration}-${resolution.replace(':', 'x')}-`));
  let nodePeak = process.memoryUsage().rss;
  const nodeTimer = setInterval(() => (nodePeak = Math.max(nodePeak, process.memoryUsage().rss)), 100);
  let stopWatching: (() => number) | null = null;
  let renderRequest: AssemblyRequest | null = null;
  let renderStarted = 0;
  let renderSeconds = 0;
  const started = performance.now();
  try {
    await runGeneration(
      {
        jobId: `bench-${duration}-${resolution}`,
        params: {
          topic: 'The lighthouse keeper who heard a knock at midnight',
          style: 'mysterious',
          language: 'en',
          duration,
          voice: 'en-us-m3',
          voiceProvider: 'offline',
          visualStyle: 'cinematic',
          resolution,
          customPrompt: '',
          enableZoom: true,
          zoomDirection: 'in',
          enableCaptions: true,
          captionStyle: 'tiktok',
        },
        workspaceDir,
        providers,
      },
      {
        binaries,
        assemble: async (request, options) => {
          renderRequest = request;
          if (keep) writeFileSync(join(workspaceDir, 'assembly-request.json'), JSON.stringify(request, null, 2));
          renderStarted = performance.now();
          try {
            return await assembleVideo(request, { ...options, onSpawn: (pid) => (stopWatching = watchPeakMemory(pid)) });
          } finally {
            renderSeconds = (performance.now() - renderStarted) / 1000;
          }
        },
      },
    );
    const totalSeconds = (performance.now() - started) / 1000;
    const ffmpegPeakKb = (stopWatching as (() => number) | null)?.() ?? 0;
    if (!renderRequest) throw new Error('The pipeline never reached the render step.');
    const floorSeconds = await renderFloor('plain', renderRequest, join(workspaceDir, 'floor.mp4'), binaries.ffmpegPath);
    const staticFloorSeconds = await renderFloor('static', renderRequest, join(workspaceDir, 'static-floor.mp4'), binaries.ffmpegPath);
    return {
      label: `${duration}s ${resolution}`,
      totalSeconds,
      renderSeconds,
      realtime: totalSeconds / duration,
      ffmpegPeakMb: ffmpegPeakKb / 1024,
      nodePeakMb: nodePeak / 1024 / 1024,
      floorSeconds,
      staticFloorSeconds,
    };
  } finally {
    clearInterval(nodeTimer);
    if (!keep) await rm(workspaceDir, { recursive: true, force: true });
    else console.log(`kept ${workspaceDir}`);
  }
}

const header = ['case', 'total s', 'x realtime', 'render s', 'floor s', 'render/floor', 'static floor s', 'render/static', 'ffmpeg peak MB', 'node peak MB'];
const rows: string[][] = [];
const binaries = resolveFfmpegBinaries();
console.log(`ffmpeg: ${binaries.ffmpegPath} (${binaries.ffmpegSource}); encoder: ${videoEncoderArgs().join(' ')}`);
for (const duration of durations) {
  for (const resolution of resolutions) {
    const result = await runCase(duration, resolution);
    const row = [
      result.label,
      result.totalSeconds.toFixed(1),
      result.realtime.toFixed(2),
      result.renderSeconds.toFixed(1),
      result.floorSeconds.toFixed(1),
      (result.renderSeconds / result.floorSeconds).toFixed(2),
      result.staticFloorSeconds.toFixed(1),
      (result.renderSeconds / result.staticFloorSeconds).toFixed(2),
      result.ffmpegPeakMb.toFixed(0),
      result.nodePeakMb.toFixed(0),
    ];
    rows.push(row);
    console.log(row.join('  '));
  }
}
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padStart(widths[column]!)).join(' | ')} |`;
console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}`);
console.log('\ntotal: whole pipeline (story, voice, pictures, render); render: the final ffmpeg pass with zoom and captions;');
console.log('floor: one plain ffmpeg pass (-loop 1 inputs) on the same pictures and audio, same encoder settings, no zoom or captions;');
console.log('static floor: the same, each picture decoded and converted once (no motion for the encoder to code).');
