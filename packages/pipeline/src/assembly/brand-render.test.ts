import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyRequest, RenderBrand } from '../providers/types.js';
import { assembleVideo } from './assemble-video.js';
import { captionBandTop } from './caption-presets.js';
import { defaultFfmpegBinaries } from './ffmpeg-binary.js';
import { inkBox, type InkBox } from './frame-test-ink.js';

/**
 * The brand kit in a real render (scene segments, captions on): the logo in its corner in every
 * frame and never over the captions; the end card a closing card of its own after the last word
 * (no captions on it, the music still playing), the video still the length asked for.
 */
const W = 216;
const H = 384;
const FPS = 30;
const SECONDS = 4;
const CARD_SECONDS = 1.5;
/** The story's part of the video: the closing card follows it. */
const STORY_SECONDS = SECONDS - CARD_SECONDS;
const dir = mkdtempSync(join(tmpdir(), 'brand-render-'));
const binaries = defaultFfmpegBinaries();
const ACCENT = '#00C8FF';
const words = 'Seven brave keepers waited there for dawn'
  .split(' ')
  .map((word, i) => ({ word, start: 0.05 + i * 0.33, end: 0.05 + i * 0.33 + 0.3 }));

beforeAll(() => {
  const ff = (args: string[]) => execFileSync(binaries.ffmpegPath, ['-v', 'error', '-y', ...args]);
  ff(['-f', 'lavfi', '-i', 'color=c=0x404850:s=320x568', '-frames:v', '1', join(dir, 'scene-0.png')]);
  ff(['-f', 'lavfi', '-i', 'color=c=0x504840:s=320x568', '-frames:v', '1', join(dir, 'scene-1.png')]);
  // The narration as the runner lays it out: as long as the story, the card after it.
  ff(['-f', 'lavfi', '-i', `sine=frequency=300:duration=${STORY_SECONDS}`, '-ac', '1', join(dir, 'voice.wav')]);
  ff(['-f', 'lavfi', '-i', 'sine=frequency=900:duration=10', '-ac', '2', join(dir, 'music.wav')]);
  // A magenta square on a transparent margin: the logo.
  ff([
    '-f',
    'lavfi',
    '-i',
    'color=c=0xFF00FF@1:s=48x48,format=rgba,pad=64:64:8:8:color=0x00000000',
    '-frames:v',
    '1',
    join(dir, 'logo.png'),
  ]);
});
afterAll(() => {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
});

function brandRequest(name: string, brand: RenderBrand): AssemblyRequest {
  return {
    scenes: [
      { imagePath: join(dir, 'scene-0.png'), start: 0, end: 1.5 },
      { imagePath: join(dir, 'scene-1.png'), start: 1.5, end: STORY_SECONDS },
    ],
    audioPath: join(dir, 'voice.wav'),
    words,
    resolution: '9:16',
    durationSeconds: SECONDS,
    enableZoom: false,
    zoomDirection: 'in',
    enableCaptions: true,
    captionStyle: 'word-pop',
    language: 'en',
    outputPath: join(dir, `${name}.mp4`),
    posterPath: join(dir, `${name}.jpg`),
    workDir: join(dir, `${name}-work`),
    music: { path: join(dir, 'music.wav'), volumePercent: 30 },
    brand,
  };
}

function frames(video: string): Uint8Array[] {
  const raw = execFileSync(binaries.ffmpegPath, ['-v', 'error', '-i', video, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: 1 << 28,
  });
  const size = W * H * 3;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, i) => raw.subarray(i * size, (i + 1) * size));
}

const box = (frame: Uint8Array, match: (r: number, g: number, b: number) => boolean, rows: [number, number] = [0, H]): InkBox =>
  inkBox(frame, W, rows, match);
/** Mean of the red, green and blue of a patch (the frame's left edge, clear of logo, card and captions). */
function patchLevel(frame: Uint8Array): number {
  let sum = 0;
  let count = 0;
  for (let y = Math.round(H * 0.3); y < Math.round(H * 0.4); y++) {
    for (let x = 2; x < 14; x++) {
      const i = (y * W + x) * 3;
      sum += frame[i]! + frame[i + 1]! + frame[i + 2]!;
      count += 3;
    }
  }
  return sum / count;
}

