import { LOGO_RASTER_SIDE, UPLOAD_IMAGE_MAX_PIXELS, UPLOAD_SVG_MAX_ASPECT, UPLOAD_SVG_MAX_SIDE } from '@reelsmith/contracts';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { imageSize } from 'image-size';
import { DOMParser } from 'linkedom';

// The sandbox task that checks and draws an SVG logo in a worker thread (see svg-logo.ts). It
// imports nothing of the server or the pipeline, so a new worker loads it quickly.

/** System fonts only: text in a logo is drawn with what the machine has, never fetched. */
const PARSE_OPTIONS: ResvgRenderOptions = { font: { loadSystemFonts: true }, logLevel: 'off' };

/**
 * Elements a logo may draw, counting each <use> as the elements it copies: a 1.8 KB file of <use>
 * fanning out ten ways per level stalled resvg for 12 s. Detailed real logos have a few hundred.
 */
export const SVG_MAX_ELEMENTS = 10_000;
/** What drawing found: the PNG, or why the logo is refused (said by rasteriseSvgLogo). */
export type DrawSvgOutcome =
  | { png: Uint8Array }
  | { refused: 'unreadable' }
  | { refused: 'elements'; elements: number }
  | { refused: 'size'; width: number; height: number }
  | { refused: 'embedded'; megapixels: number };

/**
 * The sandbox task: the logo's shape is checked on a parsed tree before resvg sees it (resvg's
 * native code cannot be interrupted once it starts), then it is drawn.
 */
export function drawSvgLogo(text: string): DrawSvgOutcome {
  const shape = svgShape(text);
  if (shape) return shape;
  let parsed: Resvg;
  try {
    parsed = new Resvg(text, PARSE_OPTIONS);
  } catch {
    return { refused: 'unreadable' };
  }
  const { width, height } = parsed;
  if (!validSize(width, height)) return { refused: 'size', width, height };
  const fitTo =
    width >= height ? ({ mode: 'width', value: LOGO_RASTER_SIDE } as const) : ({ mode: 'height', value: LOGO_RASTER_SIDE } as const);
  try {
    return { png: new Resvg(text, { ...PARSE_OPTIONS, fitTo }).render().asPng() };
  } catch {
    return { refused: 'unreadable' };
  }
}

const validSize = (width: number, height: number) => {
  const valid = (side: number) => Number.isFinite(side) && side >= 1 && side <= UPLOAD_SVG_MAX_SIDE;
  return valid(width) && valid(height) && Math.max(width, height) <= UPLOAD_SVG_MAX_ASPECT * Math.min(width, height);
};

/** CSS pixels per unit of an SVG length. */
const UNITS: Record<string, number> = { '': 1, px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, pt: 96 / 72, pc: 16 };

function length(value: string | null): number | null {
  const match = /^\s*([\d.]+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? '');
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  return match && unit !== undefined ? Number(match[1]) * unit : null;
}

/**
 * Why the logo is refused before drawing, or null: its declared size (width/height, else the
 * viewBox), the elements it draws with every <use> expanded (a reference cycle counts as too many),
 * and the pixels of each embedded picture, read from the picture's header.
 */
function svgShape(text: string): DrawSvgOutcome | null {
  const document = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = document.documentElement as unknown as Element | null;
  if (!root || root.localName !== 'svg') return { refused: 'unreadable' };
  const viewBox = (root.getAttribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const width = length(root.getAttribute('width')) ?? viewBox[2];
  const height = length(root.getAttribute('height')) ?? viewBox[3];
  if (width !== undefined && height !== undefined && Number.isFinite(width) && Number.isFinite(height) && !validSize(width, height)) {
    return { refused: 'size', width, height };
  }
  const byId = new Map<string, Element>();
  const all = [...root.querySelectorAll('*')];
  if (all.length > SVG_MAX_ELEMENTS) return { refused: 'elements', elements: all.length };
  for (const element of all) {
    const id = element.getAttribute('id');
    if (id && !byId.has(id)) byId.set(id, element);
  }
  const elements = expandedElements(root, byId);
  if (elements > SVG_MAX_ELEMENTS) return { refused: 'elements', elements };
  for (const element of all) {
    const reference = (element.getAttribute('href') ?? element.getAttribute('xlink:href') ?? '').trim();
    const data = /^data:image\/[\w+.-]+;base64,/i.exec(reference);
    if (!data) continue;
    try {
      const size = imageSize(Buffer.from(reference.slice(data[0].length), 'base64'));
      const pixels = (size.width ?? 0) * (size.height ?? 0);
      if (pixels > UPLOAD_IMAGE_MAX_PIXELS) return { refused: 'embedded', megapixels: pixels / 1_000_000 };
    } catch {
      // A picture whose header cannot be read: resvg refuses it or leaves it out when drawing.
    }
  }
  return null;
}

const hrefOf = (element: Element) => (element.getAttribute('href') ?? element.getAttribute('xlink:href') ?? '').trim();

/**
 * The elements the tree draws, each <use> counting the elements it copies, computed once per
 * element (so a fan-out is counted, not walked) and with an explicit stack (no recursion to overflow).
 */
function expandedElements(root: Element, byId: ReadonlyMap<string, Element>): number {
  const sizes = new Map<Element, number>();
  const visiting = new Set<Element>();
  const stack: { element: Element; expanded: boolean }[] = [{ element: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const { element } = top;
    if (!top.expanded && sizes.has(element)) {
      // Reached again through another <use> before its first entry was popped: already counted.
      stack.pop();
      continue;
    }
    const target = element.localName === 'use' ? byId.get(hrefOf(element).replace(/^#/, '')) : undefined;
    const parts = [...element.children, ...(target ? [target] : [])];
    if (!top.expanded) {
      top.expanded = true;
      visiting.add(element);
      for (const part of parts) {
        // A reference back to an element being counted is a cycle: resvg refuses it, and so does this count.
        if (visiting.has(part)) return Infinity;
        if (!sizes.has(part)) stack.push({ element: part, expanded: false });
      }
      continue;
    }
    stack.pop();
    visiting.delete(element);
    let total = 1;
    for (const part of parts) total += sizes.get(part) ?? 0;
    sizes.set(element, Math.min(total, SVG_MAX_ELEMENTS + 1));
  }
  return sizes.get(root) ?? 0;
}
