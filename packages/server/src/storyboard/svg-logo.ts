import {
  LOGO_RASTER_SIDE,
  SVG_UPLOAD_MESSAGES as M,
  UPLOAD_SVG_MAX_ASPECT,
  UPLOAD_SVG_MAX_BYTES,
  UPLOAD_SVG_MAX_SIDE,
} from '@reelsmith/contracts';
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { readFile, writeFile } from 'node:fs/promises';
import { badRequest } from '../errors.js';

/** A file whose first bytes (after a byte order mark and white space) open XML or an <svg> element. */
export function looksLikeSvg(head: Buffer): boolean {
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^<(\?xml|svg[\s>]|!--|!doctype\s+svg)/i.test(text);
}

/** Embedded pictures resvg can draw without reading anything else. */
const EMBEDDED = /^data:image\/(png|jpe?g|gif|webp);base64,/i;
const shown = (reference: string) => (reference.length > 60 ? `${reference.slice(0, 57)}…` : reference) || 'an empty reference';

/**
 * Refuses what would make drawing the logo do more than draw it: scripts and event handlers, XML
 * entities (expansion bombs, external entities), and any reference leaving the file. Only in-file
 * fragments (#id) and embedded raster data: URLs are allowed; everything else is refused rather
 * than listed, so a reference spelled in an unexpected way is refused too.
 */
export function checkSvgText(text: string): void {
  if (/<script[\s>/]/i.test(text) || /\son[a-z]+\s*=/i.test(text) || /javascript:/i.test(text)) throw badRequest(M.script, 'file');
  if (/<!ENTITY/i.test(text)) throw badRequest(M.entity, 'file');
  if (/<xi:include|xmlns:xi\s*=/i.test(text)) throw badRequest(M.external('XInclude'), 'file');
  if (/@import/i.test(text)) throw badRequest(M.external('@import'), 'file');
  for (const match of text.matchAll(/(?:^|[\s:])(?:href|src)\s*=\s*(["'])([\s\S]*?)\1/gi)) {
    const reference = match[2]!.trim();
    if (!reference.startsWith('#') && !EMBEDDED.test(reference)) throw badRequest(M.external(shown(reference)), 'file');
  }
  for (const match of text.matchAll(/url\(\s*(["']?)([\s\S]*?)\1\s*\)/gi)) {
    const reference = match[2]!.trim();
    if (!reference.startsWith('#')) throw badRequest(M.external(shown(`url(${reference})`)), 'file');
  }
}

/** System fonts only: text in a logo is drawn with what the machine has, never fetched. */
const PARSE_OPTIONS: ResvgRenderOptions = { font: { loadSystemFonts: true }, logLevel: 'off' };

/**
 * An SVG logo checked (size, content, declared dimensions) and drawn to a transparent PNG whose
 * longest side is LOGO_RASTER_SIDE: a vector logo is sharp at any size, so it is drawn large and
 * scaled down like any other logo. Throws a 400 that says what is wrong.
 */
export async function rasteriseSvgLogo(inputPath: string, outputPath: string): Promise<void> {
  const bytes = await readFile(inputPath);
  if (bytes.length > UPLOAD_SVG_MAX_BYTES) throw badRequest(M.tooLarge, 'file');
  const text = bytes.toString('utf8');
  checkSvgText(text);
  let width: number;
  let height: number;
  try {
    const parsed = new Resvg(text, PARSE_OPTIONS);
    width = parsed.width;
    height = parsed.height;
  } catch {
    throw badRequest(M.unreadable, 'file');
  }
  const valid = (side: number) => Number.isFinite(side) && side >= 1 && side <= UPLOAD_SVG_MAX_SIDE;
  if (!valid(width) || !valid(height) || Math.max(width, height) > UPLOAD_SVG_MAX_ASPECT * Math.min(width, height))
    throw badRequest(M.size(width, height), 'file');
  const fitTo =
    width >= height ? ({ mode: 'width', value: LOGO_RASTER_SIDE } as const) : ({ mode: 'height', value: LOGO_RASTER_SIDE } as const);
  let png: Buffer;
  try {
    png = (await renderAsync(text, { ...PARSE_OPTIONS, fitTo })).asPng();
  } catch {
    throw badRequest(M.unreadable, 'file');
  }
  await writeFile(outputPath, png);
}
