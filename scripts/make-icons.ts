/**
 * Draws the Reelsmith icon (gradient rounded square with a play mark) at the sizes the extension
 * manifest and the web page need. Run: npx tsx scripts/make-icons.ts
 */
import { createCanvas } from '@napi-rs/canvas';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SIZES = [16, 32, 48, 128] as const;
const OUTPUT_DIRS = ['store-assets/icons', 'public/icons'].map((dir) => fileURLToPath(new URL(`../${dir}/`, import.meta.url)));

function drawIcon(size: number): Buffer {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const inset = size * 0.04;
  const extent = size - inset * 2;
  const radius = extent * 0.26;

  const gradient = ctx.createLinearGradient(0, 0, size, size);
  gradient.addColorStop(0, '#8b5cf6');
  gradient.addColorStop(0.55, '#d946ef');
  gradient.addColorStop(1, '#ec4899');
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.roundRect(inset, inset, extent, extent, radius);
  ctx.fill();

  // Film-strip perforations only where there are enough pixels to show them.
  if (size >= 48) {
    ctx.fillStyle = 'rgba(255,255,255,0.35)';
    const hole = size * 0.05;
    for (let i = 0; i < 5; i += 1) {
      const y = size * 0.22 + i * size * 0.14;
      ctx.fillRect(size * 0.16, y, hole, hole);
      ctx.fillRect(size * 0.84 - hole, y, hole, hole);
    }
  }

  // Play triangle, optically centred (nudged right).
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.moveTo(size * 0.39, size * 0.3);
  ctx.lineTo(size * 0.71, size * 0.5);
  ctx.lineTo(size * 0.39, size * 0.7);
  ctx.closePath();
  ctx.fill();

  return canvas.toBuffer('image/png');
}

for (const dir of OUTPUT_DIRS) mkdirSync(dir, { recursive: true });
for (const size of SIZES) {
  const png = drawIcon(size);
  for (const dir of OUTPUT_DIRS) writeFileSync(`${dir}icon-${size}.png`, png);
}
console.log(`Wrote icons ${SIZES.join(', ')} px to ${OUTPUT_DIRS.join(' and ')}`);
