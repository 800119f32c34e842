import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { Random } from './offline-image-color.js';
import { paintBrushStrokes, paintGrade, paintGrain, paintVignette } from './offline-image-filters.js';
import { paintClouds, paintGroundFog, paintLight, paintRays, paintSky, paintStars, paintTerrain } from './offline-image-layers.js';
import type { Ctx } from './offline-image-paint-context.js';
import type { ScenePlan } from './offline-image-plan.js';
import { LOOKS } from './offline-image-style-table.js';
import { paintArtwork, paintSubject, type SceneArtwork } from './offline-image-subject-layer.js';

export type { SceneArtwork } from './offline-image-subject-layer.js';

/**
 * A scene's picture, painted back to front: the sky and its light, the terrain's layers, the
 * subject and its artworks, then the style's filters over the whole frame.
 */
export function paintScene(plan: ScenePlan, width: number, height: number, random: Random, artwork: SceneArtwork | null = null): Canvas {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const c: Ctx = { ctx, width, height, unit: Math.min(width, height) / 1080, random, plan, look: LOOKS[plan.style] };
  paintSky(c);
  paintStars(c);
  paintLight(c);
  paintClouds(c);
  paintRays(c);
  paintTerrain(c);
  paintSubject(c);
  if (artwork) paintArtwork(c, artwork);
  paintGroundFog(c);
  paintGrade(c);
  if (c.look.brushStrokes) paintBrushStrokes(c);
  paintGrain(c);
  paintVignette(c);
  return canvas;
}
