import type { SKRSContext2D } from '@napi-rs/canvas';
import { css, hsl, mix, scale, type Random, type Rgb } from './offline-image-color.js';
import type { Motif } from './offline-image-motif-lexicon.js';

/** Natural colours of each subject, blended with the scene's light so it belongs in the picture. */
const BODY: Record<Motif, Rgb> = {
  octopus: hsl(8, 62, 48),
  fish: hsl(28, 90, 55),
  whale: hsl(212, 30, 38),
  turtle: hsl(95, 35, 38),
  volcano: hsl(15, 20, 18),
  mountain: hsl(220, 18, 34),
  river: hsl(200, 65, 50),
  planet: hsl(35, 60, 62),
  moon: hsl(45, 12, 82),
  rocket: hsl(0, 0, 90),
  galaxy: hsl(275, 60, 70),
  sun: hsl(42, 100, 60),
  earth: hsl(205, 70, 45),
  books: hsl(350, 55, 42),
  food: hsl(32, 75, 52),
  coffee: hsl(20, 45, 88),
  music: hsl(48, 95, 62),
  sport: hsl(0, 0, 95),
  machine: hsl(35, 25, 55),
  robot: hsl(205, 15, 72),
  computer: hsl(220, 12, 26),
  phone: hsl(230, 15, 16),
  heart: hsl(350, 80, 52),
  brain: hsl(340, 45, 72),
  cat: hsl(28, 55, 45),
  dog: hsl(30, 45, 55),
  bird: hsl(200, 60, 45),
  butterfly: hsl(30, 95, 55),
  elephant: hsl(220, 8, 48),
  lion: hsl(36, 70, 50),
  dinosaur: hsl(110, 35, 35),
  flower: hsl(335, 75, 60),
  tree: hsl(120, 40, 28),
  city: hsl(230, 20, 20),
  car: hsl(355, 75, 45),
  train: hsl(210, 60, 40),
  airplane: hsl(210, 10, 92),
  ship: hsl(0, 0, 92),
  money: hsl(45, 85, 55),
  idea: hsl(52, 100, 70),
  atom: hsl(190, 90, 65),
  pyramid: hsl(38, 55, 58),
  temple: hsl(10, 60, 42),
  clock: hsl(40, 40, 85),
  snow: hsl(0, 0, 97),
};

export interface MotifPaint {
  ctx: SKRSContext2D;
  /** Anchor: the bottom centre for grounded subjects, the centre for the others. */
  x: number;
  y: number;
  /** The subject's height in pixels. */
  size: number;
  /** The scene's light (the sun's glow) and its darkest colour. */
  light: Rgb;
  dark: Rgb;
  random: Random;
  flat: boolean;
  outline: number;
}

/** Draws the subject; its colours are its own, lit by the scene. */
export function paintMotif(motif: Motif, p: MotifPaint): void {
  const { ctx } = p;
  const body = mix(BODY[motif], p.light, 0.12);
  const shade = mix(scale(body, 0.62), p.dark, 0.25);
  const lightSide = mix(body, p.light, 0.35);
  const colours = { body, shade, lightSide, ink: mix(p.dark, [0, 0, 0], 0.5) };
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  // A soft shadow separates the subject from the backdrop in every style.
  ctx.shadowColor = 'rgba(0,0,0,0.35)';
  ctx.shadowBlur = p.size * 0.05;
  ctx.shadowOffsetY = p.size * 0.015;
  DRAW[motif](p, colours);
  ctx.restore();
}

interface Colours {
  body: Rgb;
  shade: Rgb;
  lightSide: Rgb;
  ink: Rgb;
}

type Draw = (p: MotifPaint, c: Colours) => void;

function fill(p: MotifPaint, colour: Rgb | CanvasGradient, path: () => void, alpha = 1): void {
  const { ctx } = p;
  ctx.beginPath();
  path();
  ctx.save();
  if (Array.isArray(colour)) ctx.fillStyle = css(colour as Rgb, alpha);
  else {
    ctx.fillStyle = colour as CanvasGradient;
    // Light (a glow, a halo, a lit disc) casts no shadow.
    ctx.shadowColor = 'rgba(0,0,0,0)';
  }
  ctx.fill();
  ctx.restore();
  if (p.flat && p.outline > 0) {
    ctx.lineWidth = p.outline;
    ctx.strokeStyle = 'rgba(20,16,30,0.9)';
    ctx.stroke();
  }
}

function stroke(p: MotifPaint, colour: Rgb, width: number, path: () => void, alpha = 1): void {
  const { ctx } = p;
  ctx.beginPath();
  path();
  ctx.lineWidth = width;
  ctx.strokeStyle = css(colour, alpha);
  ctx.stroke();
}

const ellipse =
  (p: MotifPaint, x: number, y: number, rx: number, ry: number, rotation = 0) =>
  () =>
    p.ctx.ellipse(x, y, Math.max(0.5, rx), Math.max(0.5, ry), rotation, 0, Math.PI * 2);
const circle = (p: MotifPaint, x: number, y: number, r: number) => ellipse(p, x, y, r, r);
const polygon = (p: MotifPaint, points: readonly (readonly [number, number])[]) => () => {
  points.forEach(([x, y], index) => (index === 0 ? p.ctx.moveTo(x, y) : p.ctx.lineTo(x, y)));
  p.ctx.closePath();
};
/** A shape standing on the ground line `y` with a flat `top`: its corners' x, from the left foot over the top to the right foot. */
const flatTopped = (p: MotifPaint, y: number, top: number, [leftFoot, topLeft, topRight, rightFoot]: readonly number[]) =>
  polygon(p, [
    [leftFoot!, y],
    [topLeft!, top],
    [topRight!, top],
    [rightFoot!, y],
  ]);
/** A polygon around (x, y): each corner's offsets in turn, in shares of the size `s`. */
const around = (p: MotifPaint, x: number, y: number, s: number, offsets: readonly number[]) =>
  polygon(
    p,
    Array.from({ length: offsets.length / 2 }, (_, i) => [x + s * offsets[2 * i]!, y + s * offsets[2 * i + 1]!] as const),
  );
const rect =
  (p: MotifPaint, x: number, y: number, w: number, h: number, r = 0) =>
  () =>
    p.ctx.roundRect(x, y, w, h, r);

/** Three wisps of steam, `spacing` apart, swaying by `sway` as they rise through `rise` (shares of the size above the anchor). */
function steam(
  p: MotifPaint,
  { spacing, sway, rise, width, alpha }: { spacing: number; sway: number; rise: readonly number[]; width: number; alpha: number },
): void {
  const { x, y, size: s } = p;
  for (let i = 0; i < 3; i++)
    stroke(
      p,
      [255, 255, 255],
      s * width,
      () => {
        const wisp = x + (i - 1) * s * spacing;
        p.ctx.moveTo(wisp, y - s * rise[0]!);
        p.ctx.bezierCurveTo(wisp + s * sway, y - s * rise[1]!, wisp - s * sway, y - s * rise[2]!, wisp, y - s * rise[3]!);
      },
      alpha,
    );
}

function eye(p: MotifPaint, x: number, y: number, r: number): void {
  fill(p, [250, 250, 245], circle(p, x, y, r));
  fill(p, [15, 15, 20], circle(p, x + r * 0.2, y + r * 0.1, r * 0.55));
  fill(p, [255, 255, 255], circle(p, x + r * 0.35, y - r * 0.2, r * 0.18));
}

