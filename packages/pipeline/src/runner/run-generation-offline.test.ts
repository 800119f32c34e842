import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema } from '@reelsmith/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegProcessesStarted } from '../assembly/run-ffmpeg.js';
import { createOfflineImageProvider } from '../images/offline-image-provider.js';
import type { ProgressUpdate } from '../providers/types.js';
import { createOfflineStoryProvider } from '../story/offline-story-provider.js';
import { createOfflineVoiceProvider } from '../voice/offline-voice-provider.js';
import { defaultOfflineVoice } from '../voice/voice-catalogue.js';
import { runGeneration } from './run-generation.js';

const workspaceDir = mkdtempSync(join(tmpdir(), 'reelsmith-e2e-'));
afterAll(() => rmSync(workspaceDir, { recursive: true, force: true }));

function probe(path: string): { streams: Array<Record<string, string | number>>; format: { duration: string } } {
  return JSON.parse(
    execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,pix_fmt,width,height:format=duration', '-of', 'json', path],
      { encoding: 'utf8' },
    ),
  );
}

/** Offset of the first top-level MP4 box of the given type. */
function boxOffset(path: string, type: string): number {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const header = Buffer.alloc(16);
    for (let offset = 0; offset < size;) {
      readSync(fd, header, 0, 16, offset);
      const small = header.readUInt32BE(0);
      const boxSize = small === 1 ? Number(header.readBigUInt64BE(8)) : small;
      if (header.toString('latin1', 4, 8) === type) return offset;
      if (boxSize <= 0) break;
      offset += boxSize;
    }
    return -1;
  } finally {
    closeSync(fd);
  }
}

describe('a full 30 s 9:16 video with the offline providers', () => {
  it('writes a playable MP4 of 30 s with narration, zoom, captions and a poster', { timeout: 240_000 }, async () => {
    const params = generateVideoBodySchema.parse({
      topic: 'The lighthouse keeper who heard a knock at midnight',
      style: 'mysterious',
      language: 'en',
      duration: 30,
      voice: defaultOfflineVoice('en')?.id ?? 'en',
      resolution: '9:16',
      enableZoom: true,
      enableCaptions: true,
      captionStyle: 'tiktok',
    });
    const updates: ProgressUpdate[] = [];
    const processesBefore = ffmpegProcessesStarted();
    const output = await runGeneration({
      jobId: 'offline-e2e',
      params,
      workspaceDir,
      providers: { story: createOfflineStoryProvider(), voice: createOfflineVoiceProvider(), images: createOfflineImageProvider() },
      onProgress: (update) => updates.push(update),
    });

    // The job's process budget (19 today for 5 scenes): per scene a fitting pass and a segment; the
    // soundtrack, the join and the poster; the probes (the narration twice, the zoom capability, the
    // result) and the loudness of the voice and of the music; one spare. The last release started 33
    // (up to four loudness passes per scene) and took twice as long.
    const scenes = output.scenes!.length;
    expect(ffmpegProcessesStarted() - processesBefore).toBeLessThanOrEqual(2 * scenes + 10);

    const info = probe(output.videoPath);
    const video = info.streams.find((s) => s.codec_type === 'video');
    const audio = info.streams.find((s) => s.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 1080, height: 1920 });
    expect(audio).toMatchObject({ codec_name: 'aac' });
    expect(Math.abs(Number(info.format.duration) - 30)).toBeLessThanOrEqual(1);
    expect(boxOffset(output.videoPath, 'moov')).toBeGreaterThanOrEqual(0);
    expect(boxOffset(output.videoPath, 'moov')).toBeLessThan(boxOffset(output.videoPath, 'mdat'));
    expect(output).toMatchObject({ width: 1080, height: 1920 });
    expect(output.title.length).toBeGreaterThan(0);
    expect(statSync(output.posterPath).size).toBeGreaterThan(10_000);

    const progress = updates.map((u) => u.progress);
    expect(progress.every((value, index) => index === 0 || value >= progress[index - 1]!)).toBe(true);
    expect(progress.at(-1)).toBe(100);
    expect(new Set(updates.map((u) => u.step))).toEqual(new Set(['setup', 'story', 'voice', 'images', 'video']));
  });
});