/** RMS level (dB) of the video's soundtrack between two moments. */
function audioLevelDb(video: string, from: number, to: number): number {
  const { stderr } = spawnSync(
    binaries.ffmpegPath,
    ['-v', 'info', '-i', video, '-af', `atrim=${from}:${to},astats=measure_overall=RMS_level:measure_perchannel=0`, '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  const match = /RMS level dB: (-?[\d.]+|-inf)/.exec(stderr);
  return match && match[1] !== '-inf' ? Number(match[1]) : -Infinity;
}

const magenta = (r: number, g: number, b: number) => r > 150 && b > 150 && g < 90;
const accent = (r: number, g: number, b: number) => r < 60 && g > 160 && b > 200;
const white = (r: number, g: number, b: number) => r > 220 && g > 220 && b > 220;
const overlaps = (a: InkBox, b: InkBox) =>
  a.count > 0 && b.count > 0 && a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;

describe('brand kit in the render', () => {
  it.each([
    ['top-right', true],
    ['bottom-left', true],
    ['bottom-right', false],
  ] as const)(
    '%s (segments: %s): the logo in its corner on every frame, the end card its own closing card after the last word, neither over the captions',
    async (position, segmented) => {
      const request = brandRequest(`${position}-${segmented}`, {
        accentColor: ACCENT,
        fontId: 'noto-sans',
        logo: { path: join(dir, 'logo.png'), position, scale: 0.2, opacity: 1 },
        endCard: { text: '@keepers', seconds: CARD_SECONDS },
      });
      const result = await assembleVideo(request, { frameSize: { width: W, height: H }, segmented });
      // Two scenes and the closing card.
      if (segmented) expect(result.renderStats.segmentsRendered).toBe(3);
      // The length asked for, the card included.
      expect(Math.abs(result.durationSeconds - SECONDS)).toBeLessThan(0.05);
      const all = frames(result.videoPath);
      expect(all.length).toBe(SECONDS * FPS);
      const bandTop = captionBandTop('word-pop', W, H);
      const cardFrom = STORY_SECONDS * FPS;
      // Every caption's word is spoken before the card.
      const lastWord = result.captionTrack!.words.at(-1)!;
      expect(lastWord.end).toBeLessThanOrEqual(STORY_SECONDS);
      expect(result.captionTrack!.words.map((word) => word.word)).toEqual(words.map((word) => word.word));
      let captionFrames = 0;
      for (const [index, frame] of all.entries()) {
        const logo = box(frame, magenta);
        expect(logo.count, `frame ${index}`).toBeGreaterThan(300);
        expect(logo.left < W / 2, `frame ${index}`).toBe(position.endsWith('left'));
        if (position.startsWith('top')) expect(logo.bottom, `frame ${index}`).toBeLessThan(H * 0.25);
        else expect(logo.bottom, `frame ${index}`).toBeGreaterThan(H * 0.4);
        expect(logo.bottom, `frame ${index}`).toBeLessThan(bandTop);
        // Clear of the 9:16 platform zones: below the header, above the description, off the button column.
        expect(logo.top).toBeGreaterThanOrEqual(Math.floor(H * 0.1) - 1);
        if (position === 'bottom-right') expect(logo.right).toBeLessThan(W * 0.85);
        // The caption's spoken word takes the accent too; the card is what is above the caption band.
        const card = box(frame, accent, [0, bandTop]);
        const caption = box(frame, white);
        if (index < cardFrom) {
          // The story: no card anywhere over its pictures.
          expect(card.count, `frame ${index}`).toBe(0);
        } else {
          // The closing card: the text box centred across the frame at 40% of its height, no captions,
          // the last picture dimmed behind it.
          if (index >= cardFrom + 7) {
            expect(card.count, `frame ${index}`).toBeGreaterThan(400);
            expect(Math.abs((card.top + card.bottom) / 2 - H * 0.4), `frame ${index}`).toBeLessThan(H * 0.05);
            expect(Math.abs((card.left + card.right) / 2 - W / 2), `frame ${index}`).toBeLessThan(W * 0.05);
          }
          expect(caption.count, `frame ${index}`).toBeLessThanOrEqual(20);
          expect(patchLevel(frame), `frame ${index}`).toBeLessThan(patchLevel(all[cardFrom - 1]!) - 8);
        }
        if (caption.count > 20) {
          captionFrames++;
          expect(caption.top, `frame ${index}`).toBeGreaterThanOrEqual(bandTop - 2);
          expect(overlaps(caption, logo), `frame ${index}`).toBe(false);
        }
      }
      expect(captionFrames).toBeGreaterThan(STORY_SECONDS * FPS * 0.6);
      // The music plays on under the card (the narration has ended: its 300 Hz tone stops at the card).
      expect(audioLevelDb(result.videoPath, STORY_SECONDS + 0.1, SECONDS - 0.6)).toBeGreaterThan(-45);
      // The poster shows the logo in its corner and the template's first caption with the spoken word in the accent.
      const poster = execFileSync(binaries.ffmpegPath, [
        '-v',
        'error',
        '-i',
        result.posterPath,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ]);
      const posterLogo = box(poster, magenta);
      expect(posterLogo.count).toBeGreaterThan(300);
      expect(posterLogo.left < W / 2).toBe(position.endsWith('left'));
      expect(box(poster, accent, [bandTop, H]).count).toBeGreaterThan(30);
      expect(box(poster, white, [bandTop, H]).count).toBeGreaterThan(30);
      // Once in, the card holds without fading again.
      const settled = box(all[cardFrom + 10]!, accent, [0, bandTop]);
      const last = box(all.at(-1)!, accent, [0, bandTop]);
      expect(Math.abs(last.count - settled.count)).toBeLessThan(settled.count * 0.1);
    },
    60_000,
  );
});
