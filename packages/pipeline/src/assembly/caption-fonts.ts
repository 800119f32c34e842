import { existsSync, mkdirSync, symlinkSync, copyFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type CaptionScript = 'latin' | 'devanagari' | 'cjk';

export interface CaptionFont {
  script: CaptionScript;
  /** Family name libass matches against the font's own name table. */
  family: string;
  regularPath: string;
  boldPath: string;
}

const CJK_LANGUAGES = new Set(['ja', 'zh', 'ko']);

export function scriptForLanguage(language: string): CaptionScript {
  const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'hi' || base === 'mr' || base === 'ne') return 'devanagari';
  if (CJK_LANGUAGES.has(base)) return 'cjk';
  return 'latin';
}

/** Debian's fonts-noto-core / fonts-noto-cjk locations, then a fonts/ folder shipped beside the package. */
const FONT_DIRS = [
  '/usr/share/fonts/truetype/noto',
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/noto',
  '/usr/share/fonts/noto-cjk',
  '/usr/share/fonts/google-noto',
  '/usr/share/fonts/google-noto-cjk',
  resolve(dirname(fileURLToPath(import.meta.url)), '../../fonts'),
];

const FILES: Record<CaptionScript, { family: string; regular: string[]; bold: string[] }> = {
  latin: { family: 'Noto Sans', regular: ['NotoSans-Regular.ttf'], bold: ['NotoSans-Bold.ttf'] },
  devanagari: {
    family: 'Noto Sans Devanagari',
    regular: ['NotoSansDevanagari-Regular.ttf'],
    bold: ['NotoSansDevanagari-Bold.ttf'],
  },
  cjk: {
    family: 'Noto Sans CJK JP',
    regular: ['NotoSansCJK-Regular.ttc', 'NotoSansCJKjp-Regular.otf', 'NotoSansCJK-Regular.otf'],
    bold: ['NotoSansCJK-Bold.ttc', 'NotoSansCJKjp-Bold.otf', 'NotoSansCJK-Bold.otf'],
  },
};

function findFile(names: string[]): string | null {
  for (const dir of FONT_DIRS) {
    for (const name of names) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
  }
  return null;
}

/** The Noto font for the language, or an error telling the operator which package to install. */
export function captionFontFor(language: string): CaptionFont {
  const script = scriptForLanguage(language);
  const spec = FILES[script];
  const regular = findFile(spec.regular);
  const bold = findFile(spec.bold) ?? regular;
  if (!regular || !bold) {
    const pkg = script === 'cjk' ? 'fonts-noto-cjk' : 'fonts-noto-core';
    throw new Error(`Captions need the ${spec.family} font, which is not installed. Install ${pkg} (apt-get install ${pkg}).`);
  }
  return { script, family: spec.family, regularPath: regular, boldPath: bold };
}

/**
 * A folder holding only the caption font files, for libass's fontsdir: pointing it at the whole
 * Noto folder would make libass open hundreds of files on every render.
 */
export function prepareFontsDir(font: CaptionFont, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const present = new Set(readdirSync(dir));
  for (const source of new Set([font.regularPath, font.boldPath])) {
    const name = basename(source);
    if (present.has(name)) continue;
    try {
      symlinkSync(source, join(dir, name));
    } catch {
      copyFileSync(source, join(dir, name));
    }
  }
  return dir;
}
