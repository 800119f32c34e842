import type { SKRSContext2D } from '@napi-rs/canvas';
import { css, hsl, luminance, mix, scale, type Random, type Rgb } from './offline-image-color.js';
import { blurCanvas } from './offline-image-filters.js';
import type { Ctx } from './offline-image-paint-context.js';
import type { ScenePlan } from './offline-image-plan.js';

type Ridge = number[];

interface Layer {
  kind: 'jagged' | 'smooth' | 'trees' | 'skyline' | 'island' | 'cliff' | 'dunes';
  /** Base height of the layer's top edge, share of height. */
  base: number;
  /** Height variation of the edge, share of the short side. */
  amplitude: number;
}

const SAMPLES = 96;

function smoothRidge(c: Ctx, base: number, amplitude: number): Ridge {
  const waves = [0, 1, 2].map((i) => ({ f: c.random.range(0.6, 1.6) * (i + 1), p: c.random.range(0, Math.PI * 2), a: 1 / (i + 1.3) }));
  const total = waves.reduce((sum, w) => sum + w.a, 0);
  return Array.from({ length: SAMPLES + 1 }, (_, i) => {
    const x = i / SAMPLES;
    const v = waves.reduce((sum, w) => sum + w.a * Math.sin(x * Math.PI * 2 * w.f + w.p), 0) / total;
    return base * c.height - amplitude * c.unit * 1080 * (0.5 + 0.5 * v);
  });
}

/** Midpoint displacement: rough peaks whose detail shrinks with scale, like real ridgelines. */
function jaggedRidge(c: Ctx, base: number, amplitude: number, roughness = 0.52): Ridge {
  const size = 128;
  const values = new Array<number>(size + 1).fill(0);
  values[0] = c.random.range(0, 1);
  values[size] = c.random.range(0, 1);
  let step = size;
  let spread = 1;
  while (step > 1) {
    const half = step / 2;
    for (let i = half; i < size; i += step) values[i] = (values[i - half]! + values[i + half]!) / 2 + c.random.range(-spread, spread);
    step = half;
    spread *= roughness;
  }
  const min = Math.min(...values);
  const max = Math.max(...values);
  return Array.from({ length: SAMPLES + 1 }, (_, i) => {
    const v = values[Math.round((i / SAMPLES) * size)]!;
    return base * c.height - amplitude * c.unit * 1080 * ((v - min) / (max - min || 1));
  });
}

function ridgeAt(ridge: Ridge, width: number, x: number): number {
  const position = Math.min(SAMPLES, Math.max(0, (x / width) * SAMPLES));
  const i = Math.floor(position);
  const a = ridge[i]!;
  const b = ridge[Math.min(SAMPLES, i + 1)]!;
  return a + (b - a) * (position - i);
}

function traceRidge(c: Ctx, ridge: Ridge, smooth: boolean): void {
  const { ctx, width, height } = c;
  const dx = width / SAMPLES;
  ctx.beginPath();
  ctx.moveTo(-10, height + 10);
  ctx.lineTo(-10, ridge[0]!);
  if (smooth) {
    for (let i = 0; i < SAMPLES; i++) {
      const x = i * dx;
      ctx.quadraticCurveTo(x, ridge[i]!, x + dx / 2, (ridge[i]! + ridge[i + 1]!) / 2);
    }
    ctx.lineTo(width + 10, ridge[SAMPLES]!);
  } else {
    for (let i = 0; i <= SAMPLES; i++) ctx.lineTo(i * dx, ridge[i]!);
    ctx.lineTo(width + 10, ridge[SAMPLES]!);
  }
  ctx.lineTo(width + 10, height + 10);
  ctx.closePath();
}

function outlinePath(c: Ctx): void {
  if (c.look.outline <= 0) return;
  c.ctx.lineJoin = 'round';
  c.ctx.lineWidth = c.look.outline * c.unit;
  c.ctx.strokeStyle = css(c.plan.palette.outline);
  c.ctx.stroke();
}

/** Gradient or flat fill for a shape whose top is near `top`. */
function layerFill(c: Ctx, colour: Rgb, top: number): string | CanvasGradientLike {
  if (c.look.flat) return css(colour);
  const gradient = c.ctx.createLinearGradient(0, top, 0, c.height);
  gradient.addColorStop(0, css(mix(colour, c.plan.palette.rim, 0.12)));
  gradient.addColorStop(0.35, css(colour));
  gradient.addColorStop(1, css(scale(colour, 0.7)));
  return gradient;
}
type CanvasGradientLike = ReturnType<SKRSContext2D['createLinearGradient']>;

