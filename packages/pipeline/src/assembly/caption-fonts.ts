import { existsSync, mkdirSync, symlinkSync, copyFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { BrandFontId } from '@reelsmith/contracts';

export type CaptionScript = 'latin' | 'devanagari' | 'cjk';

export interface CaptionFont {
  script: CaptionScript;
  /** Family name libass matches against the font's own name table. */
  family: string;
  /** The bold file's family when it names itself apart from the regular one. */
  boldFamily?: string;
  regularPath: string;
  boldPath: string;
  /** Where the files came from: an npm package installed with the project, or the system's fonts. */
  source: 'npm' | 'system';
}

const CJK_LANGUAGES = new Set(['ja', 'zh', 'ko']);

export function scriptForLanguage(language: string): CaptionScript {
  const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'hi' || base === 'mr' || base === 'ne') return 'devanagari';
  if (CJK_LANGUAGES.has(base)) return 'cjk';
  return 'latin';
}

interface FontCandidate {
  family: string;
  /** An npm package (resolved from this module) or an absolute system folder. */
  from: { npm: string } | { dir: string };
  regular: string;
  bold: string;
}

/**
 * npm packages first (OFL Noto static instances that `npm install` brings, so a fresh machine renders
 * captions with nothing else installed), then Debian's fonts-noto-core / fonts-noto-cjk locations.
 */
const CANDIDATES: Record<CaptionScript, FontCandidate[]> = {
  latin: [
    {
      family: 'Noto Sans',
      from: { npm: '@expo-google-fonts/noto-sans' },
      regular: '400Regular/NotoSans_400Regular.ttf',
      bold: '700Bold/NotoSans_700Bold.ttf',
    },
    ...systemCandidates('Noto Sans', ['NotoSans-Regular.ttf'], ['NotoSans-Bold.ttf']),
  ],
  devanagari: [
    {
      family: 'Noto Sans Devanagari',
      from: { npm: '@expo-google-fonts/noto-sans-devanagari' },
      regular: '400Regular/NotoSansDevanagari_400Regular.ttf',
      bold: '700Bold/NotoSansDevanagari_700Bold.ttf',
    },
    ...systemCandidates('Noto Sans Devanagari', ['NotoSansDevanagari-Regular.ttf'], ['NotoSansDevanagari-Bold.ttf']),
  ],
  cjk: [
    {
      family: 'Noto Sans JP',
      from: { npm: '@expo-google-fonts/noto-sans-jp' },
      regular: '400Regular/NotoSansJP_400Regular.ttf',
      bold: '700Bold/NotoSansJP_700Bold.ttf',
    },
    ...systemCandidates(
      'Noto Sans CJK JP',
      ['NotoSansCJK-Regular.ttc', 'NotoSansCJKjp-Regular.otf', 'NotoSansCJK-Regular.otf'],
      ['NotoSansCJK-Bold.ttc', 'NotoSansCJKjp-Bold.otf', 'NotoSansCJK-Bold.otf'],
    ),
  ],
};

function systemCandidates(family: string, regular: string[], bold: string[]): FontCandidate[] {
  const dirs = [
    '/usr/share/fonts/truetype/noto',
    '/usr/share/fonts/opentype/noto',
    '/usr/share/fonts/noto',
    '/usr/share/fonts/noto-cjk',
    '/usr/share/fonts/google-noto',
    '/usr/share/fonts/google-noto-cjk',
  ];
  return dirs.flatMap((dir) => regular.map((name, index) => ({ family, from: { dir }, regular: name, bold: bold[index]! })));
}

const require = createRequire(import.meta.url);

