import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readSync, readdirSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../errors.js';
import { renderOfflineImage } from '../images/offline-image-provider.js';
import type { AssemblyRequest, AssemblyResult } from '../providers/types.js';
import { assembleVideo, fitNarration, planRenderAhead, sceneFrameCounts, type AssembleOptions } from './assemble-video.js';
import { defaultFfmpegBinaries, resolveFfmpegBinaries } from './ffmpeg-binary.js';
import { ffmpegProcessesStarted } from './run-ffmpeg.js';

/** What a segmented render drew, took from the cache, and whether its soundtrack was cached. */
const segmentsOf = (result: AssemblyResult) => ({
  rendered: result.renderStats.segmentsRendered,
  reused: result.renderStats.segmentsReused,
  soundtrackReused: result.soundtrackReused,
});

const SIZE = 360;
const dir = mkdtempSync(join(tmpdir(), 'assemble-'));
const binaries = defaultFfmpegBinaries();
const words = 'Welcome to the lighthouse where the keeper heard a knock at midnight'
  .split(' ')
  .map((word, i) => ({ word, start: 0.1 + i * 0.42, end: 0.1 + i * 0.42 + 0.36 }));

function request(name: string, overrides: Partial<AssemblyRequest> = {}): AssemblyRequest {
  return {
    scenes: [
      { imagePath: join(dir, 'scene-0.jpg'), start: 0, end: 2.5 },
      { imagePath: join(dir, 'scene-1.jpg'), start: 2.5, end: 5 },
    ],
    audioPath: join(dir, 'voice.wav'),
    words,
    resolution: '1:1',
    durationSeconds: 5,
    enableZoom: true,
    zoomDirection: 'in',
    enableCaptions: false,
    captionStyle: 'tiktok',
    language: 'en',
    outputPath: join(dir, `${name}.mp4`),
    posterPath: join(dir, `${name}.jpg`),
    workDir: join(dir, `${name}-work`),
    ...overrides,
  };
}
const small: AssembleOptions = { frameSize: { width: SIZE, height: SIZE } };

/** Grey pixels of the frame at `seconds`. */
function frameAt(video: string, seconds: number): Uint8Array {
  return execFileSync(
    binaries.ffmpegPath,
    ['-v', 'error', '-ss', String(seconds), '-i', video, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    { maxBuffer: 1 << 24 },
  );
}

function meanDifference(a: Uint8Array, b: Uint8Array, rows: [number, number] = [0, SIZE]): number {
  let sum = 0;
  for (let y = rows[0]; y < rows[1]; y++) for (let x = 0; x < SIZE; x++) sum += Math.abs(a[y * SIZE + x]! - b[y * SIZE + x]!);
  return sum / ((rows[1] - rows[0]) * SIZE);
}

/** `frame` magnified by `factor` about its centre (bilinear), to compare with a later zoomed frame. */
function magnify(frame: Uint8Array, factor: number): Uint8Array {
  const out = new Uint8Array(SIZE * SIZE);
  const c = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const sx = c + (x - c) / factor;
      const sy = c + (y - c) / factor;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const at = (xx: number, yy: number) => frame[Math.min(SIZE - 1, yy) * SIZE + Math.min(SIZE - 1, xx)]!;
      out[y * SIZE + x] =
        (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
    }
  }
  return out;
}

function topLevelBoxes(path: string): string[] {
  const fd = openSync(path, 'r');
  const size = statSync(path).size;
  const boxes: string[] = [];
  const header = Buffer.alloc(16);
  let offset = 0;
  while (offset + 8 <= size) {
    readSync(fd, header, 0, 16, offset);
    let length = header.readUInt32BE(0);
    if (length === 1) length = Number(header.readBigUInt64BE(8));
    boxes.push(header.toString('latin1', 4, 8));
    if (length < 8) break;
    offset += length;
  }
  closeSync(fd);
  return boxes;
}

