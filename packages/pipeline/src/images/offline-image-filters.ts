import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { createRandom, type Random } from './offline-image-color.js';
import type { Ctx } from './offline-image-paint-context.js';
import { HORIZON_RANGE } from './offline-image-plan.js';

/**
 * Blur by downscaling and drawing back with smoothing: far cheaper than a per-pixel blur. The way
 * back up goes through a canvas a quarter the size: a smooth resize to it keeps small lights round,
 * and the final, plain bilinear resize costs half what a smooth one of the full frame does.
 */
export function blurCanvas(c: Ctx, factor: number): void {
  const { ctx, width, height } = c;
  const small = createCanvas(Math.max(1, Math.round(width / factor)), Math.max(1, Math.round(height / factor)));
  const smallCtx = small.getContext('2d');
  smallCtx.imageSmoothingQuality = 'high';
  smallCtx.drawImage(ctx.canvas, 0, 0, small.width, small.height);
  const middle = createCanvas(Math.max(1, Math.round(width / 4)), Math.max(1, Math.round(height / 4)));
  const middleCtx = middle.getContext('2d');
  middleCtx.imageSmoothingQuality = 'high';
  middleCtx.drawImage(small, 0, 0, middle.width, middle.height);
  ctx.save();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(middle, 0, 0, width, height);
  ctx.restore();
}

/**
 * Where the brush strokes of a picture lie: for each pixel the stroke on top and the one under it
 * (0 for none, else its number + 1) and how much of each covers the pixel (0-255, the stroke's
 * opacity and its soft edge), and for each stroke its centre, where its colour is read, and its
 * colour jitter. One map with the sky's near-level strokes and one with the land's slanted ones.
 */
interface StrokeMap {
  top: Uint16Array;
  cover: Uint8Array;
  under: Uint16Array;
  underCover: Uint8Array;
  /** Per stroke: centre x, centre y, red/green jitter, blue jitter. */
  strokes: Float32Array;
}

interface StrokeMaps {
  width: number;
  height: number;
  sky: StrokeMap;
  land: StrokeMap;
}

/** The maps depend only on the picture's size: laid for the first picture of a size (about 24 MB at 1080x1920, the last size kept), not for every picture. */
let strokeMapsCache: StrokeMaps | null = null;

/**
 * Rasterises the strokes in JavaScript, between rows `from` and `to`: each stroke is a slightly
 * bent band, round at the ends. Drawing 15,000 strokes through the canvas cost a third of a second
 * per picture; blending this map is a single pass over the pixels.
 */