export function paintSky(c: Ctx): void {
  const { ctx, width, height, plan } = c;
  const p = plan.palette;
  const horizonY = plan.horizon * height;
  const gradient = ctx.createLinearGradient(0, 0, 0, horizonY);
  if (c.look.flat) {
    gradient.addColorStop(0, css(p.skyMid));
    gradient.addColorStop(1, css(p.skyHorizon));
  } else {
    gradient.addColorStop(0, css(p.skyTop));
    gradient.addColorStop(0.55, css(p.skyMid));
    gradient.addColorStop(1, css(p.skyHorizon));
  }
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
}

export function paintStars(c: Ctx): void {
  const { ctx, width, height, plan, random } = c;
  if (plan.time !== 'night' && plan.time !== 'dusk') return;
  const count = Math.round(((width * height) / (plan.time === 'night' ? 2600 : 9000)) * (plan.style === 'dark horror' ? 0.4 : 1));
  const limit = plan.horizon * height * (plan.time === 'night' ? 0.95 : 0.5);
  for (let i = 0; i < count; i++) {
    const x = random.next() * width;
    const y = Math.pow(random.next(), 1.4) * limit;
    const bright = random.next();
    const size = (bright > 0.985 ? 2.6 : bright > 0.9 ? 1.7 : 1.1) * c.unit;
    ctx.fillStyle = css(mix([255, 255, 255], plan.palette.disc, random.next()), 0.25 + 0.75 * bright * (1 - y / limit / 1.6));
    if (c.look.flat && bright > 0.97) {
      drawSparkle(ctx, x, y, size * 3.2);
    } else if (size > 2) {
      ctx.beginPath();
      ctx.arc(x, y, size, 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.fillRect(x, y, size, size);
    }
  }
}

function drawSparkle(ctx: SKRSContext2D, x: number, y: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.quadraticCurveTo(x, y, x + r, y);
  ctx.quadraticCurveTo(x, y, x, y + r);
  ctx.quadraticCurveTo(x, y, x - r, y);
  ctx.quadraticCurveTo(x, y, x, y - r);
  ctx.fill();
}

function glow(c: Ctx, x: number, y: number, radius: number, colour: Rgb, alpha: number): void {
  const { ctx } = c;
  const gradient = ctx.createRadialGradient(x, y, 0, x, y, radius);
  gradient.addColorStop(0, css(colour, alpha));
  gradient.addColorStop(0.25, css(colour, alpha * 0.45));
  gradient.addColorStop(1, css(colour, 0));
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  ctx.fillStyle = gradient;
  ctx.fillRect(x - radius, y - radius, radius * 2, radius * 2);
  ctx.restore();
}

export function paintLight(c: Ctx): void {
  const { ctx, width, height, plan, random, look } = c;
  const p = plan.palette;
  const x = plan.sunX * width;
  const y = plan.sunY * height;
  const short = Math.min(width, height);
  const night = plan.time === 'night';
  if (plan.time === 'storm') {
    glow(c, x, y, short * 0.7, p.glow, 0.25 * look.glow);
    return;
  }
  const radius = short * (night ? random.range(0.045, 0.065) : plan.time === 'day' ? 0.05 : random.range(0.06, 0.085));
  glow(c, x, y, short * (night ? 0.75 : 1.1), p.glow, (night ? 0.32 : 0.6) * look.glow);
  glow(c, x, y, radius * 3.2, p.disc, (night ? 0.35 : 0.7) * look.glow);
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.fillStyle = css(p.disc);
  ctx.fill();
  if (night) {
    // Maria: soft darker patches so the moon reads as a moon.
    for (let i = 0; i < 6; i++) {
      const a = random.range(0, Math.PI * 2);
      const d = random.range(0, radius * 0.6);
      ctx.beginPath();
      ctx.arc(x + Math.cos(a) * d, y + Math.sin(a) * d, radius * random.range(0.12, 0.3), 0, Math.PI * 2);
      ctx.fillStyle = css(scale(p.disc, 0.78), 0.45);
      ctx.fill();
    }
  }
  if (c.look.flat) {
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, Math.PI * 2);
    outlinePath(c);
    if (!night) {
      ctx.fillStyle = css(p.disc);
      const spikes = 12;
      for (let i = 0; i < spikes; i++) {
        const a = (i / spikes) * Math.PI * 2 + random.range(-0.05, 0.05);
        ctx.beginPath();
        ctx.moveTo(x + Math.cos(a - 0.12) * radius * 1.25, y + Math.sin(a - 0.12) * radius * 1.25);
        ctx.lineTo(x + Math.cos(a) * radius * 1.75, y + Math.sin(a) * radius * 1.75);
        ctx.lineTo(x + Math.cos(a + 0.12) * radius * 1.25, y + Math.sin(a + 0.12) * radius * 1.25);
        ctx.closePath();
        ctx.fill();
        outlinePath(c);
      }
    }
  }
}

