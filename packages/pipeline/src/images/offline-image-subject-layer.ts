import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { Artwork } from './offline-image-artwork.js';
import { css, mix, type Rgb } from './offline-image-color.js';
import { softened } from './offline-image-filters.js';
import { paintMotif } from './offline-image-motif-drawings.js';
import { motifSpec } from './offline-image-motif-lexicon.js';
import type { Ctx } from './offline-image-paint-context.js';
import { ARTWORK_GRADE, TIME_SHADE } from './offline-image-style-table.js';

/** The decoded artworks of a scene's subjects (offline-image-artwork), drawn over the landscape. */
export interface SceneArtwork {
  main: Artwork | null;
  companions: Artwork[];
}

/** Washes laid one over the other (colour, opacity), as the one wash that gives the same result. */
function combinedWash(layers: ReadonlyArray<readonly [Rgb, number]>): [Rgb, number] {
  let colour: Rgb = [0, 0, 0];
  let alpha = 0;
  for (const [next, opacity] of layers) {
    if (opacity <= 0) continue;
    const total = 1 - (1 - alpha) * (1 - opacity);
    colour = mix(colour, next, opacity / total);
    alpha = total;
  }
  return [colour, alpha];
}

/** The artwork at its drawn size, graded to the style and lit by the scene (and hazed when far off). */
function gradedArtwork(c: Ctx, { image }: Artwork, size: number, haze: number): Canvas {
  const side = Math.max(1, Math.round(size));
  const canvas = createCanvas(side, side);
  const ctx = canvas.getContext('2d');
  const grade = ARTWORK_GRADE[c.plan.style];
  ctx.drawImage(image, 0, 0, side, side);
  if (grade.grey > 0) {
    ctx.globalCompositeOperation = 'saturation';
    ctx.fillStyle = `rgba(128,128,128,${grade.grey})`;
    ctx.fillRect(0, 0, side, side);
  }
  const shade = TIME_SHADE[c.plan.time] + (c.plan.style === 'dark horror' ? 0.2 : 0);
  // Night's shade, the scene's light and the distance's haze in one pass over the drawing.
  const [colour, alpha] = combinedWash([
    [c.plan.palette.near, shade],
    [c.plan.palette.glow, grade.tint],
    [c.plan.palette.haze, haze],
  ]);
  if (alpha > 0) {
    ctx.globalCompositeOperation = 'source-atop';
    ctx.fillStyle = css(colour, alpha);
    ctx.fillRect(0, 0, side, side);
  }
  if (grade.grey > 0) {
    // The saturation wash also greys the transparent corners: the drawing's own outline cuts it back out.
    ctx.globalCompositeOperation = 'destination-in';
    ctx.drawImage(image, 0, 0, side, side);
  }
  return canvas;
}

/** A soft dark ellipse where the subject meets the ground. */
function paintContactShadow(c: Ctx, x: number, y: number, width: number, alpha: number): void {
  const { ctx } = c;
  ctx.save();
  ctx.translate(x, y);
  ctx.scale(1, 0.16);
  const gradient = ctx.createRadialGradient(0, 0, 0, 0, 0, width / 2);
  gradient.addColorStop(0, css(mix(c.plan.palette.near, [0, 0, 0], 0.6), alpha));
  gradient.addColorStop(1, css(c.plan.palette.near, 0));
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.arc(0, 0, width / 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

/**
 * The scene's subjects: the main one large and sharp, standing just in front of the horizon and
 * above the captions of a tall frame (they sit about two thirds down), clear of the edges the Ken
 * Burns zoom crops; the related ones smaller, farther back, blurred and hazed, to either side.
 */
export function paintArtwork(c: Ctx, artwork: SceneArtwork): void {
  const { ctx, width, height, random, plan } = c;
  const short = Math.min(width, height);
  const tall = height > width * 1.2;
  const place = plan.subjects?.setting ? motifSpec(plan.subjects.setting).place : 'ground';
  const horizonY = plan.horizon * height;
  // Above the captions of a tall frame (they sit about two thirds down), on the horizon where it is higher.
  const ground = Math.min(height * (tall ? 0.6 : 0.9), horizonY + height * (tall ? 0.04 : 0.14));
  const side = random.chance(0.5) ? 1 : -1;
  artwork.companions.slice(0, 2).forEach((art, index) => {
    const size = short * random.range(0.26, 0.33) * (index === 0 ? 1 : 0.85);
    const x = width * (0.5 + side * (index === 0 ? -1 : 1) * random.range(0.31, 0.36));
    const base = horizonY + (ground - horizonY) * random.range(0, 0.35);
    const top = base - size * art.bounds.bottom;
    paintContactShadow(c, x, base, size * (art.bounds.right - art.bounds.left) * 1.1, 0.35);
    ctx.save();
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    // Graded small and drawn large: the blur of distance for less work than a sharp one.
    ctx.drawImage(gradedArtwork(c, art, size / 2.5, 0.2), x - size / 2, top, size, size);
    ctx.restore();
  });
  const art = artwork.main;
  if (!art) return;
  const drawn = art.bounds.right - art.bounds.left;
  // The drawing, not its square, fills a good half of the width.
  const size = (short * (tall ? 0.54 : 0.42) * random.range(0.92, 1.06)) / Math.max(0.6, drawn);
  const x = width * (0.5 + side * random.range(0.02, 0.08));
  const floating = place === 'sky';
  const bottom = floating ? ground - short * 0.12 : place === 'water' ? ground + short * 0.04 : ground;
  const top = bottom - size * art.bounds.bottom;
  if (!floating) paintContactShadow(c, x, bottom - size * 0.01, size * drawn * 1.1, 0.6);
  const main = gradedArtwork(c, art, size, 0);
  const drop = floating ? size * 0.06 : size * 0.015;
  ctx.save();
  ctx.globalAlpha = 0.4;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(softened(main, 8, css(mix(plan.palette.near, [0, 0, 0], 0.5))), x - size * 0.52, top + drop, size * 1.04, size * 1.04);
  ctx.restore();
  ctx.drawImage(main, x - size / 2, top);
}

/**
 * The topic's subject, large and central: above the captions in a tall frame (they sit around two
 * thirds down), in the lower middle of a wide one, and clear of the edges the Ken Burns zoom crops.
 */
export function paintSubject(c: Ctx): void {
  const { plan, width, height, random, look } = c;
  if (!plan.motif) return;
  const short = Math.min(width, height);
  const tall = height > width * 1.2;
  const place = motifSpec(plan.motif).place;
  // Each scene frames the subject a little differently: off centre one way or the other, nearer or farther.
  const x = width * (0.5 + random.range(-0.12, 0.12));
  const ground = height * (tall ? 0.6 : 0.8);
  const [y, size] =
    place === 'sky'
      ? [height * (tall ? 0.36 : 0.38), short * 0.5]
      : place === 'center'
        ? [ground, short * (tall ? 0.55 : 0.5)]
        : place === 'water'
          ? [Math.max(ground, plan.horizon * height + short * 0.12), short * 0.6]
          : [ground, short * 0.45];
  paintMotif(plan.motif, {
    ctx: c.ctx,
    x,
    y,
    size: size * random.range(0.85, 1.1),
    light: plan.palette.glow,
    dark: plan.palette.near,
    random,
    flat: look.flat,
    outline: look.outline * c.unit,
  });
}