function layStrokes(
  width: number,
  height: number,
  from: number,
  to: number,
  unit: number,
  slant: [number, number],
  random: Random,
): StrokeMap {
  const length = 30 * unit;
  const thickness = 10 * unit;
  const rows = Math.max(0, to - from);
  const count = Math.min(65534, Math.round((width * rows) / (length * thickness * 0.45)));
  const top = new Uint16Array(width * height);
  const cover = new Uint8Array(width * height);
  const under = new Uint16Array(width * height);
  const underCover = new Uint8Array(width * height);
  const strokes = new Float32Array(count * 4);
  for (let s = 0; s < count; s++) {
    const x = random.next() * width;
    const y = from + random.next() * rows;
    const angle = random.range(slant[0], slant[1]);
    const half = (length * random.range(0.5, 1.2)) / 2;
    const radius = (thickness * random.range(0.5, 1.2)) / 2;
    const alpha = 255 * random.range(0.55, 0.85);
    const bend = half * 0.15 * (random.next() < 0.5 ? -1 : 1);
    strokes[s * 4] = x;
    strokes[s * 4 + 1] = y;
    strokes[s * 4 + 2] = random.range(0.9, 1.1);
    strokes[s * 4 + 3] = random.range(0.92, 1.08);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    // The band's bounding box: its length along the angle, its width (and bend) across it.
    const across = radius + Math.abs(bend) + 1;
    const reachX = (half + radius) * Math.abs(cos) + across * Math.abs(sin) + 1;
    const reachY = (half + radius) * Math.abs(sin) + across * Math.abs(cos) + 1;
    const x0 = Math.max(0, Math.floor(x - reachX));
    const x1 = Math.min(width - 1, Math.ceil(x + reachX));
    const y0 = Math.max(0, Math.floor(y - reachY));
    const y1 = Math.min(height - 1, Math.ceil(y + reachY));
    const inverseHalf = 1 / half;
    for (let py = y0; py <= y1; py++) {
      const ry = py + 0.5 - y;
      // The row's span: where it is within the band's length (angles stay well short of upright) and width.
      let left = (-(half + radius) - ry * sin) / cos;
      let right = (half + radius - ry * sin) / cos;
      if (sin > 1e-3 || sin < -1e-3) {
        const a = (ry * cos - across) / sin;
        const b = (ry * cos + across) / sin;
        left = Math.max(left, Math.min(a, b));
        right = Math.min(right, Math.max(a, b));
      }
      const start = Math.max(x0, Math.floor(x + left - 0.5));
      const stop = Math.min(x1, Math.ceil(x + right - 0.5));
      for (let px = start; px <= stop; px++) {
        const rx = px + 0.5 - x;
        const along = rx * cos + ry * sin;
        const beyond = (along < 0 ? -along : along) - half;
        if (beyond > radius) continue;
        const t = beyond > 0 ? 1 : along * inverseHalf;
        const off = -rx * sin + ry * cos - bend * (1 - t * t);
        const distance = beyond > 0 ? Math.sqrt(beyond * beyond + off * off) : off < 0 ? -off : off;
        const edge = radius - distance + 0.5;
        if (edge <= 0) continue;
        const i = py * width + px;
        const previous = top[i]!;
        if (previous !== 0) {
          if (edge < 0.5) continue;
          under[i] = previous;
          underCover[i] = cover[i]!;
        }
        top[i] = s + 1;
        cover[i] = edge < 1 ? alpha * edge : alpha;
      }
    }
  }
  return { top, cover, under, underCover, strokes };
}

function strokeMaps(width: number, height: number): StrokeMaps {
  if (strokeMapsCache && strokeMapsCache.width === width && strokeMapsCache.height === height) return strokeMapsCache;
  const unit = Math.min(width, height) / 1080;
  // A fixed seed: the same size always gets the same brushwork, so a re-run gives the same bytes.
  const random = createRandom(0x5eed);
  // Each map only where its half of the picture can be: the sky down to the lowest horizon, the land from the highest.
  const margin = Math.ceil(20 * unit);
  const skyEnd = Math.min(height, Math.ceil(HORIZON_RANGE[1] * height) + margin);
  const landStart = Math.max(0, Math.floor(HORIZON_RANGE[0] * height) - margin);
  strokeMapsCache = {
    width,
    height,
    sky: layStrokes(width, height, 0, skyEnd, unit, [-0.25, 0.25], random),
    land: layStrokes(width, height, landStart, height, unit, [-0.55, 0.85], random),
  };
  return strokeMapsCache;
}

/** Each stroke's colour: the picture's colour at its centre, jittered, as r,g,b triples. */
function strokeColours(map: StrokeMap, pixels: Uint8ClampedArray, width: number, height: number): Int32Array {
  const count = map.strokes.length / 4;
  const colours = new Int32Array((count + 1) * 3);
  for (let s = 0; s < count; s++) {
    const x = Math.min(width - 1, Math.floor(map.strokes[s * 4]!));
    const y = Math.min(height - 1, Math.floor(map.strokes[s * 4 + 1]!));
    const offset = (y * width + x) * 4;
    const jitter = map.strokes[s * 4 + 2]!;
    colours[(s + 1) * 3] = Math.min(255, Math.round(pixels[offset]! * jitter));
    colours[(s + 1) * 3 + 1] = Math.min(255, Math.round(pixels[offset + 1]! * jitter));
    colours[(s + 1) * 3 + 2] = Math.min(255, Math.round(pixels[offset + 2]! * map.strokes[s * 4 + 3]!));
  }
  return colours;
}

