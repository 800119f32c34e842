import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real media for the fake provider servers, made once per process with ffmpeg (cached by shape), so
 * adapters under test write, probe and later assemble genuine MP3/WAV/PNG files.
 */
let workDir: Promise<string> | undefined;
const cache = new Map<string, Promise<Buffer>>();

export function ffmpegBinary(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  return existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : 'ffmpeg';
}

export interface FakeAudioShape {
  format: 'mp3' | 'wav';
  seconds: number;
  sampleRate?: number;
  /** MP3 only. */
  bitrateKbps?: number;
}

/** A sine tone of about `seconds` (rounded up to a quarter second) in the given container. */
export function fakeAudio(shape: FakeAudioShape): Promise<Buffer> {
  const seconds = Math.max(0.5, Math.ceil(shape.seconds * 4) / 4);
  const sampleRate = shape.sampleRate ?? 24_000;
  const bitrate = shape.bitrateKbps ?? 48;
  const key = `${shape.format}-${seconds}-${sampleRate}-${bitrate}`;
  const codec = shape.format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', `${bitrate}k`] : ['-c:a', 'pcm_s16le'];
  return cached(key, `${key}.${shape.format}`, (out) => [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=${sampleRate}:duration=${seconds}`,
    '-ac',
    '1',
    ...codec,
    out,
  ]);
}

/** A few seconds of moving test pattern as H.264 MP4, the way stock libraries serve video. */
export function fakeVideo(width: number, height: number, seconds: number): Promise<Buffer> {
  const key = `mp4-${width}x${height}-${seconds}`;
  return cached(key, `${key}.mp4`, (out) => [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=25:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
}

/** A solid-colour PNG of the given size. */
export function fakePng(width: number, height: number): Promise<Buffer> {
  const key = `png-${width}x${height}`;
  return cached(key, `${key}.png`, (out) => ['-f', 'lavfi', '-i', `color=c=0x336699:s=${width}x${height}`, '-frames:v', '1', out]);
}

function cached(key: string, fileName: string, args: (out: string) => string[]): Promise<Buffer> {
  let entry = cache.get(key);
  if (!entry) {
    entry = (async () => {
      workDir ??= mkdtemp(join(tmpdir(), 'reelsmith-fake-media-'));
      const out = join(await workDir, fileName);
      await run(ffmpegBinary(), ['-hide_banner', '-loglevel', 'error', '-y', ...args(out)]);
      return readFile(out);
    })();
    entry.catch(() => cache.delete(key));
    cache.set(key, entry);
  }
  return entry;
}

function run(binary: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`ffmpeg failed: ${String(stderr).trim() || error.message}`, { cause: error }));
      else resolve();
    });
  });
}