export function paintClouds(c: Ctx): void {
  const { ctx, width, height, plan, random, look } = c;
  const p = plan.palette;
  const storm = plan.time === 'storm';
  const count = storm ? random.int(9, 14) : plan.style === 'dark horror' ? random.int(4, 7) : random.int(2, 6);
  const skyBottom = plan.horizon * height;
  for (let i = 0; i < count; i++) {
    const cx = random.range(-0.1, 1.1) * width;
    const cy = random.range(storm ? 0 : 0.08, 0.85) * skyBottom;
    const spanX = random.range(0.25, 0.6) * width;
    const puffs = random.int(6, 11);
    const lit = mix(p.cloud, p.rim, Math.max(0, 1 - Math.hypot(cx - plan.sunX * width, cy - plan.sunY * height) / (width * 0.8)) * 0.6);
    if (look.flat) {
      const circles = Array.from({ length: puffs }, (_, k) => ({
        x: cx + (k / (puffs - 1) - 0.5) * spanX * 0.6 + random.range(-1, 1) * spanX * 0.05,
        y: cy - Math.sin((k / (puffs - 1)) * Math.PI) * spanX * 0.08 + random.range(-1, 1) * spanX * 0.02,
        r: spanX * random.range(0.08, 0.14) * (0.6 + Math.sin((k / (puffs - 1)) * Math.PI) * 0.6),
      }));
      ctx.fillStyle = css(p.outline);
      for (const circle of circles) {
        ctx.beginPath();
        ctx.arc(circle.x, circle.y, circle.r + look.outline * c.unit, 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.fillStyle = css(mix(p.cloud, [255, 255, 255], 0.4));
      for (const circle of circles) {
        ctx.beginPath();
        ctx.arc(circle.x, circle.y, circle.r, 0, Math.PI * 2);
        ctx.fill();
      }
      continue;
    }
    const alpha = storm ? random.range(0.5, 0.8) : random.range(0.28, 0.55);
    for (let k = 0; k < puffs; k++) {
      const px = cx + random.range(-0.5, 0.5) * spanX;
      const py = cy + random.range(-0.5, 0.5) * spanX * 0.12;
      const r = spanX * random.range(0.12, 0.3);
      ctx.save();
      ctx.translate(px, py);
      ctx.scale(1, random.range(0.28, 0.45));
      const gradient = ctx.createRadialGradient(0, -r * 0.2, 0, 0, 0, r);
      gradient.addColorStop(0, css(lit, alpha));
      gradient.addColorStop(0.55, css(mix(lit, p.cloud, 0.5), alpha * 0.55));
      gradient.addColorStop(1, css(p.cloud, 0));
      ctx.fillStyle = gradient;
      ctx.fillRect(-r, -r, r * 2, r * 2);
      ctx.restore();
    }
  }
}

/**
 * Each terrain's layers, far to near: the kind, how far below the horizon the layer's edge sits
 * (share of the height), and its height variation (share of the short side; `a~b`: a random one
 * between a and b).
 */
const TERRAIN_LAYERS: Record<ScenePlan['terrain'], string> = {
  mountains: 'jagged 0.02 0.35~0.5 | jagged 0.08 0.2~0.28 | smooth 0.17 0.1 | smooth 0.27 0.08',
  hills: 'smooth 0.01 0.12 | smooth 0.08 0.12 | trees 0.16 0.14 | smooth 0.27 0.1',
  forest: 'smooth 0.01 0.14 | trees 0.07 0.08 | trees 0.16 0.12 | trees 0.3 0.2',
  city: 'jagged 0 0.1 | skyline 0.03 0.32 | skyline 0.12 0.45 | smooth 0.3 0.03',
  sea: 'island 0 0.06~0.14 | cliff 0.2 0.3',
  desert: 'dunes 0.01 0.08 | dunes 0.08 0.1 | dunes 0.17 0.12 | dunes 0.29 0.12',
};

function layersFor(plan: ScenePlan, random: Random): Layer[] {
  return TERRAIN_LAYERS[plan.terrain].split(' | ').map((spec) => {
    const [kind, below, variation] = spec.split(' ');
    const [low, high] = variation!.split('~').map(Number);
    return {
      kind: kind as Layer['kind'],
      base: plan.horizon + Number(below),
      amplitude: high === undefined ? low! : random.range(low!, high),
    };
  });
}

function layerColour(c: Ctx, depth: number): Rgb {
  const p = c.plan.palette;
  let near = p.near;
  const daylight = c.plan.time === 'day' || c.plan.time === 'golden' || c.plan.time === 'dawn';
  if (c.plan.terrain === 'desert') near = mix(near, c.plan.time === 'day' ? hsl(34, 62, 58) : hsl(22, 55, 42), daylight ? 0.75 : 0.3);
  else if (daylight && c.plan.time === 'day') near = mix(near, hsl(120, 35, 30), 0.35);
  if (c.look.flat) near = mix(near, hsl(luminance(near) > 90 ? 40 : 140, 55, 42), daylight ? 0.45 : 0.15);
  return mix(p.haze, near, Math.pow(depth, 0.85));
}

function paintTrees(c: Ctx, ridge: Ridge, size: number, colour: Rgb): void {
  const { ctx, width, random, look } = c;
  const treeHeight = size * c.unit * 1080;
  let x = -treeHeight * 0.2;
  const round = look.flat || c.plan.style === 'bright colorful';
  while (x < width + treeHeight * 0.3) {
    const h = treeHeight * random.range(0.55, 1.1);
    const w = h * (round ? 0.5 : random.range(0.28, 0.38));
    const y = ridgeAt(ridge, width, x) + h * 0.08;
    ctx.fillStyle = css(mix(colour, [0, 0, 0], random.range(0, 0.12)));
    ctx.beginPath();
    if (round) {
      ctx.rect(x - w * 0.06, y - h * 0.45, w * 0.12, h * 0.5);
      ctx.moveTo(x + w * 0.5, y - h * 0.62);
      ctx.arc(x, y - h * 0.62, w * 0.5, 0, Math.PI * 2);
    } else {
      // Three stacked tiers make a conifer.
      for (let tier = 0; tier < 3; tier++) {
        const top = y - h * (1 - tier * 0.22);
        const bottom = y - h * (0.42 - tier * 0.2);
        const half = (w / 2) * (0.6 + tier * 0.25);
        ctx.moveTo(x, top);
        ctx.lineTo(x + half, bottom);
        ctx.lineTo(x - half, bottom);
        ctx.closePath();
      }
      ctx.rect(x - w * 0.05, y - h * 0.25, w * 0.1, h * 0.3);
    }
    ctx.fill();
    outlinePath(c);
    x += w * random.range(0.45, 0.9);
  }
}

function paintSkyline(c: Ctx, base: number, maxHeight: number, colour: Rgb, windows: boolean): Ridge {
  const { ctx, width, height, random, plan, look } = c;
  const p = plan.palette;
  const baseY = base * height;
  const unit = c.unit * 1080;
  // Towers scale with the short side, but in a wide frame they must still leave sky above them.
  const tallest = Math.min(unit, height * 0.6);
  const ridge: Ridge = new Array(SAMPLES + 1).fill(baseY);
  const night = plan.time === 'night' || plan.time === 'dusk' || plan.time === 'storm';
  let x = -random.range(0, 60) * c.unit;
  while (x < width) {
    const w = unit * random.range(0.06, 0.15);
    const h = tallest * maxHeight * Math.pow(random.range(0.25, 1), 1.3);
    const top = baseY - h;
    ctx.fillStyle =
      look.flat || plan.style === 'bright colorful'
        ? css(mix(colour, hsl(random.range(0, 360), 55, 55), 0.3))
        : layerFill(c, mix(colour, [0, 0, 0], random.range(0, 0.15)), top);
    ctx.beginPath();
    ctx.rect(x, top, w, h + height);
    const roof = random.next();
    if (roof < 0.15) {
      ctx.moveTo(x + w * 0.2, top);
      ctx.lineTo(x + w / 2, top - w * 0.9);
      ctx.lineTo(x + w * 0.8, top);
    } else if (roof < 0.3) {
      ctx.rect(x + w * 0.47, top - w * 0.8, w * 0.06, w * 0.8);
    } else if (roof < 0.45) {
      ctx.rect(x + w * 0.15, top - w * 0.25, w * 0.7, w * 0.25);
    }
    ctx.fill();
    outlinePath(c);
    for (let i = 0; i <= SAMPLES; i++) {
      const sx = (i / SAMPLES) * width;
      if (sx >= x && sx <= x + w) ridge[i] = Math.min(ridge[i]!, top);
    }
    if (windows) {
      const cell = unit * random.range(0.018, 0.026);
      const columns = Math.floor((w * 0.8) / cell);
      const rows = Math.floor((h * 0.9) / (cell * 1.5));
      const lit = night ? random.range(0.15, 0.45) : 0;
      for (let row = 0; row < rows; row++) {
        for (let col = 0; col < columns; col++) {
          const on = random.next() < lit;
          if (!night && random.next() < 0.5) continue;
          ctx.fillStyle = on
            ? css(p.window, random.range(0.6, 1))
            : css(night ? scale(colour, 1.25) : mix(colour, p.skyHorizon, 0.3), night ? 0.7 : 0.35);
          ctx.fillRect(x + w * 0.1 + col * cell + cell * 0.2, top + h * 0.05 + row * cell * 1.5, cell * 0.6, cell * 0.8);
        }
      }
    }
    x += w + unit * random.range(-0.01, 0.02);
  }
  return ridge;
}

function paintSea(c: Ctx): void {
  const { ctx, width, height, plan, random, look } = c;
  const p = plan.palette;
  const horizonY = plan.horizon * height;
  const gradient = ctx.createLinearGradient(0, horizonY, 0, height);
  gradient.addColorStop(0, css(mix(p.skyHorizon, p.water, 0.45)));
  gradient.addColorStop(look.flat ? 1 : 0.3, css(p.water));
  gradient.addColorStop(1, css(scale(p.water, look.flat ? 1 : 0.55)));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, horizonY, width, height - horizonY);
  // Sun or moon path: broken horizontal glints, wider and sparser toward the viewer.
  const sx = plan.sunX * width;
  const rows = Math.round(140 * c.unit);
  for (let i = 0; i < rows; i++) {
    const t = Math.pow(random.next(), 1.6);
    const y = horizonY + t * (height - horizonY);
    const spread = width * (0.03 + t * 0.22);
    const x = sx + random.range(-1, 1) * spread;
    const len = width * random.range(0.01, 0.06) * (0.4 + t);
    ctx.fillStyle = css(mix(p.disc, p.glow, random.next()), (plan.time === 'storm' ? 0.15 : 0.55) * (1 - t * 0.7) * random.range(0.3, 1));
    ctx.fillRect(x - len / 2, y, len, Math.max(1, c.unit * (1 + t * 3)));
  }
  // Wave crests across the whole sea.
  const waves = Math.round(260 * c.unit);
  for (let i = 0; i < waves; i++) {
    const t = Math.pow(random.next(), 1.8);
    const y = horizonY + t * (height - horizonY);
    const len = width * random.range(0.02, 0.12) * (0.3 + t);
    const x = random.next() * width;
    ctx.fillStyle = css(random.next() < 0.5 ? mix(p.water, p.skyHorizon, 0.5) : scale(p.water, 0.6), 0.35 * random.range(0.3, 1));
    ctx.fillRect(x, y, len, Math.max(1, c.unit * (1 + t * 2.5)));
  }
}

function mist(c: Ctx, top: number, bottom: number, strength: number): void {
  if (strength <= 0 || bottom <= top) return;
  const { ctx, width } = c;
  const gradient = ctx.createLinearGradient(0, top, 0, bottom);
  // Mist thickest in the valley and thinning again below, so no layer ends on a hard band.
  gradient.addColorStop(0, css(c.plan.palette.fog, 0));
  gradient.addColorStop(0.6, css(c.plan.palette.fog, strength));
  gradient.addColorStop(1, css(c.plan.palette.fog, 0));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, top, width, bottom - top);
}

