/**
 * Quality benchmark: renders 30, 60 and 90 s videos in English, Hindi and Japanese (and Japanese
 * narration of an English topic with an emoji) with the offline providers (music by style, captions
 * on) and prints what a viewer would notice, per video:
 *
 *   duration     the MP4's length against the target (target ±0.5 s)
 *   trailing     silence after the last spoken word (≤ 1.0 s)
 *   longest      the longest silence inside the narration
 *   caption err  the largest gap between a burned-in caption's start and the spoken word it shows
 *   black/frozen seconds of black frames (blackdetect) and of frozen picture (freezedetect, ≥ 2 s)
 *   LUFS         integrated loudness of the finished video (EBU R128; −14 ± 1)
 *   music/voice  how loud the music is under speech, relative to the voice (dB; the ducking)
 *   off target   what misses its target (a duration off by more than 0.5 s first), or -
 *
 *   npm run bench:quality                 all twelve videos
 *   npm run bench:quality -- --quick      30 s for each case
 *   npm run bench:quality -- --keep       keeps the videos and prints where they are
 *   npm run bench:quality -- --pictures   only the offline pictures: subjects per scene, time per picture
 *
 * It starts with the offline pictures of a fixed list of topics (bench/picture-bench.ts).
 *
 * A benchmark: it prints, it does not fail.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema, type Duration } from '@reelsmith/contracts';
import { assembleVideo } from '../src/assembly/assemble-video.js';
import { measureLoudness } from '../src/assembly/loudness.js';
import { captureOutput } from '../src/assembly/run-ffmpeg.js';
import { createProviders, loadPipelineConfig, resolveFfmpegBinaries, runGeneration } from '../src/index.js';
import { defaultOfflineVoice } from '../src/voice/voice-catalogue.js';
import type { WordTiming } from '../src/providers/types.js';
import { benchPictures } from './picture-bench.js';

const quick = process.argv.includes('--quick');
const keep = process.argv.includes('--keep');
const durations: Duration[] = quick ? [30] : [30, 60, 90];
const CASES = [
  { language: 'en', topic: 'Why octopuses have three hearts', style: 'educational' },
  { language: 'hi', topic: 'गंगा नदी की कहानी', style: 'inspirational' },
  { language: 'ja', topic: '富士山はどうやってできたのか', style: 'mysterious' },
  // A topic in another script, with an emoji: the ja voice spells Latin letters out one by one (issue 37).
  { language: 'ja', topic: 'Why octopuses have three hearts 🐙', style: 'educational' },
] as const;
/** Quieter than this (dBFS) is silence: well under speech, above dither and the music bed's tail. */
const SILENCE_DB = -40;

const binaries = resolveFfmpegBinaries();

/** The audio of a file as mono 16 kHz float samples. */
function decodeMono(path: string): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(binaries.ffmpegPath, ['-v', 'error', '-i', path, '-vn', '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg could not decode ${path}`));
      const bytes = Buffer.concat(chunks);
      resolve(new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4)));
    });
  });
}

const FRAME = 800; // 50 ms at 16 kHz
function framePowers(samples: Float32Array): number[] {
  const powers: number[] = [];
  for (let start = 0; start + FRAME <= samples.length; start += FRAME) {
    let sum = 0;
    for (let i = start; i < start + FRAME; i++) sum += samples[i]! * samples[i]!;
    powers.push(sum / FRAME);
  }
  return powers;
}
const db = (power: number) => 10 * Math.log10(Math.max(power, 1e-12));

/** Silences of the voice alone: the last sound's end, and the longest quiet stretch before it. */
function silences(voice: number[]): { lastSoundSeconds: number; longestSeconds: number } {
  const loud = voice.map((power) => db(power) > SILENCE_DB);
  const last = loud.lastIndexOf(true);
  let longest = 0;
  let run = 0;
  for (let i = loud.indexOf(true); i >= 0 && i <= last; i++) {
    run = loud[i] ? 0 : run + 1;
    longest = Math.max(longest, run);
  }
  return { lastSoundSeconds: ((last + 1) * FRAME) / 16000, longestSeconds: (longest * FRAME) / 16000 };
}

/**
 * Music under speech relative to the voice: in frames where the voice speaks, the mix's power less
 * the voice's is the music's (they are independent signals), averaged over the speech.
 */
function musicToVoiceDb(voice: number[], mix: number[]): number | null {
  let voicePower = 0;
  let musicPower = 0;
  for (let i = 0; i < Math.min(voice.length, mix.length); i++) {
    if (db(voice[i]!) < SILENCE_DB + 15) continue;
    voicePower += voice[i]!;
    musicPower += Math.max(0, mix[i]! - voice[i]!);
  }
  return voicePower > 0 && musicPower > 0 ? db(musicPower) - db(voicePower) : null;
}

/** ASS Dialogue start times in seconds. */
function captionStarts(assPath: string): number[] {
  if (!existsSync(assPath)) return [];
  return [...readFileSync(assPath, 'utf8').matchAll(/^Dialogue: \d+,(\d+):(\d+):(\d+(?:\.\d+)?),/gm)].map(
    (match) => Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]),
  );
}

