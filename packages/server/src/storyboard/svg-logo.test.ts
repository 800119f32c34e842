import { SVG_UPLOAD_MESSAGES as M, UPLOAD_IMAGE_MAX_PIXELS } from '@reelsmith/contracts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { SVG_MAX_ELEMENTS } from './svg-draw.js';
import { rasteriseSvgLogo, SVG_DRAW_TIMEOUT_MS } from './svg-logo.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'svg-logo-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const svg = (inner: string, size = 'width="100" height="100"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${size}>${inner}</svg>`;

/** Draws `text` as an uploaded logo; the refusal, or null when it was drawn. Checks the event loop stayed free. */
async function draw(text: string, name: string): Promise<HttpError | null> {
  const input = join(work, `${name}.svg`);
  await writeFile(input, text);
  let ticks = 0;
  const ticker = setInterval(() => (ticks += 1), 100);
  const started = Date.now();
  const outcome = await rasteriseSvgLogo(input, join(work, `${name}.png`)).then(
    () => null,
    (error: unknown) => error,
  );
  clearInterval(ticker);
  const elapsed = Date.now() - started;
  expect(elapsed).toBeLessThan(SVG_DRAW_TIMEOUT_MS + 10_000);
  // Every 100 ms tick came, give or take a second: nothing held the event loop.
  expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 100) - 10);
  if (outcome === null) return null;
  expect(outcome).toBeInstanceOf(HttpError);
  return outcome as HttpError;
}

/** The smallest PNG file header that says it is `width`×`height` (no pixel data needed to claim it). */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), length, Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
}

describe('rasteriseSvgLogo', () => {
  it('draws a logo that reuses shapes with <use>', async () => {
    const logo = svg('<defs><circle id="d" cx="50" cy="50" r="40"/></defs><use xlink:href="#d" fill="red"/><use href="#d" x="5"/>');
    expect(await draw(logo, 'logo')).toBeNull();
    const png = await readFile(join(work, 'logo.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 60_000);

  it('refuses a <use> fan-out bomb by the elements it would draw, without drawing it', async () => {
    // The third security round's 1.8 KB file: each level uses the one below ten times (10^8 copies).
    let defs = '<g id="l0"><rect width="1" height="1"/></g>';
    for (let level = 1; level <= 8; level++) {
      defs += `<g id="l${level}">${Array.from({ length: 10 }, () => `<use href="#l${level - 1}"/>`).join('')}</g>`;
    }
    const bomb = svg(`<defs>${defs}</defs><use href="#l8"/>`);
    const error = await draw(bomb, 'fan-out');
    expect(error).toMatchObject({
      statusCode: 400,
      message: M.tooComplex(`it draws more than ${SVG_MAX_ELEMENTS.toLocaleString('en-US')} elements`),
    });
  }, 60_000);

  it('refuses a <use> cycle and a 100000×100000 canvas before drawing', async () => {
    const cycle = svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>');
    expect((await draw(cycle, 'cycle'))?.message).toMatch(/^This logo is too complex/);
    const huge = svg('<rect width="10" height="10"/>', 'width="100000" height="100000"');
    expect(await draw(huge, 'huge')).toMatchObject({ statusCode: 400, message: M.size(100_000, 100_000) });
    const viewBox = svg('<rect width="10" height="10"/>', 'viewBox="0 0 100000 100000"');
    expect(await draw(viewBox, 'view-box')).toMatchObject({ statusCode: 400, message: M.size(100_000, 100_000) });
  }, 60_000);

  it('refuses an embedded picture over the pixel cap (10000×10000), and takes one under it', async () => {
    const embed = (png: Buffer) => svg(`<image width="100" height="100" href="data:image/png;base64,${png.toString('base64')}"/>`);
    expect(10_000 * 10_000).toBeGreaterThan(UPLOAD_IMAGE_MAX_PIXELS);
    expect(await draw(embed(pngHeader(10_000, 10_000)), 'embedded')).toMatchObject({
      statusCode: 400,
      message: M.embeddedTooManyPixels(100),
    });
  }, 60_000);
});
