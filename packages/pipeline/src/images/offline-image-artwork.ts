import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import type { ArtworkCredit } from '@reelsmith/contracts';

/**
 * Fluent Emoji artwork (MIT, Microsoft) as pictures. The icon set is one 100 MB JSON file, so it is
 * never parsed whole: the first use records where each drawing sits in it (kept on disk beside the
 * rasterised subjects), and a drawing is read from there only when a picture needs it. Rasterised
 * subjects are kept as PNG on disk and decoded in memory, so a subject costs its SVG rendering
 * (50-100 ms) once per machine and a PNG decode (a few ms) once per process.
 */

/** What the MIT licence of the set asks: its name, its author and the licence, with a link. */
export const FLUENT_EMOJI_CREDIT: ArtworkCredit = {
  name: 'Fluent Emoji',
  author: 'Microsoft',
  url: 'https://github.com/microsoft/fluentui-emoji',
  licence: 'MIT',
};

const require = createRequire(import.meta.url);
const ICONS_PATH = require.resolve('@iconify-json/fluent-emoji/icons.json');
const ICON_SET_VERSION = (
  JSON.parse(readFileSync(require.resolve('@iconify-json/fluent-emoji/package.json'), 'utf8')) as { version: string }
).version;

/** The size subjects are rasterised at: the largest a 1080x1920 picture draws them (a little over half its width). */
export const ARTWORK_SIZE = 640;
const DEFAULT_ICON_SIZE = 32;

function cacheDir(): string {
  // Per version of the set: an upgrade never draws an old rasterisation.
  const dir = join(tmpdir(), 'reelsmith-subjects', `fluent-emoji-${ICON_SET_VERSION}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Written whole or not at all, so two processes filling the cache never read half a file. */
function writeAtomically(path: string, bytes: Buffer | string): void {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** A small derived file kept beside the rasterised subjects (an index, stems), or null when there is none. */
export function readCachedText(name: string): string | null {
  return readCachedBytes(name)?.toString('utf8') ?? null;
}

function readCachedBytes(name: string): Buffer | null {
  try {
    return readFileSync(join(cacheDir(), name));
  } catch {
    return null;
  }
}

export function writeCachedText(name: string, text: string | Buffer): void {
  try {
    writeAtomically(join(cacheDir(), name), text);
  } catch {
    // A cache that cannot be written (a read-only or full disk) only costs the next process the time to derive it again.
  }
}

type Offsets = Record<string, [start: number, length: number]>;
let offsets: Offsets | null = null;

/** Where each drawing's entry ("name": { "body": … }) starts and how long it is, in bytes. */
function scanOffsets(): Offsets {
  const bytes = readFileSync(ICONS_PATH);
  const found: Offsets = {};
  const iconsAt = bytes.indexOf('"icons"');
  const aliasesAt = bytes.indexOf('"aliases"');
  const end = aliasesAt > iconsAt ? aliasesAt : bytes.length;
  // The set is written one entry per indented block: a tab-indented name at the second level.
  const open = Buffer.from('\n\t\t"');
  const close = Buffer.from('\n\t\t}');
  let at = bytes.indexOf(open, iconsAt);
  while (at >= 0 && at < end) {
    const nameEnd = bytes.indexOf('"', at + open.length);
    const name = bytes.toString('utf8', at + open.length, nameEnd);
    const stop = bytes.indexOf(close, nameEnd);
    if (stop < 0) break;
    found[name] = [at + 1, stop + close.length - (at + 1)];
    at = bytes.indexOf(open, stop);
  }
  if (Object.keys(found).length === 0) throw new Error('The Fluent Emoji icon set has an unexpected layout; no drawings were found');
  return found;
}

function iconOffsets(): Offsets {
  if (offsets) return offsets;
  const size = statSync(ICONS_PATH).size;
  const cached = readCachedText('offsets.json');
  if (cached) {
    try {
      const stored = JSON.parse(cached) as { size: number; offsets: Offsets };
      if (stored.size === size) return (offsets = stored.offsets);
    } catch {
      // A damaged index is rebuilt below.
    }
  }
  offsets = scanOffsets();
  writeCachedText('offsets.json', JSON.stringify({ size, offsets }));
  return offsets;
}

/** Every drawing the set has, by name. */
export function artworkNames(): Set<string> {
  return new Set(Object.keys(iconOffsets()));
}

/** The drawing as a standalone SVG document, square, at the given pixel size. */
export function artworkSvg(name: string, size = ARTWORK_SIZE): string {
  const where = iconOffsets()[name];
  if (!where) throw new Error(`Fluent Emoji has no drawing named ${name}`);
  const buffer = Buffer.alloc(where[1]);
  const fd = openSync(ICONS_PATH, 'r');
  try {
    readSync(fd, buffer, 0, where[1], where[0]);
  } finally {
    closeSync(fd);
  }
  const entry = (JSON.parse(`{${buffer.toString('utf8')}}`) as Record<string, { body: string; width?: number; height?: number }>)[name]!;
  const width = entry.width ?? DEFAULT_ICON_SIZE;
  const height = entry.height ?? DEFAULT_ICON_SIZE;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${width} ${height}">${entry.body}</svg>`;
}

/** A rasterised subject and where its drawing is inside the square, as shares of the side. */
export interface Artwork {
  image: Image;
  bounds: { left: number; top: number; right: number; bottom: number };
}

const decoded = new Map<string, Promise<Artwork>>();
/** Decoded subjects kept in memory; a video uses a handful, a long-running server many over time. */
const MEMORY_LIMIT = 96;

/** Where the drawing is: emoji sit in the middle of their square with room around them. */
function boundsOf(image: Image): Artwork['bounds'] {
  const side = 64;
  const canvas = createCanvas(side, side);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0, side, side);
  const { data } = ctx.getImageData(0, 0, side, side);
  let [left, top, right, bottom] = [side, side, -1, -1];
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (data[(y * side + x) * 4 + 3]! < 24) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  if (right < 0) return { left: 0, top: 0, right: 1, bottom: 1 };
  return { left: left / side, top: top / side, right: (right + 1) / side, bottom: (bottom + 1) / side };
}

async function rasterise(name: string): Promise<Artwork> {
  const fileName = `${name}-${ARTWORK_SIZE}.png`;
  const cached = readCachedBytes(fileName);
  if (cached) {
    try {
      const image = await loadImage(cached);
      return { image, bounds: boundsOf(image) };
    } catch {
      // A damaged file is drawn again below.
    }
  }
  const svg = await loadImage(Buffer.from(artworkSvg(name)));
  // Skia draws the SVG again on every use; a PNG of it is drawn at once and is what the next process reads.
  const canvas = createCanvas(ARTWORK_SIZE, ARTWORK_SIZE);
  canvas.getContext('2d').drawImage(svg, 0, 0, ARTWORK_SIZE, ARTWORK_SIZE);
  const png = await canvas.encode('png');
  writeCachedText(fileName, png);
  const image = await loadImage(png);
  return { image, bounds: boundsOf(image) };
}

/** The subject's artwork as a decoded picture of ARTWORK_SIZE pixels square. */
export function artworkImage(name: string): Promise<Artwork> {
  const cached = decoded.get(name);
  if (cached) {
    // Most recently used last, so the oldest is the one let go.
    decoded.delete(name);
    decoded.set(name, cached);
    return cached;
  }
  const loading = rasterise(name);
  decoded.set(name, loading);
  loading.catch(() => decoded.delete(name));
  while (decoded.size > MEMORY_LIMIT) decoded.delete(decoded.keys().next().value!);
  return loading;
}