function probe(path: string): { streams: Record<string, string | number>[]; format: { duration: string } } {
  return JSON.parse(
    execFileSync(binaries.ffprobePath ?? 'ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path], {
      encoding: 'utf8',
    }),
  );
}

beforeAll(async () => {
  for (const index of [0, 1]) {
    const prompt = index === 0 ? 'Old lighthouse above the sea at sunset' : 'Snow on the mountain peaks at dawn';
    writeFileSync(
      join(dir, `scene-${index}.jpg`),
      await renderOfflineImage({ prompt, visualStyle: 'bright colorful', width: SIZE, height: SIZE, sceneIndex: index }),
    );
  }
  generated('sine=frequency=330:duration=4.6', ['-ac', '1', join(dir, 'voice.wav')]);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('assembleVideo', () => {
  const rendered: Record<string, string> = {};
  const progress: number[] = [];

  beforeAll(async () => {
    // The single pass here; the segments (the default) in the next block and for `plain`.
    const captioned = await assembleVideo(request('captioned', { enableCaptions: true }), {
      ...small,
      segmented: false,
      onProgress: (p) => progress.push(p),
    });
    const plain = await assembleVideo(request('plain'), small);
    rendered.captioned = captioned.videoPath;
    rendered.plain = plain.videoPath;
    expect(captioned).toMatchObject({ width: SIZE, height: SIZE });
  }, 90_000);

  it('writes H.264 yuv420p with AAC audio, at the size and duration asked, moov first', () => {
    const info = probe(rendered.captioned!);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: SIZE, height: SIZE });
    expect(audio).toMatchObject({ codec_name: 'aac', channels: 2 });
    expect(Math.abs(Number(info.format.duration) - 5)).toBeLessThan(1);
    const boxes = topLevelBoxes(rendered.captioned!);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(existsSync(join(dir, 'captioned.jpg'))).toBe(true);
  });

  it('carries the narration: the audio track is not silent', () => {
    const log = execFileSync(
      'sh',
      ['-c', `"${binaries.ffmpegPath}" -hide_banner -i "${rendered.plain!}" -af volumedetect -vn -f null - 2>&1`],
      { encoding: 'utf8' },
    );
    const mean = Number(/mean_volume: (-?[\d.]+) dB/.exec(log)?.[1]);
    expect(mean).toBeGreaterThan(-40);
  });

  it('moves the picture over time, as a zoom into the same picture', () => {
    const early = frameAt(rendered.plain!, 0.1);
    const late = frameAt(rendered.plain!, 2.2);
    const raw = meanDifference(early, late);
    expect(raw).toBeGreaterThan(1.5);
    let best = { factor: 1, error: raw };
    for (let factor = 1.01; factor <= 1.2; factor += 0.01) {
      const error = meanDifference(magnify(early, factor), late, [20, SIZE - 20]);
      if (error < best.error) best = { factor, error };
    }
    // The later frame is the earlier one enlarged about the centre by roughly the zoom travelled.
    expect(best.factor).toBeGreaterThan(1.05);
    expect(best.factor).toBeLessThan(1.16);
    expect(best.error).toBeLessThan(raw * 0.5);
  });

  it('draws captions in the caption band and nowhere else', () => {
    const withText = frameAt(rendered.captioned!, 1.2);
    const without = frameAt(rendered.plain!, 1.2);
    const band = meanDifference(withText, without, [Math.round(SIZE * 0.5), Math.round(SIZE * 0.82)]);
    const sky = meanDifference(withText, without, [0, Math.round(SIZE * 0.3)]);
    expect(band).toBeGreaterThan(6);
    expect(sky).toBeLessThan(1.5);
  });

  it('reports progress that only goes up and ends at 100', () => {
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(progress[progress.length - 1]).toBe(100);
  });

  it('kills ffmpeg when the job is cancelled', async () => {
    const controller = new AbortController();
    let pid = 0;
    const running = assembleVideo(
      request('cancelled', { durationSeconds: 60, scenes: [{ imagePath: join(dir, 'scene-0.jpg'), start: 0, end: 60 }] }),
      {
        frameSize: { width: 720, height: 720 },
        signal: controller.signal,
        onSpawn: (spawned) => {
          pid = spawned;
          setTimeout(() => controller.abort(), 300);
        },
      },
    );
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  }, 30_000);
});