/** Oil-paint look: short strokes in the colour sampled under them, level in the sky, slanted on the land. */
export function paintBrushStrokes(c: Ctx): void {
  const { ctx, width, height, plan } = c;
  const maps = strokeMaps(width, height);
  const image = ctx.getImageData(0, 0, width, height);
  const data = image.data;
  const skyColours = strokeColours(maps.sky, data, width, height);
  const landColours = strokeColours(maps.land, data, width, height);
  const horizonRow = Math.round(plan.horizon * height);
  // Whole-number blending (cover is 0-255): this loop runs over every pixel of the frame.
  for (let y = 0; y < height; y++) {
    const { top, cover, under, underCover } = y < horizonRow ? maps.sky : maps.land;
    const colours = y < horizonRow ? skyColours : landColours;
    for (let i = y * width, end = i + width; i < end; i++) {
      const stroke = top[i]!;
      if (stroke === 0) continue;
      const o = i * 4;
      let r = data[o]!;
      let g = data[o + 1]!;
      let b = data[o + 2]!;
      const below = under[i]!;
      if (below !== 0) {
        const w = underCover[i]!;
        const k = below * 3;
        r += ((colours[k]! - r) * w) >> 8;
        g += ((colours[k + 1]! - g) * w) >> 8;
        b += ((colours[k + 2]! - b) * w) >> 8;
      }
      const w = cover[i]!;
      const k = stroke * 3;
      data[o] = r + (((colours[k]! - r) * w) >> 8);
      data[o + 1] = g + (((colours[k + 1]! - g) * w) >> 8);
      data[o + 2] = b + (((colours[k + 2]! - b) * w) >> 8);
    }
  }
  ctx.putImageData(image, 0, 0);
}

export function paintGrain(c: Ctx): void {
  const { ctx, width, height, random, look } = c;
  if (look.grain <= 0) return;
  const tileSize = 256;
  const tile = createCanvas(tileSize, tileSize);
  const tileCtx = tile.getContext('2d');
  const image = tileCtx.createImageData(tileSize, tileSize);
  for (let i = 0; i < image.data.length; i += 4) {
    const v = Math.round(128 + (random.next() + random.next() - 1) * 110);
    image.data[i] = v;
    image.data[i + 1] = v;
    image.data[i + 2] = v;
    image.data[i + 3] = 255;
  }
  tileCtx.putImageData(image, 0, 0);
  const pattern = ctx.createPattern(tile, 'repeat');
  if (!pattern) return;
  ctx.save();
  ctx.globalCompositeOperation = 'overlay';
  ctx.globalAlpha = look.grain;
  ctx.fillStyle = pattern;
  ctx.fillRect(0, 0, width, height);
  ctx.restore();
}

export function paintVignette(c: Ctx): void {
  const { ctx, width, height, look } = c;
  if (look.vignette <= 0) return;
  const diagonal = Math.hypot(width, height) / 2;
  const gradient = ctx.createRadialGradient(width / 2, height * 0.48, diagonal * 0.35, width / 2, height * 0.48, diagonal);
  gradient.addColorStop(0, 'rgba(0,0,0,0)');
  gradient.addColorStop(1, `rgba(0,0,0,${look.vignette})`);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
}

/** Cinematic grade: a cool wash over the shadows and a warm one over the light, like a film LUT. */
export function paintGrade(c: Ctx): void {
  const { ctx, width, height, plan } = c;
  if (plan.style !== 'cinematic' && plan.style !== 'dark horror') return;
  ctx.save();
  ctx.globalCompositeOperation = 'soft-light';
  const gradient = ctx.createLinearGradient(0, 0, 0, height);
  if (plan.style === 'cinematic') {
    gradient.addColorStop(0, 'rgba(255,170,90,0.35)');
    gradient.addColorStop(1, 'rgba(0,90,110,0.45)');
  } else {
    gradient.addColorStop(0, 'rgba(60,90,100,0.5)');
    gradient.addColorStop(1, 'rgba(10,20,25,0.6)');
  }
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
  ctx.restore();
}

/**
 * The picture drawn small and scaled back up: a blur for the price of a resize (the canvas's blur
 * filter and shadow blur cost a tenth of a second each on a full frame). As a silhouette it is a
 * soft shadow.
 */
export function softened(source: Canvas, factor: number, silhouette?: string): Canvas {
  const width = Math.max(1, Math.round(source.width / factor));
  const height = Math.max(1, Math.round(source.height / factor));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(source, 0, 0, width, height);
  if (silhouette) {
    ctx.globalCompositeOperation = 'source-in';
    ctx.fillStyle = silhouette;
    ctx.fillRect(0, 0, width, height);
  }
  return canvas;
}