/** Each caption's distance to the nearest spoken word start (a caption shows when its word is said). */
function captionError(starts: number[], words: WordTiming[]): number | null {
  if (starts.length === 0 || words.length === 0) return null;
  return Math.max(...starts.map((start) => Math.min(...words.map((word) => Math.abs(word.start - start)))));
}

async function pictureProblems(videoPath: string): Promise<{ blackSeconds: number; frozenSeconds: number }> {
  const log = await captureOutput(
    binaries.ffmpegPath,
    [
      '-hide_banner',
      '-i',
      videoPath,
      '-an',
      '-vf',
      'scale=270:-2,blackdetect=d=0.1:pix_th=0.08,freezedetect=n=-60dB:d=2',
      '-f',
      'null',
      '-',
    ],
    undefined,
    true,
  );
  const sum = (pattern: RegExp) => [...log.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0);
  return { blackSeconds: sum(/black_duration:([\d.]+)/g), frozenSeconds: sum(/freeze_duration: ([\d.]+)/g) };
}

async function probeSeconds(path: string): Promise<number> {
  return Number(
    (
      await captureOutput(binaries.ffprobePath ?? 'ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path])
    ).trim(),
  );
}

const config = loadPipelineConfig({
  ...process.env,
  STORY_PROVIDER: 'offline',
  IMAGE_PROVIDER: 'offline',
  VOICE_PROVIDER: 'offline',
  RESEARCH_PROVIDER: 'off',
});
const providers = createProviders(config);
const fmt = (value: number | null, digits = 2) => (value === null ? '-' : value.toFixed(digits));

await benchPictures();
if (process.argv.includes('--pictures')) process.exit(0);
console.log('');
console.log('video       duration  target  trailing  longest  caption err  black  frozen   LUFS  music/voice  render  off target');
let offTarget = 0;
for (const { language, topic, style } of CASES) {
  for (const duration of durations) {
    const workspaceDir = await mkdtemp(join(tmpdir(), `reelsmith-quality-${language}-${duration}-`));
    const params = generateVideoBodySchema.parse({
      topic,
      style,
      language,
      duration,
      voice: defaultOfflineVoice(language)!.id,
      resolution: '9:16',
      enableCaptions: true,
      captionStyle: 'tiktok',
    });
    const started = performance.now();
    let words: WordTiming[] = [];
    let voicePath = '';
    const output = await runGeneration(
      { jobId: `quality-${language}-${duration}`, params, workspaceDir, providers },
      {
        binaries,
        assemble: async (request, options) => {
          words = request.words;
          voicePath = request.audioPath;
          // One pass, so its caption file stays in workDir to be read; scene segments (the default)
          // show the same captions (assemble-video.test.ts compares the two frame by frame).
          return assembleVideo(request, { ...options, segmented: false });
        },
      },
    );
    const renderSeconds = (performance.now() - started) / 1000;
    const seconds = await probeSeconds(output.videoPath);
    const voice = framePowers(await decodeMono(voicePath));
    const mix = framePowers(await decodeMono(output.videoPath));
    const { lastSoundSeconds, longestSeconds } = silences(voice);
    const loudness = await measureLoudness(binaries, output.videoPath);
    const picture = await pictureProblems(output.videoPath);
    const captions = captionError(captionStarts(join(workspaceDir, 'video', 'work', 'captions.ass')), words);
    const trailing = Math.max(0, seconds - lastSoundSeconds);
    // What misses its target is named at the end of the row, so a regression cannot hide in the figures.
    const misses = [
      ...(Math.abs(seconds - duration) > 0.5
        ? [`DURATION ${(seconds - duration > 0 ? '+' : '') + (seconds - duration).toFixed(2)} s`]
        : []),
      ...(trailing > 1 ? ['trailing silence'] : []),
      ...(picture.blackSeconds > 0 ? ['black frames'] : []),
      ...(loudness.integratedLufs !== null && Math.abs(loudness.integratedLufs + 14) > 1 ? ['loudness'] : []),
    ];
    if (misses.length > 0) offTarget += 1;
    console.log(
      [
        `${language} ${duration} s`.padEnd(10),
        fmt(seconds).padStart(9),
        String(duration).padStart(7),
        fmt(trailing).padStart(9),
        fmt(longestSeconds).padStart(8),
        fmt(captions, 3).padStart(12),
        fmt(picture.blackSeconds, 1).padStart(6),
        fmt(picture.frozenSeconds, 1).padStart(7),
        fmt(loudness.integratedLufs, 1).padStart(6),
        fmt(musicToVoiceDb(voice, mix), 1).padStart(12),
        `${renderSeconds.toFixed(1)} s`.padStart(7),
        ` ${misses.join(', ') || '-'}`,
      ].join(' '),
    );
    if (keep) console.log(`  kept: ${output.videoPath}`);
    else await rm(workspaceDir, { recursive: true, force: true });
  }
}
console.log('\nTargets: duration ±0.5 s, trailing silence ≤ 1.0 s, no black frames, −14 ± 1 LUFS.');
console.log(offTarget === 0 ? 'Every video is on target.' : `${offTarget} video(s) off target (see the last column).`);
