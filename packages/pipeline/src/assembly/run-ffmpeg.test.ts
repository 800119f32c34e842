import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FfmpegError, FFMPEG_MALLOC_ENV, runFfmpeg } from './run-ffmpeg.js';

const dir = mkdtempSync(join(tmpdir(), 'run-ffmpeg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for ffmpeg: prints what it was given and then fails, so runFfmpeg hands its stderr back. */
function fakeFfmpeg(): string {
  const path = join(dir, 'fake-ffmpeg');
  writeFileSync(path, '#!/bin/sh\necho "mmap=$MALLOC_MMAP_THRESHOLD_ trim=$MALLOC_TRIM_THRESHOLD_ pad=$MALLOC_TOP_PAD_ home=$HOME" >&2\nexit 3\n');
  chmodSync(path, 0o755);
  return path;
}

describe('runFfmpeg', () => {
  it('runs ffmpeg with malloc settings that keep frame buffers for reuse, and the rest of the environment', async () => {
    const error = await runFfmpeg(fakeFfmpeg(), ['-version']).then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegError);
    const line = (error as FfmpegError).stderrTail;
    expect(line).toContain(`mmap=${FFMPEG_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_}`);
    expect(line).toContain(`trim=${FFMPEG_MALLOC_ENV.MALLOC_TRIM_THRESHOLD_}`);
    expect(line).toContain(`pad=${FFMPEG_MALLOC_ENV.MALLOC_TOP_PAD_}`);
    expect(line).toContain(`home=${process.env.HOME ?? ''}`);
    // Thresholds glibc accepts: mmap's is capped at 32 MiB on 64-bit; a frame of 1080x1920 is about 3 MiB.
    expect(Number(FFMPEG_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_)).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(Number(FFMPEG_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_)).toBeGreaterThan(1080 * 1920 * 1.5);
  });
});