/** Per-frame MD5s of the pictures (ffmpeg's framemd5), in order. */
function frameHashes(video: string): string[] {
  const out = execFileSync(binaries.ffmpegPath, ['-v', 'error', '-i', video, '-map', '0:v', '-f', 'framemd5', '-'], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return out
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').pop()!.trim());
}

function videoFrameCount(video: string): number {
  return Number(
    execFileSync(
      binaries.ffprobePath ?? 'ffprobe',
      ['-v', 'error', '-count_packets', '-select_streams', 'v', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', video],
      { encoding: 'utf8' },
    ).trim(),
  );
}

describe('parts made ahead of the render (planRenderAhead)', () => {
  it('makes the soundtrack and a scene before all pictures are known; the render takes them as its own and draws the same frames', async () => {
    const cache = join(dir, 'ahead-segments');
    const made = request('ahead', { enableCaptions: true, segmentCacheDir: cache });
    // The second picture is not made yet: the plan names a placeholder for it.
    const ahead = await planRenderAhead(
      { ...made, scenes: made.scenes.map((scene, index) => (index === 0 ? scene : { ...scene, imagePath: '' })) },
      small,
    );
    await Promise.all([ahead.soundtrack(), ahead.scene(0, { imagePath: made.scenes[0]!.imagePath })]);
    expect(readdirSync(cache).filter((name) => name.endsWith('.mp4') || name.endsWith('.m4a')).length).toBe(2);
    const before = ffmpegProcessesStarted();
    const result = await assembleVideo(made, small);
    // Only the second scene is drawn now (plus the probe, the poster, the join and the final probe).
    expect(ffmpegProcessesStarted() - before).toBe(5);
    // Made for this render, so counted as its work, not as reused from an earlier version.
    expect(segmentsOf(result)).toEqual({ rendered: 2, reused: 0, soundtrackReused: false });
    const plain = await assembleVideo(request('ahead-plain', { enableCaptions: true }), { ...small, segmented: false });
    for (const seconds of [1.2, 3.7])
      expect(meanDifference(frameAt(plain.videoPath, seconds), frameAt(result.videoPath, seconds))).toBeLessThan(2);
  }, 90_000);
});

describe('scene segments (segmentCacheDir)', () => {
  const cache = join(dir, 'segments');
  const segmented = (name: string, overrides: Partial<AssemblyRequest> = {}) =>
    assembleVideo(request(name, { enableCaptions: true, segmentCacheDir: cache, ...overrides }), small);
  const secondSceneWords = words.map((w) => (w.start >= 2.5 ? { ...w, word: `${w.word}s` } : w));
  let v1: Awaited<ReturnType<typeof assembleVideo>>;

  beforeAll(async () => {
    v1 = await segmented('seg-v1');
  }, 90_000);

  it('renders every scene once, joins them to whole frames at 30 fps, and keeps the narration', () => {
    expect(segmentsOf(v1)).toEqual({ rendered: 2, reused: 0, soundtrackReused: false });
    expect(videoFrameCount(v1.videoPath)).toBe(150);
    const info = probe(v1.videoPath);
    expect(info.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    expect(Math.abs(Number(info.format.duration) - 5)).toBeLessThan(0.1);
  });

  it('reuses everything when nothing changed, and the frames are the same', async () => {
    const again = await segmented('seg-same');
    expect(segmentsOf(again)).toEqual({ rendered: 0, reused: 2, soundtrackReused: true });
    expect(frameHashes(again.videoPath)).toEqual(frameHashes(v1.videoPath));
  }, 60_000);

  it("re-renders only the scene whose narration changed; the other scene's frames are identical", async () => {
    const v2 = await segmented('seg-words', { words: secondSceneWords });
    expect(segmentsOf(v2)).toEqual({ rendered: 1, reused: 1, soundtrackReused: true });
    const [before, after] = [frameHashes(v1.videoPath), frameHashes(v2.videoPath)];
    expect(after.length).toBe(150);
    expect(after.slice(0, 75)).toEqual(before.slice(0, 75));
    expect(after.slice(75)).not.toEqual(before.slice(75));
  }, 60_000);

  it("keeps the scene before a cut when the next scene's first line, starting on the cut's frame, changes", async () => {
    // The cut falls between centiseconds (frame 76, 2.5333 s) and the second scene's first word starts
    // on it, so its caption line starts at 2.53 s: before the cut, but after the first scene's last frame.
    const cut = 76 / 30;
    const scenes = [
      { imagePath: join(dir, 'scene-0.jpg'), start: 0, end: cut },
      { imagePath: join(dir, 'scene-1.jpg'), start: cut, end: 5 },
    ];
    const shift = cut - words[6]!.start;
    const onTheCut = words.map((w, i) => (i >= 6 ? { ...w, start: w.start + shift, end: w.end + shift } : w));
    const before = await segmented('seg-cut-v1', { scenes, words: onTheCut });
    const edited = await segmented('seg-cut-v2', {
      scenes,
      words: onTheCut.map((w, i) => (i >= 6 ? { ...w, word: `${w.word}s` } : w)),
    });
    expect(segmentsOf(edited)).toEqual({ rendered: 1, reused: 1, soundtrackReused: true });
    const [a, b] = [frameHashes(before.videoPath), frameHashes(edited.videoPath)];
    expect(b.slice(0, 76)).toEqual(a.slice(0, 76));
    expect(b.slice(76)).not.toEqual(a.slice(76));
  }, 90_000);

  it('keeps a captioned scene that moves later by a whole step (0.1 s) behind a longer one before it: its frames are the same', async () => {
    const shift = 0.1;
    const moved = await segmented('seg-moved', {
      scenes: [
        { imagePath: join(dir, 'scene-0.jpg'), start: 0, end: 2.5 + shift },
        { imagePath: join(dir, 'scene-1.jpg'), start: 2.5 + shift, end: 5 + shift },
      ],
      words: words.map((w) => (w.start >= 2.5 ? { ...w, start: w.start + shift, end: w.end + shift } : w)),
      durationSeconds: 5 + shift,
    });
    expect(segmentsOf(moved)).toMatchObject({ rendered: 1, reused: 1 });
    const [before, after] = [frameHashes(v1.videoPath), frameHashes(moved.videoPath)];
    expect(after.slice(78)).toEqual(before.slice(75));
  }, 60_000);

  it('re-renders every segment for a new caption style or zoom, and only the soundtrack for new audio alone', async () => {
    expect(segmentsOf(await segmented('seg-style', { captionStyle: 'youtube' }))).toEqual({
      rendered: 2,
      reused: 0,
      soundtrackReused: true,
    });
    expect(segmentsOf(await segmented('seg-zoom', { zoomDirection: 'out' }))).toEqual({ rendered: 2, reused: 0, soundtrackReused: true });
    const louder = join(dir, 'voice-louder.wav');
    execFileSync(binaries.ffmpegPath, ['-v', 'error', '-y', '-i', join(dir, 'voice.wav'), '-af', 'volume=2', louder]);
    const loud = await segmented('seg-audio', { audioPath: louder });
    expect(segmentsOf(loud)).toEqual({ rendered: 0, reused: 2, soundtrackReused: false });
    // The join copies the new soundtrack in: the video is louder, its pictures the same.
    expect(meanVolume(loud.videoPath)).toBeGreaterThan(meanVolume(v1.videoPath) + 4);
    expect(frameHashes(loud.videoPath)).toEqual(frameHashes(v1.videoPath));
  }, 120_000);

  it('joins without re-encoding: the soundtrack and the segments are copied into the video as they are', async () => {
    const packets = (file: string, stream: 'a' | 'v') =>
      execFileSync(binaries.ffmpegPath, ['-v', 'error', '-i', file, '-map', `0:${stream}`, '-c', 'copy', '-f', 'framemd5', '-'], {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      })
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => line.split(',').pop()!.trim());
    const copied = (await segmented('seg-copy')).videoPath;
    const own = readdirSync(cache)
      .filter((name) => name.startsWith('soundtrack-'))
      .map((name) => packets(join(cache, name), 'a'));
    expect(own.length).toBeGreaterThan(0);
    expect(own).toContainEqual(packets(copied, 'a'));
  }, 60_000);

  it('shows what the single pass shows (same zoom, same captions)', async () => {
    const single = await assembleVideo(request('seg-single', { enableCaptions: true }), { ...small, segmented: false });
    for (const seconds of [1.2, 2.45, 3.7])
      expect(meanDifference(frameAt(single.videoPath, seconds), frameAt(v1.videoPath, seconds))).toBeLessThan(2);
  }, 60_000);
});

/** Mean volume (dB) of a file's audio. */
function meanVolume(file: string): number {
  const log = execFileSync('sh', ['-c', `"${binaries.ffmpegPath}" -hide_banner -i "${file}" -vn -af volumedetect -f null - 2>&1`], {
    encoding: 'utf8',
  });
  return Number(/mean_volume: (-?[\d.]+) dB/.exec(log)?.[1]);
}

/** RMS level (dB) above 1.5 kHz (the music's tone; the 200 Hz voice is filtered out) between two times. */
function bandLevel(video: string, from: number, to: number): number {
  const log = execFileSync(
    'sh',
    [
      '-c',
      `"${binaries.ffmpegPath}" -hide_banner -ss ${from} -t ${to - from} -i "${video}" -vn -af highpass=f=1500,highpass=f=1500,highpass=f=1500,astats=measure_perchannel=none -f null - 2>&1`,
    ],
    { encoding: 'utf8' },
  );
  return Number(/RMS level dB: (-?[\d.]+|-inf)/.exec(log)?.[1]);
}

describe('stock video clips', () => {
  const clip = join(dir, 'clip.mp4');
  /** The clip's frame at `seconds`, as the assembly shows it: 30 fps, covering the square frame. */
  const clipFrameAt = (seconds: number) =>
    greyFrame(clip, [
      '-vf',
      `fps=30,scale=${SIZE}:${SIZE}:force_original_aspect_ratio=increase:flags=lanczos,crop=${SIZE}:${SIZE},trim=start_frame=${Math.round(seconds * 30)}`,
    ]);
  const withClip = (name: string, overrides: Partial<AssemblyRequest> = {}) =>
    request(name, {
      scenes: [
        { imagePath: join(dir, 'scene-0.jpg'), start: 0, end: 2.5 },
        { imagePath: join(dir, 'scene-1.jpg'), videoPath: clip, start: 2.5, end: 5 },
      ],
      ...overrides,
    });

  beforeAll(() => {
    // 1.5 s of moving test pattern at 25 fps in 4:3: shorter than its 2.5 s scene, another rate, another shape.
    generated('testsrc2=size=320x240:rate=25:duration=1.5', ['-pix_fmt', 'yuv420p', clip]);
  });

  it.each([
    ['in one pass', {}],
    ['in segments', { segmentCacheDir: join(dir, 'clip-segments') }],
  ])(
    'plays the clip in its scene %s: resampled, scaled to cover, looped, with no zoom over it',
    async (name, extra) => {
      const video = (await assembleVideo(withClip(`clip-${name.replace(/ /g, '-')}`, extra), small)).videoPath;
      expect(videoFrameCount(video)).toBe(150);
      // 3.0 s is 0.5 s into the clip; 4.3 s is 1.8 s in, so 0.3 s into its second loop.
      for (const [at, clipAt] of [
        [3.0, 0.5],
        [4.3, 0.3],
      ] as const) {
        const shown = frameAt(video, at);
        expect(meanDifference(shown, clipFrameAt(clipAt)), `at ${at} s`).toBeLessThan(6);
        // A zoom would have magnified it: the unzoomed clip frame is far closer than a magnified one.
        expect(meanDifference(shown, magnify(clipFrameAt(clipAt), 1.06))).toBeGreaterThan(meanDifference(shown, clipFrameAt(clipAt)) * 2);
      }
      // The still scene before it still has its Ken Burns motion.
      expect(meanDifference(frameAt(video, 0.2), frameAt(video, 2.2))).toBeGreaterThan(1);
    },
    90_000,
  );
});

/**
 * The system's ffmpeg and the static 4.1 build npm installs: the soundtrack's graph must run on both
 * (an option only newer builds know once broke every default render on machines without the system's).
 */
const bundledFfmpeg = resolveFfmpegBinaries({}, { PATH: '' });
const mixBinaries = [
  ['the system ffmpeg', binaries],
  ...(bundledFfmpeg.ffmpegSource === 'bundled' && binaries.ffmpegSource !== 'bundled'
    ? [['the bundled ffmpeg 4.1', bundledFfmpeg] as const]
    : []),
] as const;

describe.each(mixBinaries)('background music with %s', (_name, mixWith) => {
  it('mixes the music under the narration, ducked while speech plays and back up in the pause, fading out at the end', async () => {
    const speech = join(dir, 'speech-then-pause.wav');
    const music = join(dir, 'music.wav');
    // Narration: 2.5 s of a 200 Hz voice, then silence; music: a 2 kHz tone, shorter than the video (it loops).
    generated("aevalsrc='if(lt(t,2.5),0.6*sin(2*PI*200*t),0)':d=4.6", ['-ac', '1', speech], ['-y']);
    generated('sine=frequency=2000:duration=1.5', ['-ac', '1', music], ['-y']);
    // The duck follows the word timings: the words end with the speech.
    const spoken = words.slice(0, 5);
    const result = await assembleVideo(
      request(`music-${mixWith.ffmpegSource}`, {
        audioPath: speech,
        words: spoken,
        enableZoom: false,
        music: { path: music, volumePercent: 60 },
      }),
      { ...small, binaries: mixWith },
    );
    const underSpeech = bandLevel(result.videoPath, 1.2, 2.3);
    // Between the last word's release and the fade-out, which starts 2 s before the end.
    const inPause = bandLevel(result.videoPath, 2.65, 3.0);
    expect(inPause).toBeGreaterThan(-45);
    expect(inPause - underSpeech).toBeGreaterThan(6);
    // Faded out: the last 0.2 s are much quieter than the pause.
    expect(bandLevel(result.videoPath, 4.8, 5)).toBeLessThan(inPause - 6);
    const quieter = await assembleVideo(
      request(`music-quiet-${mixWith.ffmpegSource}`, {
        audioPath: speech,
        words: spoken,
        enableZoom: false,
        music: { path: music, volumePercent: 15 },
      }),
      { ...small, binaries: mixWith },
    );
    expect(bandLevel(quieter.videoPath, 2.65, 3.0)).toBeLessThan(inPause - 6);
  }, 90_000);
});

/** A test input ffmpeg generates (lavfi `source`), written by `output` (its options and path). */
function generated(source: string, output: string[], before: string[] = []): void {
  execFileSync(binaries.ffmpegPath, ['-v', 'error', ...before, '-f', 'lavfi', '-i', source, ...output]);
}

/** Grey pixels of frame `index` (counted from 0), decoded in order so it is exactly that frame. */
function frameNumber(video: string, index: number, ffmpegPath = binaries.ffmpegPath): Uint8Array {
  return greyFrame(video, ['-vf', `select=eq(n\\,${index})`, '-vsync', '0'], ffmpegPath);
}

/** The first frame ffmpeg gives of `video` through `filters` (the arguments after the input), as grey pixels. */
function greyFrame(video: string, filters: string[], ffmpegPath = binaries.ffmpegPath): Uint8Array {
  return execFileSync(ffmpegPath, ['-v', 'error', '-i', video, ...filters, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
    maxBuffer: 1 << 24,
  });
}

describe.each(mixBinaries)('a word spoken across the scene cut, with %s', (_name, renderWith) => {
  // The cut is at 2.5 s (frame 75). "lighthouse where the" is on screen from 1.56 s, and "the" starts
  // at 2.40 s: its caption is cleared at the cut, and the next line comes with "keeper" at 2.82 s.
  const straddling = words.map((w) => ({ ...w, start: w.start + 0.2, end: w.end + 0.2 }));
  const beforeCut = [70, 74];
  const clearedAfterCut = [75, 76, 79, 83];
  const nextLine = [86, 90];
  /** The caption band of a 1:1 frame: lower-centre captions sit above its bottom 20%. */
  const band: [number, number] = [140, 300];
  let plain: string;

  beforeAll(async () => {
    plain = (
      await assembleVideo(request(`cut-plain-${renderWith.ffmpegSource}`, { words: straddling }), {
        ...small,
        binaries: renderWith,
        segmented: false,
      })
    ).videoPath;
  }, 60_000);

  it.each(['tiktok', 'word-pop'] as const)(
    '%s: the caption stays with its scene, in one pass and in segments alike',
    async (captionStyle) => {
      const name = `cut-${captionStyle}-${renderWith.ffmpegSource}`;
      const options = { ...small, binaries: renderWith };
      const single = await assembleVideo(request(`${name}-single`, { words: straddling, enableCaptions: true, captionStyle }), {
        ...options,
        segmented: false,
      });
      const split = await assembleVideo(
        request(`${name}-split`, { words: straddling, enableCaptions: true, captionStyle, segmentCacheDir: join(dir, `${name}-cache`) }),
        options,
      );
      expect(split.renderStats.segmentsRendered).toBe(2);
      const shown = (video: string, index: number) => meanDifference(frameNumber(video, index), frameNumber(plain, index), band);
      for (const index of [...beforeCut, ...nextLine]) {
        // A caption is on screen there (it differs from the same frame without captions)...
        expect(shown(single.videoPath, index)).toBeGreaterThan(6);
        // ...and the segmented render draws it the same: what differs is the encoder's noise (about
        // 0.9 above the band too; the segment starts a new GOP at the cut).
        expect(meanDifference(frameNumber(single.videoPath, index), frameNumber(split.videoPath, index), band)).toBeLessThan(1.6);
      }
      // The picture changed and the line before it went with it; nothing is drawn until the next word.
      for (const index of clearedAfterCut) {
        expect(shown(single.videoPath, index)).toBeLessThan(1.6);
        expect(shown(split.videoPath, index)).toBeLessThan(1.6);
      }
    },
    120_000,
  );
});

describe('narration fitting', () => {
  const scenes = [
    { imagePath: 'a', start: 0, end: 20 },
    { imagePath: 'b', start: 20, end: 34 },
  ];

  it('speeds long narration up to 15% and trims the rest at a word boundary', () => {
    const long = Array.from({ length: 80 }, (_, i) => ({ word: `w${i}`, start: i * 0.5, end: i * 0.5 + 0.4 }));
    const fit = fitNarration(40, 30, long, scenes);
    expect(fit.tempo).toBeCloseTo(1.15);
    expect(fit.cutAt).not.toBeNull();
    expect(fit.cutAt!).toBeLessThanOrEqual(30);
    expect(fit.words[fit.words.length - 1]!.end).toBeLessThanOrEqual(fit.cutAt!);
  });

  it('leaves narration that fits untouched and gives every scene whole frames', () => {
    const fit = fitNarration(28, 30, words, scenes);
    expect(fit).toMatchObject({ tempo: 1, cutAt: null });
    const counts = sceneFrameCounts(fit.scenes, 30);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(900);
    expect(counts[0]).toBe(600);
  });
});
