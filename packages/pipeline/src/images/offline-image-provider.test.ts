import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { VISUAL_STYLES } from '@reelsmith/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../errors.js';
import { createRandom } from './offline-image-color.js';
import { createOfflineImageProvider, renderOfflineImage } from './offline-image-provider.js';
import { planScene } from './offline-image-plan.js';

const dir = mkdtempSync(join(tmpdir(), 'offline-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const prompt = 'Lone figure walking toward a distant lighthouse on the coast at night';

/** Decoded pixels, optionally averaged down to a thumbnail so grain does not count as content. */
async function pixels(
  bytes: Buffer,
  thumbnail?: { width: number; height: number },
): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(bytes);
  const width = thumbnail?.width ?? image.width;
  const height = thumbnail?.height ?? image.height;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, 0, 0, width, height);
  return { width: image.width, height: image.height, data: ctx.getImageData(0, 0, width, height).data };
}

function lumaStats(data: Uint8ClampedArray): { mean: number; deviation: number } {
  let sum = 0;
  let squares = 0;
  const n = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    const y = 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
    sum += y;
    squares += y * y;
  }
  const mean = sum / n;
  return { mean, deviation: Math.sqrt(squares / n - mean * mean) };
}

describe('offline image provider', () => {
  it('reports itself healthy with details', async () => {
    const health = await createOfflineImageProvider().health();
    expect(health).toMatchObject({ name: 'offline', status: 'healthy' });
    expect(health.details).toMatch(/6 visual styles/);
  });

  it('writes a JPEG of the requested size at the output path', async () => {
    const outputPath = join(dir, 'nested', 'scene-0.jpg');
    const result = await createOfflineImageProvider().generateImage({
      prompt,
      visualStyle: 'cinematic',
      width: 360,
      height: 640,
      sceneIndex: 0,
      outputPath,
    });
    expect(result.imagePath).toBe(outputPath);
    const bytes = readFileSync(outputPath);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const decoded = await pixels(bytes);
    expect([decoded.width, decoded.height]).toEqual([360, 640]);
    const landscape = await pixels(await renderOfflineImage({ prompt, visualStyle: 'cinematic', width: 640, height: 360, sceneIndex: 0 }));
    expect([landscape.width, landscape.height]).toEqual([640, 360]);
  });

  it('draws the same bytes for the same prompt and scene', async () => {
    const request = { prompt, visualStyle: 'artistic painting' as const, width: 270, height: 480, sceneIndex: 3 };
    const first = await renderOfflineImage(request);
    const second = await renderOfflineImage(request);
    expect(first.equals(second)).toBe(true);
  });

  it('draws a different picture for each scene of the same prompt', async () => {
    const thumbnail = { width: 27, height: 48 };
    const a = await pixels(
      await renderOfflineImage({ prompt, visualStyle: 'cinematic', width: 270, height: 480, sceneIndex: 0 }),
      thumbnail,
    );
    const b = await pixels(
      await renderOfflineImage({ prompt, visualStyle: 'cinematic', width: 270, height: 480, sceneIndex: 1 }),
      thumbnail,
    );
    let changed = 0;
    for (let i = 0; i < a.data.length; i += 4) {
      const difference =
        Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!);
      if (difference > 18) changed++;
    }
    // Another sky, ridgeline and light: a good part of the frame changes, grain averaged away.
    expect(changed / (a.data.length / 4)).toBeGreaterThan(0.1);
  });

  it.each(VISUAL_STYLES)('renders a detailed picture in the %s style', async (visualStyle) => {
    const bytes = await renderOfflineImage({
      prompt: 'Panoramic landscape of the mountains',
      visualStyle,
      width: 270,
      height: 480,
      sceneIndex: 2,
    });
    const { mean, deviation } = lumaStats((await pixels(bytes)).data);
    // Neither a blank frame nor a flat fill: there is a picture with light and shade.
    expect(mean).toBeGreaterThan(12);
    expect(mean).toBeLessThan(235);
    expect(deviation).toBeGreaterThan(10);
  });

  it('keeps horror darker and colder than bright colorful for the same prompt', async () => {
    const request = { prompt: 'Quiet village in the hills', width: 270, height: 480, sceneIndex: 1 };
    const horror = lumaStats((await pixels(await renderOfflineImage({ ...request, visualStyle: 'dark horror' }))).data);
    const bright = lumaStats((await pixels(await renderOfflineImage({ ...request, visualStyle: 'bright colorful' }))).data);
    expect(horror.mean).toBeLessThan(bright.mean - 30);
  });

  it('draws a 1080x1920 picture in well under a second', async () => {
    for (const visualStyle of ['artistic painting', 'cinematic'] as const) {
      const started = performance.now();
      await renderOfflineImage({ prompt, visualStyle, width: 1080, height: 1920, sceneIndex: 0 });
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });

  // CPU time of this process (tests run one file per process), which other work on a shared machine
  // barely inflates; the budget is 150 ms a picture, the limit leaves room for a slower or busier one.
  it('stops before drawing when the job is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createOfflineImageProvider().generateImage(
        { prompt, visualStyle: 'cinematic', width: 64, height: 64, sceneIndex: 0, outputPath: join(dir, 'x.jpg') },
        controller.signal,
      ),
    ).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('offline scene plan', () => {
  const plan = (text: string, style: (typeof VISUAL_STYLES)[number] = 'cinematic') => planScene(text, style, createRandom(7));

  it('picks the landscape from the prompt', () => {
    expect(plan('Old lighthouse above the stormy sea').terrain).toBe('sea');
    expect(plan('Crowded city square with tall buildings').terrain).toBe('city');
    expect(plan('Path through a dark pine forest').terrain).toBe('forest');
    expect(plan('Snow on the mountain peaks').terrain).toBe('mountains');
    expect(plan('Camel caravan crossing the desert dunes').terrain).toBe('desert');
    expect(plan('Old lighthouse above the stormy sea').focal).toBe('lighthouse');
  });

  it('lets the visual style overrule the time of day', () => {
    expect(plan('A bright sunny day in the hills', 'dark horror').time).not.toMatch(/^(day|golden|dawn)$/);
    expect(plan('Thunder and rain over the hills', 'bright colorful').time).not.toBe('storm');
    expect(plan('The moon over the hills at midnight', 'realistic photography').time).toBe('night');
  });
});
