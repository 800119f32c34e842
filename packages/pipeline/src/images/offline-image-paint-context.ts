import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Random } from './offline-image-color.js';
import type { ScenePlan } from './offline-image-plan.js';
import type { Look } from './offline-image-style-table.js';

/** What every layer and filter paints with: the canvas, its size, the scene's plan and its style's look. */
export interface Ctx {
  ctx: SKRSContext2D;
  width: number;
  height: number;
  /** Pixels per pixel of a 1080 short side. */
  unit: number;
  random: Random;
  plan: ScenePlan;
  look: Look;
}