/** A tentacle or a tail: a tapering curve drawn as overlapping dabs along a bezier. */
function taper(p: MotifPaint, colour: Rgb, points: readonly [number, number][], from: number, to: number): void {
  const [a, b, c, d] = points as [[number, number], [number, number], [number, number], [number, number]];
  for (let i = 0; i <= 40; i++) {
    const t = i / 40;
    const u = 1 - t;
    const x = u * u * u * a[0] + 3 * u * u * t * b[0] + 3 * u * t * t * c[0] + t * t * t * d[0];
    const y = u * u * u * a[1] + 3 * u * u * t * b[1] + 3 * u * t * t * c[1] + t * t * t * d[1];
    fill(p, colour, circle(p, x, y, from + (to - from) * t));
  }
}

/**
 * A four-legged animal without its head (dog, lion), in shares of its size: the legs (body width,
 * leg height, leg width), the body (its centre's height, half width, half height) and the tail's
 * curve (start, control point, end, each x and y from the anchor).
 */
function legsBodyTail(
  p: MotifPaint,
  c: Colours,
  [bodyW, legH, legW]: readonly [number, number, number],
  [bodyY, bodyRx, bodyRy]: readonly [number, number, number],
  tailWidth: number,
  [fromX, fromY, controlX, controlY, toX, toY]: readonly [number, number, number, number, number, number],
): void {
  const { x, y, size: s } = p;
  fourLegs(p, c, x, y, s * bodyW, s * legH, s * legW);
  fill(p, c.body, ellipse(p, x, y + s * bodyY, s * bodyRx, s * bodyRy));
  stroke(p, c.body, s * tailWidth, () => {
    p.ctx.moveTo(x + s * fromX, y + s * fromY);
    p.ctx.quadraticCurveTo(x + s * controlX, y + s * controlY, x + s * toX, y + s * toY);
  });
}

function fourLegs(p: MotifPaint, c: Colours, x: number, y: number, bodyW: number, legH: number, legW: number): void {
  for (const [dx, tone] of [
    [-0.38, c.shade],
    [-0.22, c.body],
    [0.22, c.shade],
    [0.38, c.body],
  ] as const) {
    fill(p, tone, rect(p, x + dx * bodyW - legW / 2, y - legH, legW, legH, legW * 0.3));
  }
}