function paintRim(c: Ctx, ridge: Ridge, smooth: boolean): void {
  if (c.look.flat || c.plan.time === 'storm') return;
  const { ctx } = c;
  traceRidge(c, ridge, smooth);
  ctx.save();
  ctx.clip();
  ctx.globalCompositeOperation = 'screen';
  traceRidge(
    c,
    ridge.map((y) => y + 1.5 * c.unit),
    smooth,
  );
  ctx.lineWidth = 4 * c.unit;
  ctx.strokeStyle = css(c.plan.palette.rim, c.plan.time === 'night' ? 0.25 : 0.45);
  ctx.stroke();
  ctx.restore();
}

/** Focal subject standing on the nearest layer: what the eye lands on. */
function paintFocal(c: Ctx, ridge: Ridge, colour: Rgb): void {
  const { ctx, width, height, plan, random } = c;
  const p = plan.palette;
  if (plan.focal === 'none') return;
  const short = Math.min(width, height);
  const leftSide = plan.sunX > 0.5;
  const x =
    plan.focal === 'lighthouse' ? (leftSide ? 0.2 : 0.8) * width : (leftSide ? random.range(0.2, 0.4) : random.range(0.6, 0.8)) * width;
  const ground = ridgeAt(ridge, width, x) + 2 * c.unit;
  const night = plan.time === 'night' || plan.time === 'dusk' || plan.time === 'storm';
  ctx.fillStyle = css(colour);
  ctx.beginPath();
  switch (plan.focal) {
    case 'figure': {
      const h = short * 0.13;
      ctx.arc(x, ground - h * 0.9, h * 0.085, 0, Math.PI * 2);
      ctx.moveTo(x - h * 0.13, ground - h * 0.78);
      ctx.lineTo(x + h * 0.13, ground - h * 0.78);
      ctx.lineTo(x + h * 0.16, ground - h * 0.42);
      ctx.lineTo(x + h * 0.08, ground - h * 0.42);
      ctx.lineTo(x + h * 0.1, ground);
      ctx.lineTo(x + h * 0.02, ground);
      ctx.lineTo(x, ground - h * 0.36);
      ctx.lineTo(x - h * 0.04, ground);
      ctx.lineTo(x - h * 0.12, ground);
      ctx.lineTo(x - h * 0.08, ground - h * 0.42);
      ctx.lineTo(x - h * 0.16, ground - h * 0.42);
      ctx.closePath();
      break;
    }
    case 'lighthouse': {
      const h = short * 0.3;
      const w = h * 0.16;
      ctx.moveTo(x - w / 2, ground);
      ctx.lineTo(x - w * 0.32, ground - h * 0.8);
      ctx.lineTo(x + w * 0.32, ground - h * 0.8);
      ctx.lineTo(x + w / 2, ground);
      ctx.closePath();
      ctx.rect(x - w * 0.3, ground - h * 0.92, w * 0.6, h * 0.12);
      ctx.moveTo(x - w * 0.4, ground - h * 0.92);
      ctx.lineTo(x, ground - h);
      ctx.lineTo(x + w * 0.4, ground - h * 0.92);
      ctx.closePath();
      ctx.fill();
      if (!c.look.flat) {
        ctx.fillStyle = css(mix(colour, p.rim, 0.25));
        for (let band = 0; band < 3; band++)
          ctx.fillRect(x - w * 0.45 + band * w * 0.04, ground - h * (0.25 + band * 0.2), w * (0.9 - band * 0.08), h * 0.07);
      }
      outlinePath(c);
      const lampY = ground - h * 0.86;
      glow(c, x, lampY, short * 0.12, p.window, night ? 0.9 : 0.45);
      if (night) {
        const beam = ctx.createLinearGradient(x, lampY, leftSide ? width : 0, lampY);
        beam.addColorStop(0, css(p.window, 0.45));
        beam.addColorStop(1, css(p.window, 0));
        ctx.save();
        ctx.globalCompositeOperation = 'screen';
        ctx.fillStyle = beam;
        ctx.beginPath();
        ctx.moveTo(x, lampY);
        ctx.lineTo(leftSide ? width : 0, lampY - short * 0.16);
        ctx.lineTo(leftSide ? width : 0, lampY + short * 0.08);
        ctx.closePath();
        ctx.fill();
        ctx.restore();
      }
      return;
    }
    case 'tree': {
      const h = short * 0.36;
      ctx.moveTo(x - h * 0.05, ground);
      ctx.lineTo(x - h * 0.025, ground - h * 0.55);
      ctx.lineTo(x + h * 0.025, ground - h * 0.55);
      ctx.lineTo(x + h * 0.05, ground);
      ctx.closePath();
      for (let i = 0; i < 9; i++) {
        const a = random.range(Math.PI * 0.95, Math.PI * 2.05);
        const d = random.range(0.1, 0.28) * h;
        const r = random.range(0.1, 0.17) * h;
        const cx = x + Math.cos(a) * d * 1.3;
        const cy = ground - h * 0.62 + Math.sin(a) * d * 0.7;
        ctx.moveTo(cx + r, cy);
        ctx.arc(cx, cy, r, 0, Math.PI * 2);
      }
      break;
    }
    case 'cabin': {
      const w = short * 0.16;
      const h = w * 0.55;
      ctx.rect(x - w / 2, ground - h, w, h + 4 * c.unit);
      ctx.moveTo(x - w * 0.62, ground - h);
      ctx.lineTo(x, ground - h - w * 0.42);
      ctx.lineTo(x + w * 0.62, ground - h);
      ctx.closePath();
      ctx.rect(x + w * 0.22, ground - h - w * 0.4, w * 0.1, w * 0.25);
      ctx.fill();
      outlinePath(c);
      ctx.fillStyle = css(night ? p.window : mix(colour, p.skyHorizon, 0.4));
      ctx.fillRect(x - w * 0.28, ground - h * 0.72, w * 0.16, h * 0.32);
      ctx.fillRect(x + w * 0.08, ground - h * 0.72, w * 0.16, h * 0.32);
      if (night) glow(c, x - w * 0.05, ground - h * 0.56, w * 0.7, p.window, 0.5);
      return;
    }
    case 'tower': {
      const h = short * random.range(0.22, 0.32);
      const w = h * 0.22;
      ctx.rect(x - w / 2, ground - h * 0.75, w, h * 0.75 + 4 * c.unit);
      ctx.rect(x - w * 1.3, ground - h * 0.4, w * 2.6, h * 0.4 + 4 * c.unit);
      for (let i = 0; i < 5; i++) ctx.rect(x - w * 1.3 + i * w * 0.6, ground - h * 0.46, w * 0.3, h * 0.06);
      ctx.moveTo(x - w * 0.62, ground - h * 0.75);
      ctx.lineTo(x, ground - h);
      ctx.lineTo(x + w * 0.62, ground - h * 0.75);
      ctx.closePath();
      ctx.fill();
      outlinePath(c);
      if (night) {
        ctx.fillStyle = css(p.window);
        ctx.fillRect(x - w * 0.12, ground - h * 0.62, w * 0.24, h * 0.08);
        glow(c, x, ground - h * 0.58, w * 1.6, p.window, 0.45);
      }
      return;
    }
  }
  ctx.fill();
  outlinePath(c);
}

