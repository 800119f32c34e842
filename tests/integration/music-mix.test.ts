import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assembleVideo,
  createOfflineVoiceProvider,
  defaultFfmpegBinaries,
  GENERATED_MUSIC_VOLUME_PERCENT,
  writeMusicBed,
  type AssemblyRequest,
  type WordTiming,
} from '@reelsmith/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * How loud music sits in a finished video, as a viewer hears it. The narration is real speech
 * (the product's own espeak-ng, WebAssembly: CI has no system espeak) kept under 700 Hz and the music is measured above 2.5 kHz, so the two are told apart
 * in the one mixed soundtrack: the music's gain in a stretch of the video is its level there less
 * the level of the music file itself, and its loudness there is the file's loudness plus that gain.
 */
const dir = mkdtempSync(join(tmpdir(), 'music-mix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ffmpeg = defaultFfmpegBinaries().ffmpegPath;
const run = (args: string[]) =>
  execFileSync(ffmpeg, ['-hide_banner', '-nostats', '-y', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const stderrOf = (args: string[]) =>
  execFileSync('sh', ['-c', `"${ffmpeg}" -hide_banner -nostats ${args.map((a) => `'${a}'`).join(' ')} 2>&1`], { encoding: 'utf8' });

const MUSIC_BAND = 'highpass=f=2500,highpass=f=2500,highpass=f=2500,highpass=f=2500';
const SENTENCES = [
  'The keeper climbed the stairs of the lighthouse every night before the storm came in.',
  'Nobody in the village ever knew who had lit the lamp before him.',
];
const PAUSE_SECONDS = 3;
const DURATION = 14;

/** Integrated loudness (LUFS) of a file's audio as stereo at 48 kHz, the mix's format. */
function loudness(path: string, from?: number, to?: number): number {
  const window = from === undefined ? [] : ['-ss', String(from), '-t', String(to! - from)];
  const log = stderrOf([...window, '-i', path, '-vn', '-af', 'aresample=48000,aformat=channel_layouts=stereo,ebur128', '-f', 'null', '-']);
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(log.slice(log.lastIndexOf('Summary:')))![1]);
}

/** RMS level (dB) of the music band of a file's audio (between two times). */
function bandLevel(path: string, from?: number, to?: number): number {
  const window = from === undefined ? [] : ['-ss', String(from), '-t', String(to! - from)];
  const log = stderrOf([
    ...window,
    '-i',
    path,
    '-vn',
    '-af',
    `aresample=48000,aformat=channel_layouts=stereo,${MUSIC_BAND},astats=measure_perchannel=none`,
    '-f',
    'null',
    '-',
  ]);
  return Number(/RMS level dB: (-?[\d.]+)/.exec(log)![1]);
}

let voice: string;
const words: WordTiming[] = [];
let withoutMusic: string;
/** Seconds inside the first sentence, inside the pause after it. */
let speech: [number, number];
let pause: [number, number];

beforeAll(async () => {
  // Narration: 0.4 s of silence, sentence one, a pause, sentence two; its words spread evenly over each sentence.
  const parts: string[] = [];
  let clock = 0.4;
  const starts: number[] = [];
  const narrator = createOfflineVoiceProvider({ ffmpegPath: ffmpeg });
  for (const [index, sentence] of SENTENCES.entries()) {
    const wav = join(dir, `sentence-${index}.wav`);
    const { durationSeconds: seconds } = await narrator.synthesize({
      text: sentence,
      voiceId: 'en-us-m3',
      language: 'en',
      outputPath: wav,
    });
    const spoken = sentence.split(' ');
    words.push(
      ...spoken.map((word, i) => ({
        word,
        start: clock + (i * seconds) / spoken.length,
        end: clock + ((i + 0.9) * seconds) / spoken.length,
      })),
    );
    starts.push(clock, clock + seconds);
    parts.push(wav);
    clock += seconds + PAUSE_SECONDS;
  }
  // The narration ends a second before the video does (the music fades out over its last 2 s).
  expect(clock - PAUSE_SECONDS + 1).toBeLessThan(DURATION);
  speech = [starts[0]! + 1, starts[1]! - 0.6];
  pause = [starts[1]! + 0.8, starts[2]! - 0.5];
  voice = join(dir, 'voice.wav');
  run([
    '-i',
    parts[0]!,
    '-i',
    parts[1]!,
    '-filter_complex',
    `[0:a]adelay=400,apad=pad_dur=${PAUSE_SECONDS}[a];[a][1:a]concat=n=2:v=0:a=1,lowpass=f=700,lowpass=f=700,lowpass=f=700,lowpass=f=700,aresample=24000`,
    '-ac',
    '1',
    voice,
  ]);
  run(['-f', 'lavfi', '-i', `color=c=0x335577:s=64x64`, '-frames:v', '1', join(dir, 'scene.jpg')]);
  withoutMusic = await render('no-music');
}, 120_000);

async function render(name: string, music?: AssemblyRequest['music']): Promise<string> {
  const request: AssemblyRequest = {
    scenes: [{ imagePath: join(dir, 'scene.jpg'), start: 0, end: DURATION }],
    audioPath: voice,
    words,
    resolution: '1:1',
    durationSeconds: DURATION,
    enableZoom: false,
    zoomDirection: 'in',
    enableCaptions: false,
    captionStyle: 'tiktok',
    language: 'en',
    outputPath: join(dir, `${name}.mp4`),
    posterPath: join(dir, `${name}.jpg`),
    workDir: join(dir, `${name}-work`),
    segmentCacheDir: join(dir, `${name}-segments`),
    ...(music ? { music } : {}),
  };
  return (await assembleVideo(request, { frameSize: { width: 64, height: 64 } })).videoPath;
}

/** The music's loudness (LUFS) in the video between two times. */
const musicLoudness = (video: string, music: string, [from, to]: [number, number]) =>
  loudness(music) + bandLevel(video, from, to) - bandLevel(music);

describe('music under the narration', () => {
  let tone: string;
  let voiceLufs: number;
  let atDefault: string;

  beforeAll(async () => {
    // An uploaded track mastered quiet: a 5 kHz test tone at -26 dBFS, shorter than the video (it loops).
    tone = join(dir, 'tone.wav');
    run(['-f', 'lavfi', '-i', 'sine=frequency=5000:duration=3', '-af', 'volume=-23dB', '-ac', '2', tone]);
    voiceLufs = loudness(withoutMusic);
    atDefault = await render('tone-30', { path: tone, volumePercent: 30 });
  }, 120_000);

  it('sits 18-24 LU under the voice while words are spoken, at the default 30%', () => {
    // Nothing of the voice reaches the music band: the video without music is silent there.
    expect(bandLevel(withoutMusic, ...speech)).toBeLessThan(-80);
    const under = musicLoudness(atDefault, tone, speech) - voiceLufs;
    expect(under).toBeGreaterThanOrEqual(-24);
    expect(under).toBeLessThanOrEqual(-18);
  });

  it('rises in the pause between sentences, still under the voice', () => {
    const inPause = musicLoudness(atDefault, tone, pause);
    expect(inPause - musicLoudness(atDefault, tone, speech)).toBeGreaterThan(5);
    expect(inPause).toBeLessThan(voiceLufs - 6);
  });

  it('changes by several dB when the volume setting changes', async () => {
    const base = bandLevel(atDefault, ...speech);
    expect(bandLevel(await render('tone-60', { path: tone, volumePercent: 60 }), ...speech) - base).toBeGreaterThan(4);
    expect(base - bandLevel(await render('tone-15', { path: tone, volumePercent: 15 }), ...speech)).toBeGreaterThan(4);
  }, 120_000);

  it('brings a loud track down to the same place', async () => {
    const loud = join(dir, 'loud.wav');
    run(['-i', tone, '-af', 'volume=20dB', loud]);
    const video = await render('loud-30', { path: loud, volumePercent: 30 });
    expect(Math.abs(musicLoudness(video, loud, speech) - musicLoudness(atDefault, tone, speech))).toBeLessThan(1);
  }, 120_000);
});

describe('the generated music bed', () => {
  it('follows the same rule: under the voice while words are spoken, louder in the pause, never louder than the voice', async () => {
    const bed = await writeMusicBed('playful', join(dir, 'bed.wav'));
    const video = await render('bed', { path: bed, volumePercent: GENERATED_MUSIC_VOLUME_PERCENT });
    const voiceLufs = loudness(withoutMusic);
    const under = musicLoudness(video, bed, speech) - voiceLufs;
    expect(under).toBeGreaterThanOrEqual(-24);
    expect(under).toBeLessThanOrEqual(-18);
    const inPause = musicLoudness(video, bed, pause);
    expect(inPause - (under + voiceLufs)).toBeGreaterThan(5);
    expect(inPause).toBeLessThan(voiceLufs - 6);
  }, 120_000);
});
