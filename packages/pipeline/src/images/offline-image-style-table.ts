import type { VisualStyle } from '@reelsmith/contracts';
import type { ScenePlan } from './offline-image-plan.js';

/** How each visual style renders the same plan. Sizes are in pixels of a 1080-pixel short side. */
export interface Look {
  /** Flat fills and bold outlines instead of gradients (cartoon). */
  flat: boolean;
  outline: number;
  grain: number;
  vignette: number;
  /** Mist between terrain layers, 0-1. */
  mist: number;
  rays: number;
  glow: number;
  /** Blurs sky and far layers like a wide aperture does. */
  depthOfField: boolean;
  brushStrokes: boolean;
}

export const LOOKS: Record<VisualStyle, Look> = {
  cinematic: {
    flat: false,
    outline: 0,
    grain: 0.11,
    vignette: 0.55,
    mist: 0.45,
    rays: 0.16,
    glow: 1,
    depthOfField: false,
    brushStrokes: false,
  },
  'dark horror': {
    flat: false,
    outline: 0,
    grain: 0.16,
    vignette: 0.7,
    mist: 0.75,
    rays: 0.08,
    glow: 0.7,
    depthOfField: false,
    brushStrokes: false,
  },
  'bright colorful': {
    flat: false,
    outline: 0,
    grain: 0.04,
    vignette: 0.18,
    mist: 0.3,
    rays: 0.12,
    glow: 1.1,
    depthOfField: false,
    brushStrokes: false,
  },
  'realistic photography': {
    flat: false,
    outline: 0,
    grain: 0.07,
    vignette: 0.3,
    mist: 0.35,
    rays: 0.07,
    glow: 0.8,
    depthOfField: true,
    brushStrokes: false,
  },
  'artistic painting': {
    flat: false,
    outline: 0,
    grain: 0.06,
    vignette: 0.35,
    mist: 0.4,
    rays: 0.1,
    glow: 0.9,
    depthOfField: false,
    brushStrokes: true,
  },
  'cartoon animation': {
    flat: true,
    outline: 5,
    grain: 0,
    vignette: 0.08,
    mist: 0.15,
    rays: 0,
    glow: 0.7,
    depthOfField: false,
    brushStrokes: false,
  },
};

/**
 * How an artwork is matched to the picture: the style's colour (greyed for horror, richer for
 * cartoons), dimmed at night, then washed with the scene's own light so a bright emoji sits in a
 * dark or golden scene. Done with fills and blend modes: a CSS filter costs ten times as much.
 */
export const ARTWORK_GRADE: Record<VisualStyle, { grey: number; tint: number }> = {
  cinematic: { grey: 0.12, tint: 0.14 },
  'dark horror': { grey: 0.7, tint: 0.22 },
  'bright colorful': { grey: 0, tint: 0.05 },
  'realistic photography': { grey: 0.15, tint: 0.1 },
  'artistic painting': { grey: 0.08, tint: 0.14 },
  'cartoon animation': { grey: 0, tint: 0.04 },
};
export const TIME_SHADE: Record<ScenePlan['time'], number> = { day: 0, golden: 0.06, dawn: 0.04, dusk: 0.2, night: 0.32, storm: 0.22 };