export function paintTerrain(c: Ctx): void {
  const { ctx, width, height, plan, random, look } = c;
  const layers = layersFor(plan, random);
  if (plan.terrain === 'sea') paintSea(c);
  let previousTop = plan.horizon * height - height * 0.05;
  for (let index = 0; index < layers.length; index++) {
    const layer = layers[index]!;
    const depth = layers.length === 1 ? 1 : index / (layers.length - 1);
    const colour = layerColour(c, plan.terrain === 'sea' && layer.kind === 'island' ? 0.25 : depth);
    const nearest = index === layers.length - 1;
    let ridge: Ridge;
    let smooth = true;
    if (look.depthOfField && index === layers.length - 2) blurCanvas(c, 10);
    switch (layer.kind) {
      case 'skyline':
        ridge = paintSkyline(c, layer.base, layer.amplitude, colour, index > 1);
        break;
      case 'trees': {
        ridge = smoothRidge(c, layer.base, layer.amplitude * 0.5);
        ctx.fillStyle = layerFill(c, colour, Math.min(...ridge));
        traceRidge(c, ridge, true);
        ctx.fill();
        outlinePath(c);
        paintTrees(c, ridge, layer.amplitude, colour);
        break;
      }
      case 'island': {
        const start = random.range(-0.3, 0.5);
        const span = random.range(0.3, 0.7);
        const raw = jaggedRidge(c, layer.base, layer.amplitude, 0.5);
        const baseY = layer.base * height;
        ridge = raw.map((y, i) => {
          const t = (i / SAMPLES - start) / span;
          const bump = t <= 0 || t >= 1 ? 0 : Math.pow(Math.sin(t * Math.PI), 0.7);
          return baseY - (baseY - y) * bump;
        });
        smooth = false;
        ctx.fillStyle = css(colour);
        ctx.beginPath();
        traceRidge(c, ridge, false);
        ctx.save();
        ctx.clip();
        ctx.fillRect(0, 0, width, baseY + 1);
        ctx.restore();
        break;
      }
      case 'cliff': {
        // A headland rising toward one edge, leaving open water across most of the frame.
        const rightSide = plan.sunX < 0.5;
        const baseY = layer.base * height;
        const jag = jaggedRidge(c, 0, 0.04, 0.6);
        ridge = jag.map((offset, i) => {
          const t = rightSide ? i / SAMPLES : 1 - i / SAMPLES;
          if (t < 0.55) return height + 20;
          const rise = Math.pow((t - 0.55) / 0.45, 0.5);
          return baseY - layer.amplitude * c.unit * 1080 * (0.25 + 0.75 * rise) * 0.5 + offset;
        });
        smooth = false;
        break;
      }
      case 'jagged':
        ridge = jaggedRidge(c, layer.base, layer.amplitude);
        smooth = false;
        break;
      case 'dunes':
        ridge = smoothRidge(c, layer.base, layer.amplitude).map((y, i, all) => (i > 0 ? Math.min(y, all[i - 1]! + 0.6 * c.unit) : y));
        break;
      case 'smooth':
        ridge = smoothRidge(c, layer.base, layer.amplitude);
        break;
    }
    if (layer.kind !== 'skyline' && layer.kind !== 'trees' && layer.kind !== 'island') {
      ctx.fillStyle = layerFill(c, colour, Math.min(...ridge));
      traceRidge(c, ridge, smooth);
      ctx.fill();
      outlinePath(c);
      if (plan.terrain === 'desert' && !look.flat) shadeDune(c, ridge, colour);
    }
    if (layer.kind !== 'skyline') paintRim(c, ridge, smooth);
    if (nearest) paintFocal(c, ridge, look.flat ? scale(colour, 0.8) : scale(colour, 0.85));
    const top = Math.min(...ridge);
    if (!nearest) mist(c, Math.min(previousTop, top), layer.base * height + height * 0.12, look.mist * (0.7 - depth * 0.4));
    previousTop = top;
  }
}

