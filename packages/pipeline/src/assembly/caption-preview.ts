import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { captionTemplate, type CaptionStyle } from '@reelsmith/contracts';
import { captionFontFor, prepareFontsDir } from './caption-fonts.js';
import { buildCaptionsAss } from './captions-ass.js';
import type { FfmpegBinaries } from './ffmpeg-binary.js';
import { runFfmpeg } from './run-ffmpeg.js';

export const PREVIEW_SIZE = { width: 270, height: 480 } as const;
const SAMPLE = ['Seven', 'brave', 'keepers', 'waited', 'for', '3', 'ships'];
/** The moment drawn: the second word part-spoken, so sweeps, boxes and pops show mid-way. */
const PREVIEW_AT = 0.62;

/**
 * A still of the caption style as the render draws it (the same ASS through the same `ass` filter,
 * over a plain background), written as PNG to `outPath`. The cache key is the
 * caller's: a template's id and version name the file.
 */
export async function renderCaptionPreview(
  style: CaptionStyle,
  outPath: string,
  binaries: FfmpegBinaries,
  accentColor?: string,
): Promise<void> {
  const { width, height } = PREVIEW_SIZE;
  const dir = dirname(outPath);
  mkdirSync(dir, { recursive: true });
  const font = captionFontFor('en');
  const fonts = prepareFontsDir(font, join(dir, 'fonts'));
  const words = SAMPLE.map((word, index) => ({ word, start: index * 0.45, end: index * 0.45 + 0.4 }));
  const unique = `${basename(outPath)}.${process.pid}-${Date.now()}`;
  const assName = `${unique}.ass`;
  const partial = join(dir, `${unique}.png`);
  writeFileSync(
    join(dir, assName),
    buildCaptionsAss({
      words,
      style,
      language: 'en',
      width,
      height,
      font,
      durationSeconds: 4,
      accentColor: accentColor ?? captionTemplate(style)?.defaultAccent ?? null,
    }),
  );
  try {
    await runFfmpeg(
      binaries.ffmpegPath,
      [
        // A flat dusk blue standing in for a picture (ffmpeg 4.1 has no gradient source).
        '-f',
        'lavfi',
        '-i',
        `color=c=0x2a3560:s=${width}x${height}:d=1:r=30`,
        '-vf',
        `ass=filename=${assName}:fontsdir=${basename(fonts)},select='eq(n\\,${Math.round(PREVIEW_AT * 30)})'`,
        '-frames:v',
        '1',
        partial,
      ],
      { cwd: dir },
    );
    renameSync(partial, outPath);
  } finally {
    rmSync(join(dir, assName), { force: true });
    rmSync(partial, { force: true });
  }
}