const DRAW: Record<Motif, Draw> = {
  octopus(p, c) {
    const { x, y, size: s } = p;
    const headY = y - s * 0.68;
    for (let i = 0; i < 8; i++) {
      const spread = (i - 3.5) / 3.5;
      const baseX = x + spread * s * 0.18;
      const curl = (i % 2 === 0 ? 1 : -1) * s * 0.12;
      taper(
        p,
        i % 2 ? c.body : c.shade,
        [
          [baseX, headY + s * 0.2],
          [baseX + spread * s * 0.3, y - s * 0.25],
          [baseX + spread * s * 0.5 + curl, y - s * 0.05],
          [baseX + spread * s * 0.62 - curl * 0.5, y - s * 0.2],
        ],
        s * 0.055,
        s * 0.012,
      );
    }
    fill(p, c.body, ellipse(p, x, headY, s * 0.24, s * 0.3));
    fill(p, c.lightSide, ellipse(p, x - s * 0.07, headY - s * 0.1, s * 0.09, s * 0.13), 0.6);
    eye(p, x - s * 0.09, headY + s * 0.13, s * 0.05);
    eye(p, x + s * 0.09, headY + s * 0.13, s * 0.05);
    for (let i = 0; i < 7; i++)
      fill(p, c.lightSide, circle(p, x + (i - 3) * s * 0.09, y - s * 0.16 + Math.abs(i - 3) * s * 0.03, s * 0.012), 0.8);
  },
  fish(p, c) {
    const { x, y, size: s, random } = p;
    for (let i = 0; i < 5; i++) {
      const fx = x + (i - 2) * s * 0.34 + random.range(-0.05, 0.05) * s;
      const fy = y - s * (0.3 + 0.45 * random.next());
      const r = s * (i === 2 ? 0.2 : 0.12);
      const hue = mix(c.body, hsl(190 + i * 30, 80, 55), (i % 3) * 0.35);
      fill(p, hue, around(p, fx, fy, r, [-1.1, 0, -1.7, -0.6, -1.7, 0.6]));
      fill(p, hue, ellipse(p, fx, fy, r * 1.2, r * 0.7));
      fill(p, [255, 255, 255], rect(p, fx - r * 0.3, fy - r * 0.62, r * 0.18, r * 1.24), 0.7);
      eye(p, fx + r * 0.65, fy - r * 0.12, r * 0.16);
    }
    for (let i = 0; i < 6; i++) fill(p, hsl(340 + i * 12, 60, 55), ellipse(p, x + (i - 2.5) * s * 0.22, y, s * 0.06, s * 0.16), 0.9);
  },
  whale(p, c) {
    const { x, y, size: s } = p;
    const w = s * 1.5;
    fill(p, c.body, () => {
      p.ctx.moveTo(x - w * 0.5, y - s * 0.35);
      p.ctx.bezierCurveTo(x - w * 0.45, y - s * 0.85, x + w * 0.25, y - s * 0.75, x + w * 0.42, y - s * 0.4);
      p.ctx.lineTo(x + w * 0.62, y - s * 0.62);
      p.ctx.lineTo(x + w * 0.58, y - s * 0.25);
      p.ctx.bezierCurveTo(x + w * 0.2, y - s * 0.1, x - w * 0.4, y - s * 0.05, x - w * 0.5, y - s * 0.35);
    });
    fill(p, c.lightSide, ellipse(p, x - w * 0.12, y - s * 0.2, w * 0.32, s * 0.09), 0.8);
    eye(p, x - w * 0.33, y - s * 0.38, s * 0.035);
    stroke(
      p,
      [255, 255, 255],
      s * 0.02,
      () => {
        p.ctx.moveTo(x - w * 0.3, y - s * 0.82);
        p.ctx.quadraticCurveTo(x - w * 0.34, y - s * 1.0, x - w * 0.42, y - s * 1.02);
        p.ctx.moveTo(x - w * 0.3, y - s * 0.82);
        p.ctx.quadraticCurveTo(x - w * 0.26, y - s * 1.0, x - w * 0.18, y - s * 1.02);
      },
      0.8,
    );
  },
  turtle(p, c) {
    const { x, y, size: s } = p;
    fourLegs(p, c, x, y, s * 0.9, s * 0.22, s * 0.14);
    fill(p, c.body, ellipse(p, x + s * 0.52, y - s * 0.3, s * 0.14, s * 0.11));
    eye(p, x + s * 0.57, y - s * 0.33, s * 0.025);
    fill(p, c.shade, ellipse(p, x, y - s * 0.3, s * 0.48, s * 0.34));
    for (const [dx, dy] of [
      [0, -0.42],
      [-0.2, -0.32],
      [0.2, -0.32],
      [-0.12, -0.18],
      [0.12, -0.18],
    ])
      fill(p, c.lightSide, ellipse(p, x + dx! * s, y + dy! * s, s * 0.1, s * 0.07), 0.7);
  },
  volcano(p, c) {
    const { x, y, size: s } = p;
    const top = y - s;
    fill(p, c.body, flatTopped(p, y, top, [x - s * 1.1, x - s * 0.16, x + s * 0.16, x + s * 1.1]));
    fill(p, c.lightSide, flatTopped(p, y, top, [x - s * 1.1, x - s * 0.16, x - s * 0.02, x - s * 0.5]), 0.35);
    const lava = hsl(18, 100, 55);
    for (const [dx, len] of [
      [-0.08, 0.55],
      [0.05, 0.75],
      [0.12, 0.4],
    ]) {
      stroke(p, lava, s * 0.035, () => {
        p.ctx.moveTo(x + dx! * s, top + s * 0.02);
        p.ctx.quadraticCurveTo(x + dx! * s * 2.5, top + len! * s * 0.5, x + dx! * s * 4, top + len! * s);
      });
    }
    const glowAt = p.ctx.createRadialGradient(x, top, 0, x, top, s * 0.5);
    glowAt.addColorStop(0, 'rgba(255,170,60,0.85)');
    glowAt.addColorStop(1, 'rgba(255,80,20,0)');
    fill(p, glowAt, circle(p, x, top, s * 0.5));
    for (let i = 0; i < 7; i++)
      fill(
        p,
        mix(p.dark, [120, 110, 110], 0.5),
        circle(p, x + (i % 2 ? 1 : -1) * i * s * 0.05, top - s * (0.15 + i * 0.1), s * (0.1 + i * 0.03)),
        0.55,
      );
  },
  mountain(p, c) {
    const { x, y, size: s } = p;
    const top = y - s;
    fill(p, c.body, flatTopped(p, y, top, [x - s * 1.2, x - s * 0.08, x + s * 0.08, x + s * 1.2]));
    fill(
      p,
      c.shade,
      polygon(p, [
        [x + s * 0.08, top],
        [x + s * 1.2, y],
        [x + s * 0.3, y],
      ]),
      0.5,
    );
    fill(p, [248, 250, 255], around(p, x, top, s, [-0.08, 0, 0.08, 0, 0.36, 0.28, 0.18, 0.24, 0.05, 0.32, -0.1, 0.24, -0.34, 0.3]));
  },
  river(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.body, () => {
      p.ctx.moveTo(x - s * 0.06, y - s);
      p.ctx.bezierCurveTo(x + s * 0.5, y - s * 0.7, x - s * 0.9, y - s * 0.35, x - s * 0.3, y);
      p.ctx.lineTo(x + s * 0.9, y);
      p.ctx.bezierCurveTo(x + s * 0.2, y - s * 0.35, x + s * 0.7, y - s * 0.7, x + s * 0.06, y - s);
    });
    for (let i = 0; i < 6; i++)
      stroke(
        p,
        [255, 255, 255],
        s * 0.01,
        () =>
          p.ctx.ellipse(
            x - s * 0.05 + (i % 2) * s * 0.2,
            y - s * (0.12 + i * 0.14),
            s * 0.12 * (1 - i * 0.12),
            s * 0.01,
            0,
            0,
            Math.PI * 2,
          ),
        0.5,
      );
  },
  planet(p, c) {
    const { x, y, size: s } = p;
    const r = s * 0.32;
    fill(p, c.body, circle(p, x, y, r));
    for (let i = -2; i <= 2; i++) fill(p, c.shade, ellipse(p, x, y + i * r * 0.32, r * Math.sqrt(1 - (i * 0.32) ** 2), r * 0.07), 0.45);
    fill(p, [0, 0, 0], ellipse(p, x + r * 0.25, y + r * 0.2, r * 0.85, r * 0.85), 0.25);
    stroke(p, mix(c.lightSide, [255, 255, 255], 0.3), r * 0.08, () => p.ctx.ellipse(x, y, r * 1.75, r * 0.42, -0.3, 0, Math.PI * 2), 0.85);
    fill(p, hsl(10, 60, 55), circle(p, x - s * 0.9, y - s * 0.55, r * 0.28));
    fill(p, hsl(200, 40, 75), circle(p, x + s * 0.85, y + s * 0.45, r * 0.18));
  },
  moon(p, c) {
    const { x, y, size: s } = p;
    const r = s * 0.38;
    const halo = p.ctx.createRadialGradient(x, y, r, x, y, r * 2.2);
    halo.addColorStop(0, 'rgba(230,235,255,0.45)');
    halo.addColorStop(1, 'rgba(230,235,255,0)');
    fill(p, halo, circle(p, x, y, r * 2.2));
    fill(p, c.body, circle(p, x, y, r));
    for (const [dx, dy, rr] of [
      [-0.3, -0.2, 0.18],
      [0.25, 0.1, 0.24],
      [-0.05, 0.4, 0.12],
      [0.35, -0.35, 0.1],
    ])
      fill(p, c.shade, circle(p, x + dx! * r, y + dy! * r, rr! * r), 0.45);
  },
  rocket(p, c) {
    const { x, y, size: s } = p;
    const w = s * 0.18;
    const flame = p.ctx.createLinearGradient(x, y - s * 0.25, x, y + s * 0.1);
    flame.addColorStop(0, 'rgba(255,240,180,1)');
    flame.addColorStop(1, 'rgba(255,90,20,0)');
    fill(
      p,
      flame,
      polygon(p, [
        [x - w * 0.7, y - s * 0.22],
        [x + w * 0.7, y - s * 0.22],
        [x, y + s * 0.12],
      ]),
    );
    fill(
      p,
      hsl(5, 75, 50),
      polygon(p, [
        [x - w, y - s * 0.45],
        [x - w * 2, y - s * 0.2],
        [x - w, y - s * 0.25],
      ]),
    );
    fill(
      p,
      hsl(5, 75, 50),
      polygon(p, [
        [x + w, y - s * 0.45],
        [x + w * 2, y - s * 0.2],
        [x + w, y - s * 0.25],
      ]),
    );
    fill(p, c.body, () => {
      p.ctx.moveTo(x, y - s);
      p.ctx.quadraticCurveTo(x + w * 1.3, y - s * 0.7, x + w, y - s * 0.25);
      p.ctx.lineTo(x - w, y - s * 0.25);
      p.ctx.quadraticCurveTo(x - w * 1.3, y - s * 0.7, x, y - s);
    });
    fill(
      p,
      c.shade,
      polygon(p, [
        [x + w * 0.2, y - s * 0.9],
        [x + w, y - s * 0.25],
        [x + w * 0.3, y - s * 0.25],
      ]),
      0.4,
    );
    fill(p, hsl(200, 70, 60), circle(p, x, y - s * 0.62, w * 0.45));
    stroke(p, c.ink, w * 0.12, circle(p, x, y - s * 0.62, w * 0.45));
  },
  galaxy(p, c) {
    const { x, y, size: s, random } = p;
    for (let arm = 0; arm < 2; arm++) {
      for (let i = 0; i < 220; i++) {
        const t = i / 220;
        const angle = arm * Math.PI + t * Math.PI * 3.2;
        const radius = t * s * 0.7;
        const jitter = s * 0.05 * (1 - t * 0.5);
        fill(
          p,
          mix(c.body, [255, 255, 255], random.next() * 0.6),
          circle(
            p,
            x + Math.cos(angle) * radius * 1.4 + random.range(-jitter, jitter),
            y + Math.sin(angle) * radius * 0.6 + random.range(-jitter, jitter),
            s * 0.006 * (1 + random.next() * 2),
          ),
          0.8,
        );
      }
    }
    const core = p.ctx.createRadialGradient(x, y, 0, x, y, s * 0.3);
    core.addColorStop(0, 'rgba(255,245,230,0.95)');
    core.addColorStop(1, 'rgba(200,150,255,0)');
    fill(p, core, ellipse(p, x, y, s * 0.42, s * 0.2));
  },
  sun(p) {
    const { x, y, size: s } = p;
    const r = s * 0.3;
    for (let i = 0; i < 12; i++) {
      const a = (i / 12) * Math.PI * 2;
      stroke(
        p,
        hsl(45, 100, 70),
        s * 0.03,
        () => {
          p.ctx.moveTo(x + Math.cos(a) * r * 1.25, y + Math.sin(a) * r * 1.25);
          p.ctx.lineTo(x + Math.cos(a) * r * 1.7, y + Math.sin(a) * r * 1.7);
        },
        0.9,
      );
    }
    const disc = p.ctx.createRadialGradient(x, y, 0, x, y, r);
    disc.addColorStop(0, 'rgb(255,250,210)');
    disc.addColorStop(1, 'rgb(255,190,60)');
    fill(p, disc, circle(p, x, y, r));
  },
  earth(p) {
    const { x, y, size: s } = p;
    const r = s * 0.4;
    const sea = p.ctx.createRadialGradient(x - r * 0.3, y - r * 0.3, r * 0.1, x, y, r);
    sea.addColorStop(0, 'rgb(90,170,235)');
    sea.addColorStop(1, 'rgb(20,70,150)');
    fill(p, sea, circle(p, x, y, r));
    p.ctx.save();
    p.ctx.beginPath();
    p.ctx.arc(x, y, r, 0, Math.PI * 2);
    p.ctx.clip();
    const land = hsl(110, 45, 40);
    fill(p, land, around(p, x, y, r, [-0.6, -0.7, -0.1, -0.55, -0.2, -0.1, -0.45, 0.2, -0.8, -0.1]));
    fill(p, land, around(p, x, y, r, [0.1, -0.3, 0.6, -0.45, 0.75, 0.1, 0.35, 0.6, 0.15, 0.2]));
    for (let i = 0; i < 4; i++)
      fill(p, [255, 255, 255], ellipse(p, x + (i - 1.5) * r * 0.5, y + (i % 2 ? -0.45 : 0.45) * r, r * 0.3, r * 0.06, 0.2), 0.6);
    p.ctx.restore();
    stroke(p, [150, 200, 255], r * 0.05, circle(p, x, y, r * 1.03), 0.5);
  },
  books(p, c) {
    const { x, y, size: s } = p;
    const hues = [350, 210, 40, 140, 280, 20];
    let left = x - s * 0.5;
    hues.forEach((hue, i) => {
      const h = s * (0.7 + ((i * 37) % 25) / 100);
      const w = s * (0.13 + ((i * 13) % 6) / 100);
      fill(p, mix(hsl(hue, 55, 42), c.body, 0.2), rect(p, left, y - h, w, h, w * 0.08));
      fill(p, [240, 220, 160], rect(p, left + w * 0.15, y - h * 0.8, w * 0.7, h * 0.08), 0.8);
      left += w + s * 0.015;
    });
    fill(p, hsl(25, 45, 55), around(p, left, y, s, [0.02, 0, 0.3, -0.72, 0.42, -0.68, 0.16, 0]));
  },
  food(p, c) {
    const { x, y, size: s } = p;
    fill(p, [245, 245, 240], ellipse(p, x, y - s * 0.1, s * 0.7, s * 0.16));
    fill(p, c.body, ellipse(p, x, y - s * 0.2, s * 0.5, s * 0.2));
    fill(p, hsl(45, 90, 65), ellipse(p, x, y - s * 0.28, s * 0.45, s * 0.14));
    for (const [dx, hue] of [
      [-0.25, 0],
      [0, 120],
      [0.22, 0],
      [-0.1, 30],
      [0.1, 120],
    ])
      fill(p, hsl(hue!, 70, 45), circle(p, x + dx! * s, y - s * 0.3 + ((dx! * 7) % 1) * s * 0.05, s * 0.06));
    steam(p, { spacing: 0.15, sway: 0.08, rise: [0.5, 0.65, 0.8, 0.95], width: 0.02, alpha: 0.5 });
  },
  coffee(p, c) {
    const { x, y, size: s } = p;
    fill(p, [240, 240, 236], ellipse(p, x, y - s * 0.05, s * 0.45, s * 0.08));
    stroke(p, c.body, s * 0.06, () => p.ctx.ellipse(x + s * 0.3, y - s * 0.32, s * 0.12, s * 0.14, 0, 0, Math.PI * 2));
    fill(p, c.body, () => {
      p.ctx.moveTo(x - s * 0.3, y - s * 0.55);
      p.ctx.lineTo(x + s * 0.3, y - s * 0.55);
      p.ctx.quadraticCurveTo(x + s * 0.28, y - s * 0.08, x, y - s * 0.08);
      p.ctx.quadraticCurveTo(x - s * 0.28, y - s * 0.08, x - s * 0.3, y - s * 0.55);
    });
    fill(p, hsl(25, 60, 25), ellipse(p, x, y - s * 0.55, s * 0.3, s * 0.06));
    steam(p, { spacing: 0.12, sway: 0.07, rise: [0.62, 0.75, 0.88, 1], width: 0.025, alpha: 0.55 });
  },
  music(p, c) {
    const { x, y, size: s } = p;
    const note = (nx: number, ny: number, r: number, pair: boolean) => {
      fill(p, c.body, ellipse(p, nx, ny, r * 1.3, r, -0.4));
      fill(p, c.body, rect(p, nx + r * 1.05, ny - r * 4.2, r * 0.3, r * 4.2));
      if (pair) {
        fill(p, c.body, ellipse(p, nx + r * 3.2, ny - r * 0.6, r * 1.3, r, -0.4));
        fill(p, c.body, rect(p, nx + r * 4.25, ny - r * 4.8, r * 0.3, r * 4.2));
        fill(p, c.body, around(p, nx, ny, r, [1.05, -4.2, 4.55, -4.8, 4.55, -4.0, 1.05, -3.4]));
      } else fill(p, c.body, around(p, nx, ny, r, [1.35, -4.2, 2.6, -2.8, 1.35, -3.3]));
    };
    note(x - s * 0.4, y + s * 0.2, s * 0.1, true);
    note(x + s * 0.35, y - s * 0.05, s * 0.08, false);
    note(x - s * 0.05, y - s * 0.4, s * 0.06, false);
    for (let i = 0; i < 5; i++)
      stroke(
        p,
        c.lightSide,
        s * 0.008,
        () => {
          p.ctx.moveTo(x - s, y + s * 0.35 + i * s * 0.05);
          p.ctx.bezierCurveTo(
            x - s * 0.3,
            y + s * 0.1 + i * s * 0.05,
            x + s * 0.3,
            y + s * 0.45 + i * s * 0.05,
            x + s,
            y + s * 0.2 + i * s * 0.05,
          );
        },
        0.5,
      );
  },
  sport(p, c) {
    const { x, y, size: s } = p;
    const r = s * 0.35;
    fill(p, c.body, circle(p, x, y - r, r));
    const pent = (cx: number, cy: number, rr: number) =>
      polygon(
        p,
        Array.from(
          { length: 5 },
          (_, i) =>
            [cx + Math.cos(-Math.PI / 2 + (i * 2 * Math.PI) / 5) * rr, cy + Math.sin(-Math.PI / 2 + (i * 2 * Math.PI) / 5) * rr] as const,
        ),
      );
    fill(p, [25, 25, 30], pent(x, y - r, r * 0.3));
    for (let i = 0; i < 5; i++) {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
      fill(p, [25, 25, 30], pent(x + Math.cos(a) * r * 0.78, y - r + Math.sin(a) * r * 0.78, r * 0.2));
    }
    fill(p, [0, 0, 0], ellipse(p, x + r * 0.2, y - r * 0.8, r, r), 0.12);
    fill(p, [0, 0, 0], ellipse(p, x, y + s * 0.01, r * 0.9, r * 0.1), 0.3);
  },
  machine(p, c) {
    const { x, y, size: s } = p;
    const gear = (gx: number, gy: number, r: number, teeth: number, tone: Rgb) => {
      fill(p, tone, () => {
        for (let i = 0; i < teeth * 2; i++) {
          const a = (i / (teeth * 2)) * Math.PI * 2;
          const rr = i % 2 ? r : r * 1.18;
          const a2 = a + Math.PI / (teeth * 2);
          if (i === 0) p.ctx.moveTo(gx + Math.cos(a) * rr, gy + Math.sin(a) * rr);
          else p.ctx.lineTo(gx + Math.cos(a) * rr, gy + Math.sin(a) * rr);
          p.ctx.lineTo(gx + Math.cos(a2) * rr, gy + Math.sin(a2) * rr);
        }
        p.ctx.closePath();
      });
      fill(p, c.shade, circle(p, gx, gy, r * 0.55));
      fill(p, tone, circle(p, gx, gy, r * 0.3));
    };
    gear(x - s * 0.2, y, s * 0.34, 12, c.body);
    gear(x + s * 0.33, y - s * 0.28, s * 0.22, 9, c.lightSide);
    gear(x + s * 0.3, y + s * 0.3, s * 0.16, 8, c.body);
  },
  robot(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.shade, rect(p, x - s * 0.16, y - s * 0.3, s * 0.1, s * 0.3, s * 0.03));
    fill(p, c.shade, rect(p, x + s * 0.06, y - s * 0.3, s * 0.1, s * 0.3, s * 0.03));
    fill(p, c.body, rect(p, x - s * 0.24, y - s * 0.66, s * 0.48, s * 0.38, s * 0.05));
    fill(p, c.shade, rect(p, x - s * 0.36, y - s * 0.62, s * 0.1, s * 0.3, s * 0.04));
    fill(p, c.shade, rect(p, x + s * 0.26, y - s * 0.62, s * 0.1, s * 0.3, s * 0.04));
    fill(p, c.body, rect(p, x - s * 0.19, y - s * 0.94, s * 0.38, s * 0.26, s * 0.06));
    fill(p, hsl(190, 100, 60), circle(p, x - s * 0.08, y - s * 0.82, s * 0.04));
    fill(p, hsl(190, 100, 60), circle(p, x + s * 0.08, y - s * 0.82, s * 0.04));
    stroke(p, c.shade, s * 0.015, () => {
      p.ctx.moveTo(x, y - s * 0.94);
      p.ctx.lineTo(x, y - s);
    });
    fill(p, hsl(0, 80, 55), circle(p, x, y - s, s * 0.025));
    fill(p, hsl(190, 90, 55), rect(p, x - s * 0.1, y - s * 0.55, s * 0.2, s * 0.1, s * 0.02), 0.8);
  },
  computer(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.body, rect(p, x - s * 0.55, y - s * 0.85, s * 1.1, s * 0.7, s * 0.03));
    const screen = p.ctx.createLinearGradient(x, y - s * 0.8, x, y - s * 0.2);
    screen.addColorStop(0, 'rgb(40,90,160)');
    screen.addColorStop(1, 'rgb(20,40,90)');
    fill(p, screen, rect(p, x - s * 0.5, y - s * 0.8, s, s * 0.6));
    for (let i = 0; i < 6; i++)
      fill(
        p,
        hsl(120 + i * 40, 70, 65),
        rect(p, x - s * 0.44 + (i % 2) * s * 0.08, y - s * 0.74 + i * s * 0.09, s * (0.25 + ((i * 17) % 30) / 100), s * 0.03),
        0.85,
      );
    fill(p, c.shade, around(p, x, y, s, [-0.65, 0, 0.65, 0, 0.55, -0.13, -0.55, -0.13]));
  },
  phone(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.body, rect(p, x - s * 0.26, y - s, s * 0.52, s, s * 0.07));
    const screen = p.ctx.createLinearGradient(x, y - s, x, y);
    screen.addColorStop(0, 'rgb(255,120,150)');
    screen.addColorStop(1, 'rgb(120,90,255)');
    fill(p, screen, rect(p, x - s * 0.23, y - s * 0.94, s * 0.46, s * 0.88, s * 0.04));
    for (let i = 0; i < 3; i++)
      fill(p, [255, 255, 255], rect(p, x - s * 0.18, y - s * (0.8 - i * 0.25), s * 0.36, s * 0.18, s * 0.03), 0.75);
    fill(p, hsl(350, 90, 60), () => heartPath(p, x + s * 0.35, y - s * 0.75, s * 0.12));
  },
  heart(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.body, () => heartPath(p, x, y - s * 0.1, s * 0.55));
    fill(p, c.lightSide, ellipse(p, x - s * 0.22, y - s * 0.3, s * 0.1, s * 0.06, -0.6), 0.7);
  },
  brain(p, c) {
    const { x, y, size: s } = p;
    const glowAt = p.ctx.createRadialGradient(x, y, 0, x, y, s * 0.8);
    glowAt.addColorStop(0, 'rgba(255,200,230,0.4)');
    glowAt.addColorStop(1, 'rgba(255,200,230,0)');
    fill(p, glowAt, circle(p, x, y, s * 0.8));
    for (const [dx, dy, r] of [
      [-0.22, -0.1, 0.22],
      [0.0, -0.2, 0.24],
      [0.22, -0.1, 0.22],
      [-0.15, 0.1, 0.2],
      [0.15, 0.1, 0.2],
      [0.3, 0.08, 0.14],
      [-0.3, 0.08, 0.14],
    ])
      fill(p, c.body, circle(p, x + dx! * s, y + dy! * s, r! * s));
    for (let i = 0; i < 7; i++)
      stroke(
        p,
        c.shade,
        s * 0.018,
        () => {
          p.ctx.moveTo(x + (i - 3) * s * 0.1, y - s * 0.25);
          p.ctx.bezierCurveTo(
            x + (i - 3) * s * 0.1 + s * 0.08,
            y - s * 0.1,
            x + (i - 3) * s * 0.1 - s * 0.08,
            y + s * 0.05,
            x + (i - 3) * s * 0.1,
            y + s * 0.2,
          );
        },
        0.6,
      );
    stroke(
      p,
      c.shade,
      s * 0.02,
      () => {
        p.ctx.moveTo(x, y - s * 0.42);
        p.ctx.lineTo(x, y + s * 0.25);
      },
      0.7,
    );
  },
  cat(p, c) {
    const { x, y, size: s } = p;
    stroke(p, c.body, s * 0.07, () => {
      p.ctx.moveTo(x + s * 0.25, y - s * 0.08);
      p.ctx.bezierCurveTo(x + s * 0.6, y - s * 0.1, x + s * 0.6, y - s * 0.6, x + s * 0.42, y - s * 0.7);
    });
    fill(p, c.body, ellipse(p, x, y - s * 0.28, s * 0.3, s * 0.28));
    fill(p, c.body, circle(p, x - s * 0.08, y - s * 0.68, s * 0.2));
    fill(p, c.body, around(p, x, y, s, [-0.26, -0.74, -0.24, -1, -0.1, -0.84]));
    fill(p, c.body, around(p, x, y, s, [0.1, -0.74, 0.08, -1, -0.06, -0.84]));
    eye(p, x - s * 0.15, y - s * 0.7, s * 0.04);
    eye(p, x + s * 0.0, y - s * 0.7, s * 0.04);
    fill(p, hsl(350, 60, 65), around(p, x, y, s, [-0.1, -0.62, -0.05, -0.62, -0.075, -0.59]));
    for (const side of [-1, 1])
      stroke(
        p,
        [250, 250, 250],
        s * 0.006,
        () => {
          p.ctx.moveTo(x - s * 0.075 + side * s * 0.05, y - s * 0.6);
          p.ctx.lineTo(x - s * 0.075 + side * s * 0.22, y - s * 0.62);
        },
        0.8,
      );
  },
  dog(p, c) {
    const { x, y, size: s } = p;
    legsBodyTail(p, c, [0.8, 0.35, 0.1], [-0.42, 0.42, 0.16], 0.06, [-0.38, -0.48, -0.55, -0.6, -0.5, -0.78]);
    fill(p, c.body, circle(p, x + s * 0.42, y - s * 0.66, s * 0.16));
    fill(p, c.body, ellipse(p, x + s * 0.58, y - s * 0.6, s * 0.12, s * 0.07));
    fill(p, c.shade, ellipse(p, x + s * 0.34, y - s * 0.62, s * 0.06, s * 0.14, 0.3));
    fill(p, [20, 20, 20], circle(p, x + s * 0.69, y - s * 0.62, s * 0.03));
    eye(p, x + s * 0.47, y - s * 0.7, s * 0.03);
  },
  bird(p, c) {
    const { x, y, size: s, random } = p;
    for (let i = 0; i < 5; i++) {
      const bx = x + (i - 2) * s * 0.35 + random.range(-0.05, 0.05) * s;
      const by = y + Math.abs(i - 2) * s * 0.15;
      const w = s * (i === 2 ? 0.35 : 0.2);
      fill(p, i === 2 ? c.body : c.shade, () => {
        p.ctx.moveTo(bx - w, by - w * 0.3);
        p.ctx.quadraticCurveTo(bx - w * 0.5, by - w * 0.6, bx, by);
        p.ctx.quadraticCurveTo(bx + w * 0.5, by - w * 0.6, bx + w, by - w * 0.3);
        p.ctx.quadraticCurveTo(bx + w * 0.5, by - w * 0.2, bx, by + w * 0.15);
        p.ctx.quadraticCurveTo(bx - w * 0.5, by - w * 0.2, bx - w, by - w * 0.3);
      });
    }
  },
  butterfly(p, c) {
    const { x, y, size: s } = p;
    for (const side of [-1, 1]) {
      fill(p, c.body, ellipse(p, x + side * s * 0.22, y - s * 0.15, s * 0.24, s * 0.2, side * 0.5));
      fill(p, mix(c.body, hsl(280, 70, 55), 0.5), ellipse(p, x + side * s * 0.16, y + s * 0.14, s * 0.14, s * 0.12, -side * 0.5));
      fill(p, [255, 255, 255], circle(p, x + side * s * 0.28, y - s * 0.2, s * 0.05), 0.8);
    }
    fill(p, [30, 25, 30], ellipse(p, x, y, s * 0.035, s * 0.2));
    for (const side of [-1, 1])
      stroke(p, [30, 25, 30], s * 0.01, () => {
        p.ctx.moveTo(x, y - s * 0.18);
        p.ctx.quadraticCurveTo(x + side * s * 0.05, y - s * 0.3, x + side * s * 0.1, y - s * 0.34);
      });
  },
  elephant(p, c) {
    const { x, y, size: s } = p;
    fourLegs(p, c, x, y, s * 0.9, s * 0.4, s * 0.16);
    fill(p, c.body, ellipse(p, x, y - s * 0.55, s * 0.48, s * 0.3));
    fill(p, c.body, circle(p, x + s * 0.45, y - s * 0.7, s * 0.2));
    fill(p, c.shade, ellipse(p, x + s * 0.34, y - s * 0.66, s * 0.14, s * 0.2));
    taper(
      p,
      c.body,
      [
        [x + s * 0.58, y - s * 0.62],
        [x + s * 0.7, y - s * 0.4],
        [x + s * 0.66, y - s * 0.2],
        [x + s * 0.74, y - s * 0.1],
      ],
      s * 0.07,
      s * 0.035,
    );
    fill(p, [245, 240, 225], around(p, x, y, s, [0.55, -0.56, 0.7, -0.48, 0.56, -0.5]));
    eye(p, x + s * 0.5, y - s * 0.76, s * 0.025);
  },
  lion(p, c) {
    const { x, y, size: s } = p;
    legsBodyTail(p, c, [0.9, 0.35, 0.12], [-0.45, 0.45, 0.18], 0.04, [-0.42, -0.48, -0.7, -0.4, -0.62, -0.7]);
    fill(p, hsl(25, 65, 32), circle(p, x + s * 0.42, y - s * 0.66, s * 0.26));
    fill(p, c.lightSide, circle(p, x + s * 0.46, y - s * 0.64, s * 0.15));
    eye(p, x + s * 0.42, y - s * 0.7, s * 0.025);
    eye(p, x + s * 0.52, y - s * 0.7, s * 0.025);
    fill(p, [40, 25, 20], circle(p, x + s * 0.48, y - s * 0.6, s * 0.025));
  },
  dinosaur(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.body, () => {
      p.ctx.moveTo(x - s * 0.9, y - s * 0.35);
      p.ctx.quadraticCurveTo(x - s * 0.3, y - s * 0.55, x, y - s * 0.55);
      p.ctx.quadraticCurveTo(x + s * 0.25, y - s * 0.55, x + s * 0.3, y - s * 0.8);
      p.ctx.lineTo(x + s * 0.6, y - s * 0.85);
      p.ctx.lineTo(x + s * 0.62, y - s * 0.7);
      p.ctx.lineTo(x + s * 0.42, y - s * 0.68);
      p.ctx.quadraticCurveTo(x + s * 0.35, y - s * 0.4, x + s * 0.15, y - s * 0.32);
      p.ctx.quadraticCurveTo(x - s * 0.3, y - s * 0.25, x - s * 0.9, y - s * 0.35);
    });
    fill(p, c.shade, rect(p, x - s * 0.1, y - s * 0.36, s * 0.1, s * 0.36, s * 0.03));
    fill(p, c.body, rect(p, x + s * 0.05, y - s * 0.36, s * 0.1, s * 0.36, s * 0.03));
    stroke(p, c.body, s * 0.025, () => {
      p.ctx.moveTo(x + s * 0.28, y - s * 0.5);
      p.ctx.lineTo(x + s * 0.36, y - s * 0.44);
    });
    eye(p, x + s * 0.45, y - s * 0.79, s * 0.022);
    for (let i = 0; i < 5; i++)
      fill(
        p,
        c.lightSide,
        polygon(p, [
          [x - s * 0.45 + i * s * 0.12, y - s * 0.45 - (i > 2 ? 0.05 : 0) * s],
          [x - s * 0.4 + i * s * 0.12, y - s * 0.55],
          [x - s * 0.35 + i * s * 0.12, y - s * 0.47],
        ]),
      );
  },
  flower(p, c) {
    const { x, y, size: s } = p;
    for (const [dx, h, r] of [
      [-0.4, 0.6, 0.13],
      [0, 0.85, 0.18],
      [0.38, 0.55, 0.12],
    ]) {
      const fx = x + dx! * s;
      const fy = y - h! * s;
      stroke(p, hsl(120, 45, 32), s * 0.025, () => {
        p.ctx.moveTo(fx, y);
        p.ctx.quadraticCurveTo(fx + s * 0.05, y - h! * s * 0.5, fx, fy);
      });
      fill(p, hsl(120, 45, 36), ellipse(p, fx + s * 0.06, y - h! * s * 0.4, s * 0.07, s * 0.03, -0.5));
      for (let i = 0; i < 6; i++) {
        const a = (i / 6) * Math.PI * 2;
        fill(p, c.body, ellipse(p, fx + Math.cos(a) * r! * s * 0.7, fy + Math.sin(a) * r! * s * 0.7, r! * s * 0.55, r! * s * 0.35, a));
      }
      fill(p, hsl(45, 95, 55), circle(p, fx, fy, r! * s * 0.35));
    }
  },
  tree(p, c) {
    const { x, y, size: s } = p;
    fill(p, hsl(25, 35, 25), around(p, x, y, s, [-0.07, 0, -0.04, -0.5, 0.04, -0.5, 0.08, 0]));
    for (const [dx, dy, r, tone] of [
      [-0.22, -0.55, 0.26, 'shade'],
      [0.22, -0.58, 0.26, 'shade'],
      [0, -0.78, 0.3, 'body'],
      [-0.12, -0.6, 0.22, 'body'],
      [0.14, -0.66, 0.22, 'lightSide'],
    ] as const)
      fill(p, c[tone], circle(p, x + dx * s, y + dy * s, r * s));
  },
  city(p, c) {
    const { x, y, size: s } = p;
    const heights = [0.55, 0.8, 1, 0.7, 0.9, 0.6];
    heights.forEach((h, i) => {
      const bx = x - s * 0.66 + i * s * 0.22;
      fill(p, i % 2 ? c.body : c.shade, rect(p, bx, y - h * s, s * 0.2, h * s));
      for (let row = 0; row < Math.floor(h * 10); row++)
        for (let col = 0; col < 3; col++)
          if ((row * 7 + col * 3 + i) % 4)
            fill(
              p,
              hsl(45, 100, 70),
              rect(p, bx + s * 0.03 + col * s * 0.055, y - h * s + s * 0.05 + row * s * 0.09, s * 0.03, s * 0.045),
              0.85,
            );
    });
    fill(
      p,
      c.body,
      polygon(p, [
        [x - s * 0.22 + s * 0.1 - s * 0.01, y - s],
        [x - s * 0.22 + s * 0.1, y - s * 1.2],
        [x - s * 0.22 + s * 0.1 + s * 0.01, y - s],
      ]),
    );
  },
  car(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.body, () => {
      p.ctx.moveTo(x - s * 0.8, y - s * 0.15);
      p.ctx.lineTo(x - s * 0.8, y - s * 0.38);
      p.ctx.quadraticCurveTo(x - s * 0.75, y - s * 0.45, x - s * 0.45, y - s * 0.48);
      p.ctx.lineTo(x - s * 0.25, y - s * 0.7);
      p.ctx.lineTo(x + s * 0.3, y - s * 0.7);
      p.ctx.lineTo(x + s * 0.5, y - s * 0.48);
      p.ctx.quadraticCurveTo(x + s * 0.8, y - s * 0.45, x + s * 0.82, y - s * 0.3);
      p.ctx.lineTo(x + s * 0.82, y - s * 0.15);
      p.ctx.closePath();
    });
    fill(p, hsl(200, 40, 75), around(p, x, y, s, [-0.38, -0.48, -0.2, -0.64, 0.02, -0.64, 0.02, -0.48]), 0.9);
    fill(p, hsl(200, 40, 75), around(p, x, y, s, [0.08, -0.48, 0.08, -0.64, 0.27, -0.64, 0.42, -0.48]), 0.9);
    for (const wx of [-0.45, 0.48]) {
      fill(p, [25, 25, 28], circle(p, x + wx * s, y - s * 0.15, s * 0.15));
      fill(p, [170, 170, 175], circle(p, x + wx * s, y - s * 0.15, s * 0.07));
    }
    fill(p, hsl(50, 100, 80), ellipse(p, x + s * 0.78, y - s * 0.33, s * 0.04, s * 0.03));
  },
  train(p, c) {
    const { x, y, size: s } = p;
    stroke(p, [60, 55, 50], s * 0.02, () => {
      p.ctx.moveTo(x - s * 1.3, y);
      p.ctx.lineTo(x + s * 1.3, y);
    });
    fill(p, c.body, () => {
      p.ctx.moveTo(x - s * 1.1, y - s * 0.08);
      p.ctx.lineTo(x - s * 1.1, y - s * 0.55);
      p.ctx.lineTo(x + s * 0.5, y - s * 0.55);
      p.ctx.quadraticCurveTo(x + s * 1.1, y - s * 0.5, x + s * 1.15, y - s * 0.08);
      p.ctx.closePath();
    });
    fill(p, [255, 255, 255], rect(p, x - s * 1.1, y - s * 0.22, s * 2.15, s * 0.04), 0.8);
    for (let i = 0; i < 6; i++)
      fill(p, hsl(200, 50, 80), rect(p, x - s * 1.0 + i * s * 0.25, y - s * 0.45, s * 0.17, s * 0.13, s * 0.02), 0.9);
    fill(p, hsl(200, 50, 80), around(p, x, y, s, [0.55, -0.5, 0.85, -0.42, 0.95, -0.3, 0.55, -0.3]), 0.9);
  },
  airplane(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.shade, around(p, x, y, s, [-0.1, 0, -0.45, 0.45, -0.3, 0.45, 0.15, 0.02]));
    fill(p, c.body, ellipse(p, x, y, s * 0.75, s * 0.1));
    fill(p, c.body, around(p, x, y, s, [-0.1, 0, -0.42, -0.48, -0.27, -0.48, 0.18, 0]));
    fill(p, c.body, around(p, x, y, s, [-0.62, 0, -0.75, -0.28, -0.65, -0.28, -0.5, 0]));
    for (let i = 0; i < 8; i++) fill(p, hsl(210, 40, 45), circle(p, x - s * 0.35 + i * s * 0.1, y - s * 0.02, s * 0.02));
    stroke(
      p,
      [255, 255, 255],
      s * 0.03,
      () => {
        p.ctx.moveTo(x - s * 0.8, y);
        p.ctx.lineTo(x - s * 1.6, y + s * 0.08);
      },
      0.5,
    );
  },
  ship(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.ink, around(p, x, y, s, [-0.75, -0.2, 0.8, -0.2, 0.6, 0.05, -0.6, 0.05]));
    fill(p, c.body, () => {
      p.ctx.moveTo(x - s * 0.05, y - s * 0.25);
      p.ctx.lineTo(x - s * 0.05, y - s);
      p.ctx.quadraticCurveTo(x + s * 0.5, y - s * 0.6, x + s * 0.55, y - s * 0.25);
      p.ctx.closePath();
    });
    fill(p, mix(c.body, [200, 200, 200], 0.3), () => {
      p.ctx.moveTo(x - s * 0.1, y - s * 0.3);
      p.ctx.lineTo(x - s * 0.1, y - s * 0.85);
      p.ctx.quadraticCurveTo(x - s * 0.45, y - s * 0.5, x - s * 0.55, y - s * 0.3);
      p.ctx.closePath();
    });
    stroke(p, [70, 50, 40], s * 0.02, () => {
      p.ctx.moveTo(x - s * 0.07, y - s * 0.2);
      p.ctx.lineTo(x - s * 0.07, y - s * 1.05);
    });
  },
  money(p, c) {
    const { x, y, size: s } = p;
    for (const [dx, dy, r] of [
      [-0.3, 0.2, 0.22],
      [0.28, 0.12, 0.2],
      [0, -0.15, 0.28],
    ]) {
      fill(p, c.shade, circle(p, x + dx! * s, y + dy! * s + s * 0.03, r! * s));
      fill(p, c.body, circle(p, x + dx! * s, y + dy! * s, r! * s));
      stroke(p, c.shade, s * 0.015, circle(p, x + dx! * s, y + dy! * s, r! * s * 0.78));
      fill(p, c.lightSide, ellipse(p, x + dx! * s - r! * s * 0.3, y + dy! * s - r! * s * 0.35, r! * s * 0.22, r! * s * 0.12, -0.6), 0.8);
    }
    p.ctx.font = `bold ${Math.round(s * 0.3)}px sans-serif`;
    p.ctx.textAlign = 'center';
    p.ctx.textBaseline = 'middle';
    p.ctx.fillStyle = css(c.shade);
    p.ctx.fillText('$', x, y - s * 0.14);
  },
  idea(p, c) {
    const { x, y, size: s } = p;
    const glowAt = p.ctx.createRadialGradient(x, y - s * 0.1, 0, x, y - s * 0.1, s * 0.8);
    glowAt.addColorStop(0, 'rgba(255,240,160,0.7)');
    glowAt.addColorStop(1, 'rgba(255,240,160,0)');
    fill(p, glowAt, circle(p, x, y - s * 0.1, s * 0.8));
    fill(p, c.body, circle(p, x, y - s * 0.15, s * 0.3));
    fill(p, c.body, around(p, x, y, s, [-0.17, 0.05, 0.17, 0.05, 0.12, 0.2, -0.12, 0.2]));
    fill(p, [140, 140, 150], rect(p, x - s * 0.12, y + s * 0.2, s * 0.24, s * 0.16, s * 0.03));
    stroke(p, hsl(35, 90, 45), s * 0.015, () => {
      p.ctx.moveTo(x - s * 0.08, y + s * 0.02);
      p.ctx.lineTo(x - s * 0.04, y - s * 0.2);
      p.ctx.lineTo(x, y - s * 0.05);
      p.ctx.lineTo(x + s * 0.04, y - s * 0.2);
      p.ctx.lineTo(x + s * 0.08, y + s * 0.02);
    });
  },
  atom(p, c) {
    const { x, y, size: s } = p;
    for (let i = 0; i < 3; i++)
      stroke(p, c.body, s * 0.025, () => p.ctx.ellipse(x, y, s * 0.55, s * 0.18, (i * Math.PI) / 3, 0, Math.PI * 2), 0.9);
    fill(p, hsl(0, 80, 60), circle(p, x, y, s * 0.09));
    for (let i = 0; i < 3; i++) {
      const a = (i * Math.PI) / 3;
      fill(p, c.lightSide, circle(p, x + Math.cos(a) * s * 0.55, y + Math.sin(a) * s * 0.55, s * 0.04));
    }
  },
  pyramid(p, c) {
    const { x, y, size: s } = p;
    for (const [dx, h] of [
      [-0.7, 0.55],
      [0.55, 0.7],
      [0, 1],
    ] as const) {
      const px = x + dx * s;
      fill(
        p,
        c.body,
        polygon(p, [
          [px - h * s * 0.75, y],
          [px, y - h * s],
          [px + h * s * 0.75, y],
        ]),
      );
      fill(
        p,
        c.shade,
        polygon(p, [
          [px, y - h * s],
          [px + h * s * 0.75, y],
          [px + h * s * 0.15, y],
        ]),
        0.55,
      );
      for (let row = 1; row < 6; row++)
        stroke(
          p,
          c.shade,
          s * 0.004,
          () => {
            const yy = y - h * s * (row / 6);
            const half = h * s * 0.75 * (1 - row / 6);
            p.ctx.moveTo(px - half, yy);
            p.ctx.lineTo(px + half, yy);
          },
          0.4,
        );
    }
  },
  temple(p, c) {
    const { x, y, size: s } = p;
    fill(p, c.shade, rect(p, x - s * 0.7, y - s * 0.1, s * 1.4, s * 0.1));
    for (let i = 0; i < 6; i++) fill(p, c.lightSide, rect(p, x - s * 0.6 + i * s * 0.22, y - s * 0.6, s * 0.1, s * 0.5));
    fill(p, c.body, rect(p, x - s * 0.72, y - s * 0.68, s * 1.44, s * 0.1));
    fill(p, c.body, around(p, x, y, s, [-0.85, -0.68, 0, -1, 0.85, -0.68]));
  },
  clock(p, c) {
    const { x, y, size: s } = p;
    const r = s * 0.4;
    fill(p, c.shade, circle(p, x, y, r * 1.1));
    fill(p, c.body, circle(p, x, y, r));
    for (let i = 0; i < 12; i++) {
      const a = (i / 12) * Math.PI * 2;
      fill(p, c.ink, circle(p, x + Math.cos(a) * r * 0.82, y + Math.sin(a) * r * 0.82, r * (i % 3 ? 0.03 : 0.06)));
    }
    stroke(p, c.ink, r * 0.07, () => {
      p.ctx.moveTo(x, y);
      p.ctx.lineTo(x + r * 0.4, y - r * 0.3);
      p.ctx.moveTo(x, y);
      p.ctx.lineTo(x - r * 0.1, y - r * 0.7);
    });
    fill(p, c.ink, circle(p, x, y, r * 0.06));
  },
  snow(p, c) {
    const { x, y, size: s } = p;
    for (const dx of [-0.3, 0.25]) {
      const px = x + dx * s;
      const h = s * (dx < 0 ? 0.7 : 0.55);
      fill(p, [25, 25, 35], ellipse(p, px, y - h * 0.5, h * 0.28, h * 0.5));
      fill(p, c.body, ellipse(p, px, y - h * 0.45, h * 0.19, h * 0.4));
      fill(p, [25, 25, 35], circle(p, px, y - h * 0.95, h * 0.2));
      eye(p, px + h * 0.06, y - h * 0.98, h * 0.035);
      fill(p, hsl(35, 100, 55), around(p, px, y, h, [0.15, -0.94, 0.3, -0.9, 0.15, -0.86]));
      fill(p, hsl(35, 100, 55), ellipse(p, px, y, h * 0.15, h * 0.04));
    }
  },
};

function heartPath(p: MotifPaint, x: number, y: number, r: number): void {
  p.ctx.moveTo(x, y + r * 0.9);
  p.ctx.bezierCurveTo(x - r * 1.3, y + r * 0.05, x - r * 0.9, y - r * 1.0, x, y - r * 0.45);
  p.ctx.bezierCurveTo(x + r * 0.9, y - r * 1.0, x + r * 1.3, y + r * 0.05, x, y + r * 0.9);
}
