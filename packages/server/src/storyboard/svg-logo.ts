import { SVG_UPLOAD_MESSAGES as M, UPLOAD_SVG_MAX_BYTES } from '@reelsmith/contracts';
import { SandboxLimitError, sharedSandbox, type SandboxPool } from '@reelsmith/pipeline';
import { readFile, writeFile } from 'node:fs/promises';
import { badRequest, tooManyRequests } from '../errors.js';
import { SVG_MAX_ELEMENTS, type DrawSvgOutcome } from './svg-draw.js';

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

/** Wall time of checking and drawing one logo in a worker thread; a real logo takes well under 1 s. */
export const SVG_DRAW_TIMEOUT_MS = 5_000;

const SVG_DRAW_MODULE = new URL('./svg-draw.ts', import.meta.url).href;

/**
 * An SVG logo checked (size, content, declared dimensions, elements, embedded pictures) and drawn to
 * a transparent PNG whose longest side is LOGO_RASTER_SIDE: a vector logo is sharp at any size, so
 * it is drawn large and scaled down like any other logo. The checks and the drawing run in a worker
 * thread with a wall-time limit. Throws a 400 that says what is wrong.
 */
export async function rasteriseSvgLogo(inputPath: string, outputPath: string, sandbox: SandboxPool = sharedSandbox()): Promise<void> {
  const bytes = await readFile(inputPath);
  if (bytes.length > UPLOAD_SVG_MAX_BYTES) throw badRequest(M.tooLarge, 'file');
  const text = bytes.toString('utf8');
  checkSvgText(text);
  let outcome: DrawSvgOutcome;
  try {
    outcome = await sandbox.run<DrawSvgOutcome>(
      { module: SVG_DRAW_MODULE, name: 'drawSvgLogo', args: [text] },
      { timeoutMs: SVG_DRAW_TIMEOUT_MS },
    );
  } catch (error) {
    if (!(error instanceof SandboxLimitError)) throw error;
    if (error.limit === 'busy' || error.limit === 'user-busy') throw tooManyRequests(error.message);
    const reason =
      error.limit === 'time'
        ? `drawing it took longer than ${SVG_DRAW_TIMEOUT_MS / 1000} seconds`
        : error.limit === 'memory'
          ? 'drawing it needs too much memory'
          : 'drawing it failed';
    throw badRequest(M.tooComplex(reason), 'file');
  }
  if ('png' in outcome) return writeFile(outputPath, outcome.png);
  switch (outcome.refused) {
    case 'unreadable':
      throw badRequest(M.unreadable, 'file');
    case 'elements':
      throw badRequest(M.tooComplex(`it draws more than ${SVG_MAX_ELEMENTS.toLocaleString('en-US')} elements`), 'file');
    case 'size':
      throw badRequest(M.size(outcome.width, outcome.height), 'file');
    case 'embedded':
      throw badRequest(M.embeddedTooManyPixels(outcome.megapixels), 'file');
  }
}
