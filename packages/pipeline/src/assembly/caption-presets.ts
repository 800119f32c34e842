import { isCaptionTemplate, type CaptionStyle, type CaptionTemplateId, type SpecCaptionStyle } from '@reelsmith/contracts';

/** How a caption style looks and lays its words out. */
export interface StyleSpec {
  bold: boolean;
  /** Font size (ASS: line height in pixels) as a share of the frame's shorter side. */
  sizeShare: number;
  primary: string;
  outlineColour: string;
  outlineAlpha: number;
  backColour: string;
  backAlpha: number;
  /** 1 = outline + shadow, 3 = opaque box (the box takes OutlineColour, its padding is Outline). */
  borderStyle: 1 | 3;
  outline: number;
  shadow: number;
  maxWords: number;
  maxLines: number;
  /** Where the text sits: lower third for feeds, the usual subtitle band otherwise. */
  placement: 'lower-centre' | 'bottom';
  transform: 'upper' | 'lower' | 'none';
  highlight: string | null;
  fadeMs: number;
  /** Largest scale an animation gives a word; lines are broken so that the word still fits. */
  peakScale?: number;
}

/**
 * What every preset starts from: bold white words outlined in black over a soft shadow, a few at a
 * time in the lower third. Each preset below says only how it differs, and always its size.
 */
const BASE_STYLE: Omit<StyleSpec, 'sizeShare'> = {
  bold: true,
  primary: '#FFFFFF',
  outlineColour: '#000000',
  outlineAlpha: 0,
  backColour: '#000000',
  backAlpha: 0x60,
  borderStyle: 1,
  outline: 0.0065,
  shadow: 0.003,
  maxWords: 3,
  maxLines: 2,
  placement: 'lower-centre',
  transform: 'none',
  highlight: null,
  fadeMs: 0,
};

/** A preset: the base with its own size and the fields it changes. */
export const preset = (overrides: Partial<StyleSpec> & Pick<StyleSpec, 'sizeShare'>): StyleSpec => ({ ...BASE_STYLE, ...overrides });

/** The subtitle band's look (YouTube, Netflix, minimal): regular weight, at the bottom, more words a line. */
const subtitle = (overrides: Partial<StyleSpec> & Pick<StyleSpec, 'sizeShare'>): StyleSpec =>
  preset({ bold: false, placement: 'bottom', ...overrides });

const STYLES: Record<SpecCaptionStyle, StyleSpec> = {
  tiktok: preset({ sizeShare: 0.088, transform: 'upper', highlight: '#FFE600' }),
  instagram: preset({
    sizeShare: 0.06,
    primary: '#111111',
    outlineColour: '#FFFFFF',
    backAlpha: 0xa0,
    borderStyle: 3,
    outline: 0.012,
    shadow: 0,
    maxWords: 5,
    fadeMs: 90,
  }),
  youtube: subtitle({ sizeShare: 0.05, outlineAlpha: 0x40, backAlpha: 0xff, borderStyle: 3, outline: 0.008, shadow: 0, maxWords: 9 }),
  netflix: subtitle({
    sizeShare: 0.054,
    outlineColour: '#101010',
    outlineAlpha: 0x20,
    backAlpha: 0x70,
    outline: 0.0022,
    shadow: 0.0025,
    maxWords: 10,
  }),
  minimal: subtitle({
    sizeShare: 0.042,
    outlineAlpha: 0x90,
    backAlpha: 0x90,
    outline: 0.0015,
    shadow: 0.002,
    maxWords: 5,
    maxLines: 1,
    transform: 'lower',
    fadeMs: 150,
  }),
};

/** The layout each template animates: bold, lower third, a few words at a time. */
const TEMPLATE_STYLES: Record<CaptionTemplateId, StyleSpec> = {
  'word-pop': preset({ sizeShare: 0.085, transform: 'upper' }),
  bounce: preset({ sizeShare: 0.08, peakScale: 1.18 }),
  karaoke: preset({ sizeShare: 0.068, backAlpha: 0x80, outline: 0.006, shadow: 0.002, maxWords: 5 }),
  'box-highlight': preset({ sizeShare: 0.072, backAlpha: 0xff, outline: 0.005, shadow: 0, maxWords: 4 }),
  'one-word': preset({ sizeShare: 0.13, outline: 0.008, shadow: 0.004, maxWords: 1, maxLines: 1, transform: 'upper' }),
  typewriter: preset({ sizeShare: 0.062, backAlpha: 0xff, outline: 0.0055, shadow: 0, maxWords: 6 }),
  keyword: preset({ sizeShare: 0.075, outline: 0.006, maxWords: 4, transform: 'upper', peakScale: 1.08 }),
  'neon-glow': preset({ sizeShare: 0.078, outlineColour: '#101010', backAlpha: 0xff, outline: 0.005, shadow: 0, peakScale: 1.04 }),
};

export function specFor(style: CaptionStyle): StyleSpec {
  return isCaptionTemplate(style) ? TEMPLATE_STYLES[style] : STYLES[style];
}

export function templateSpec(id: CaptionTemplateId): StyleSpec {
  return TEMPLATE_STYLES[id];
}

export interface SafeArea {
  marginLeft: number;
  marginRight: number;
  /** Distance from the bottom edge to the caption's baseline box. */
  marginBottom: number;
}

/**
 * Keeps captions clear of each platform's overlays: in 9:16 the TikTok/Reels/Shorts UI covers the
 * bottom ~20% and a column of buttons on the right; 16:9 and 1:1 only need a title-safe border.
 */
export function captionSafeArea(width: number, height: number, placement: StyleSpec['placement']): SafeArea {
  const portrait = height > width * 1.3;
  const square = !portrait && height > width * 0.8;
  if (portrait) {
    return {
      marginLeft: Math.round(width * 0.09),
      marginRight: Math.round(width * 0.15),
      marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.3 : 0.22)),
    };
  }
  if (square) {
    return {
      marginLeft: Math.round(width * 0.08),
      marginRight: Math.round(width * 0.08),
      marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.2 : 0.1)),
    };
  }
  return {
    marginLeft: Math.round(width * 0.1),
    marginRight: Math.round(width * 0.1),
    marginBottom: Math.round(height * (placement === 'lower-centre' ? 0.16 : 0.08)),
  };
}

/**
 * The top edge of the band the captions may fill (their tallest group, popped words included), so
 * the logo and the end card can be kept out of it.
 */
export function captionBandTop(style: CaptionStyle, width: number, height: number): number {
  const spec = specFor(style);
  const base = Math.min(width, height);
  const fontSize = base * spec.sizeShare;
  const safe = captionSafeArea(width, height, spec.placement);
  return Math.floor(height - safe.marginBottom - spec.maxLines * fontSize * Math.max(spec.peakScale ?? 1, 1.08) - 2 * base * spec.outline);
}
