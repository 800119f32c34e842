import { GlobalFonts, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { CaptionFont } from './caption-fonts.js';

const registered = new Map<string, string>();
let context: SKRSContext2D | undefined;

function aliasFor(path: string): string {
  let alias = registered.get(path);
  if (!alias) {
    alias = `reelsmith-caption-${registered.size}`;
    GlobalFonts.registerFromPath(path, alias);
    registered.set(path, alias);
  }
  return alias;
}

/**
 * Measures text the way libass will lay it out. libass sizes a font so that ascent + descent equals
 * the ASS Fontsize, whereas canvas sizes the em; the ratio between the two converts one to the other.
 */
export function createTextMeasurer(font: CaptionFont, bold: boolean, assFontSize: number): (text: string) => number {
  const alias = aliasFor(bold ? font.boldPath : font.regularPath);
  context ??= createCanvas(8, 8).getContext('2d');
  const ctx = context;
  const probeSize = 100;
  ctx.font = `${probeSize}px "${alias}"`;
  const probe = ctx.measureText('Hg');
  const lineHeightPerEm = (probe.fontBoundingBoxAscent + probe.fontBoundingBoxDescent) / probeSize || 1.36;
  const cssSize = assFontSize / lineHeightPerEm;
  return (text: string) => {
    ctx.font = `${cssSize}px "${alias}"`;
    return ctx.measureText(text).width;
  };
}