function packageDir(name: string): string | null {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

export interface FontLookup {
  /** Look in the npm font packages (default true). */
  npm?: boolean;
  /** Look in the system's font folders (default true). */
  system?: boolean;
}

function locate(candidate: FontCandidate, lookup: FontLookup): { regular: string; bold: string; source: CaptionFont['source'] } | null {
  const isNpm = 'npm' in candidate.from;
  if (isNpm ? lookup.npm === false : lookup.system === false) return null;
  const base = 'npm' in candidate.from ? packageDir(candidate.from.npm) : candidate.from.dir;
  if (!base) return null;
  const regular = join(base, candidate.regular);
  if (!existsSync(regular)) return null;
  const bold = join(base, candidate.bold);
  return { regular, bold: existsSync(bold) ? bold : regular, source: isNpm ? 'npm' : 'system' };
}

/**
 * The brand kit's fonts (OFL, from npm) for the scripts they cover; a script a font lacks falls back
 * to the Noto family above, so a brand font never draws empty boxes.
 */
const BRAND_CANDIDATES: Record<
  Exclude<BrandFontId, 'noto-sans'>,
  Partial<Record<CaptionScript, FontCandidate & { boldFamily?: string }>>
> = {
  poppins: {
    latin: {
      family: 'Poppins',
      from: { npm: '@expo-google-fonts/poppins' },
      regular: '400Regular/Poppins_400Regular.ttf',
      bold: '700Bold/Poppins_700Bold.ttf',
    },
    devanagari: {
      family: 'Poppins',
      from: { npm: '@expo-google-fonts/poppins' },
      regular: '400Regular/Poppins_400Regular.ttf',
      bold: '700Bold/Poppins_700Bold.ttf',
    },
  },
  'mplus-rounded': {
    latin: {
      family: 'Rounded Mplus 1c',
      boldFamily: 'Rounded Mplus 1c Bold',
      from: { npm: '@expo-google-fonts/m-plus-rounded-1c' },
      regular: '400Regular/MPLUSRounded1c_400Regular.ttf',
      bold: '700Bold/MPLUSRounded1c_700Bold.ttf',
    },
    cjk: {
      family: 'Rounded Mplus 1c',
      boldFamily: 'Rounded Mplus 1c Bold',
      from: { npm: '@expo-google-fonts/m-plus-rounded-1c' },
      regular: '400Regular/MPLUSRounded1c_400Regular.ttf',
      bold: '700Bold/MPLUSRounded1c_700Bold.ttf',
    },
  },
};

const NPM_PACKAGE: Record<CaptionScript, string> = {
  latin: '@expo-google-fonts/noto-sans',
  devanagari: '@expo-google-fonts/noto-sans-devanagari',
  cjk: '@expo-google-fonts/noto-sans-jp',
};

export class MissingCaptionFontError extends Error {
  constructor(
    readonly language: string,
    readonly family: string,
    readonly npmPackage: string,
  ) {
    super(
      `Captions in "${language}" need the ${family} font, which was found neither in the npm package ${npmPackage} ` +
        `nor in the system's Noto folders. Run \`npm install\` (it brings ${npmPackage}) or install Debian's fonts-noto-core/fonts-noto-cjk.`,
    );
    this.name = 'MissingCaptionFontError';
  }
}

/**
 * The caption font for the language: the brand's font where it covers the script, otherwise Noto;
 * an error names the language, the font and how to get it.
 */
export function captionFontFor(language: string, lookup: FontLookup = {}, fontId: BrandFontId = 'noto-sans'): CaptionFont {
  const script = scriptForLanguage(language);
  const brand = fontId === 'noto-sans' ? undefined : BRAND_CANDIDATES[fontId][script];
  if (brand) {
    const found = locate(brand, lookup);
    if (found) {
      return {
        script,
        family: brand.family,
        ...(brand.boldFamily ? { boldFamily: brand.boldFamily } : {}),
        regularPath: found.regular,
        boldPath: found.bold,
        source: found.source,
      };
    }
  }
  for (const candidate of CANDIDATES[script]) {
    const found = locate(candidate, lookup);
    if (found) return { script, family: candidate.family, regularPath: found.regular, boldPath: found.bold, source: found.source };
  }
  throw new MissingCaptionFontError(language, CANDIDATES[script][0]!.family, NPM_PACKAGE[script]);
}

/**
 * A folder holding only the caption font files, for libass's fontsdir: pointing it at the whole
 * Noto folder would make libass open hundreds of files on every render, and naming it explicitly
 * means captions never depend on what fontconfig happens to list on the machine.
 */
export function prepareFontsDir(font: CaptionFont, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const present = new Set(readdirSync(dir));
  for (const source of new Set([font.regularPath, font.boldPath])) {
    const name = basename(source);
    // existsSync follows the link: a folder kept across deploys may hold a link to a moved font.
    if (present.has(name) && existsSync(join(dir, name))) continue;
    rmSync(join(dir, name), { force: true });
    try {
      symlinkSync(source, join(dir, name));
    } catch {
      copyFileSync(source, join(dir, name));
    }
  }
  return dir;
}