/** Dunes: the side away from the sun falls into shadow. */
function shadeDune(c: Ctx, ridge: Ridge, colour: Rgb): void {
  const { ctx, width, height, plan } = c;
  const gradient = ctx.createLinearGradient(0, 0, width, 0);
  const towardSun = plan.sunX;
  gradient.addColorStop(0, css(scale(colour, 0.6), towardSun > 0.5 ? 0.5 : 0));
  gradient.addColorStop(1, css(scale(colour, 0.6), towardSun > 0.5 ? 0 : 0.5));
  traceRidge(c, ridge, true);
  ctx.save();
  ctx.clip();
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
  ctx.restore();
}

export function paintRays(c: Ctx): void {
  const { ctx, width, height, plan, random, look } = c;
  if (look.rays <= 0 || plan.time === 'night' || plan.time === 'storm') return;
  const x = plan.sunX * width;
  const y = plan.sunY * height;
  const reach = Math.hypot(width, height);
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  const count = random.int(7, 13);
  for (let i = 0; i < count; i++) {
    const angle = random.range(0.15, Math.PI - 0.15);
    const spread = random.range(0.015, 0.05);
    const gradient = ctx.createRadialGradient(x, y, 0, x, y, reach * random.range(0.5, 0.9));
    gradient.addColorStop(0, css(plan.palette.glow, look.rays * random.range(0.6, 1.4)));
    gradient.addColorStop(1, css(plan.palette.glow, 0));
    ctx.fillStyle = gradient;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + Math.cos(angle - spread) * reach, y + Math.sin(angle - spread) * reach);
    ctx.lineTo(x + Math.cos(angle + spread) * reach, y + Math.sin(angle + spread) * reach);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}

export function paintGroundFog(c: Ctx): void {
  const { ctx, width, height, plan, random, look } = c;
  if (look.mist < 0.5 && plan.time !== 'storm') return;
  const bands = random.int(3, 6);
  for (let i = 0; i < bands; i++) {
    const y = (plan.horizon + random.range(0, 0.3)) * height;
    const r = width * random.range(0.4, 0.9);
    const x = random.range(0, 1) * width;
    ctx.save();
    ctx.translate(x, y);
    ctx.scale(1, random.range(0.12, 0.22));
    const gradient = ctx.createRadialGradient(0, 0, 0, 0, 0, r);
    gradient.addColorStop(0, css(plan.palette.fog, 0.35 * look.mist));
    gradient.addColorStop(1, css(plan.palette.fog, 0));
    ctx.fillStyle = gradient;
    ctx.fillRect(-r, -r, r * 2, r * 2);
    ctx.restore();
  }
}
