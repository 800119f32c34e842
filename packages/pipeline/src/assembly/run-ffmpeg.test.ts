import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveFfmpegBinaries } from './ffmpeg-binary.js';
import { FfmpegError, FFMPEG_MALLOC_ENV, refusedFilter, runFfmpeg } from './run-ffmpeg.js';

const dir = mkdtempSync(join(tmpdir(), 'run-ffmpeg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for ffmpeg: prints what it was given and then fails, so runFfmpeg hands its stderr back. */
function fakeFfmpeg(): string {
  const path = join(dir, 'fake-ffmpeg');
  writeFileSync(
    path,
    '#!/bin/sh\necho "mmap=$MALLOC_MMAP_THRESHOLD_ trim=$MALLOC_TRIM_THRESHOLD_ pad=$MALLOC_TOP_PAD_ home=$HOME" >&2\nexit 3\n',
  );
  chmodSync(path, 0o755);
  return path;
}

describe('runFfmpeg', () => {
  it('runs ffmpeg with malloc settings that keep frame buffers for reuse, and the rest of the environment', async () => {
    const error = await runFfmpeg(fakeFfmpeg(), ['-version']).then(
      () => null,
      (caught: unknown) => caught,
    );
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

describe('a filter the binary cannot run', () => {
  it('reads the refused filter and option from ffmpeg 4.1 and 5.x wording', () => {
    expect(
      refusedFilter(
        "[Parsed_amix_12 @ 0x1] Option 'normalize' not found\n[AVFilterGraph @ 0x2] Error initializing filter 'amix' with args 'inputs=2:normalize=0'",
      ),
    ).toEqual({
      filter: 'amix',
      reason: "this build has no option 'normalize'",
    });
    expect(refusedFilter("[AVFilterGraph @ 0x1] No such filter: 'drawtext'")).toEqual({
      filter: 'drawtext',
      reason: 'this build has no such filter',
    });
    expect(refusedFilter('moov atom not found')).toBeNull();
  });

  // @ffmpeg-installer/ffmpeg is a dependency: a fresh install always has the bundled binary, so its absence fails here.
  const bundled = resolveFfmpegBinaries({}, { PATH: '' });
  it('names the binary, its version and the filter in the error (the operator log)', async () => {
    expect(bundled.ffmpegSource).toBe('bundled');
    const error = await runFfmpeg(bundled.ffmpegPath, [
      '-f',
      'lavfi',
      '-i',
      'sine=d=0.2',
      '-f',
      'lavfi',
      '-i',
      'sine=d=0.2',
      '-filter_complex',
      '[0:a][1:a]amix=inputs=2:normalize=0[out]',
      '-map',
      '[out]',
      '-f',
      'null',
      '-',
    ]).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FfmpegError);
    const message = (error as FfmpegError).message;
    expect(message).toContain(bundled.ffmpegPath);
    expect(message).toMatch(/\(ffmpeg N-\d+-\w+-static\)|\(ffmpeg 4\.1/);
    expect(message).toContain("cannot run the 'amix' filter: this build has no option 'normalize'");
  });
});
