import { z } from './zod.js';
import { CAPTION_TEMPLATE_IDS } from './enums.js';

// The caption templates' API answer and the brand kit: schemas kept apart from the template presets
// (caption-templates.ts), so the popup, which shows the presets, does not carry them.

export const captionTemplateSummarySchema = z.object({
  id: z.enum(CAPTION_TEMPLATE_IDS),
  name: z.string(),
  /** A still of the template rendered by the product itself (PNG), cached by the server per template version. */
  previewUrl: z.string(),
  animates: z.string(),
});
export type CaptionTemplateSummary = z.infer<typeof captionTemplateSummarySchema>;

export const captionTemplatesResponseSchema = z.object({ templates: z.array(captionTemplateSummarySchema) });
export type CaptionTemplatesResponse = z.infer<typeof captionTemplatesResponseSchema>;

// ---------- Brand kit ----------

export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export const logoPositionSchema = z.enum(LOGO_POSITIONS);
export type LogoPosition = z.infer<typeof logoPositionSchema>;

/** Bundled OFL caption fonts; each falls back per script to Noto (Devanagari, Japanese) where it has no glyphs. */
export const BRAND_FONTS = [
  { id: 'noto-sans', name: 'Noto Sans', scripts: 'Latin, Devanagari, Japanese' },
  { id: 'poppins', name: 'Poppins', scripts: 'Latin, Devanagari (Japanese in Noto Sans JP)' },
  { id: 'mplus-rounded', name: 'M PLUS Rounded 1c', scripts: 'Latin, Japanese (Devanagari in Noto Sans Devanagari)' },
] as const;
export const BRAND_FONT_IDS = ['noto-sans', 'poppins', 'mplus-rounded'] as const;
export const brandFontIdSchema = z.enum(BRAND_FONT_IDS);
export type BrandFontId = z.infer<typeof brandFontIdSchema>;

export const END_CARD_MIN_SECONDS = 1.5;
export const END_CARD_MAX_SECONDS = 3;
export const LOGO_SCALE_RANGE = { min: 0.05, max: 0.3 } as const;
export const LOGO_OPACITY_RANGE = { min: 0.1, max: 1 } as const;

export const endCardSchema = z.object({
  text: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'The end card text is empty. Write a handle or a call to action, or turn the end card off.'),
      z.maxLength(60, 'The end card text is longer than 60 characters.'),
    ),
  seconds: z
    .number()
    .check(
      z.gte(END_CARD_MIN_SECONDS, `The end card lasts at least ${END_CARD_MIN_SECONDS} seconds.`),
      z.lte(END_CARD_MAX_SECONDS, `The end card lasts at most ${END_CARD_MAX_SECONDS} seconds.`),
    ),
});
export type EndCard = z.infer<typeof endCardSchema>;

export const brandKitSchema = z.object({
  enabled: z.boolean(),
  /** A picture uploaded with POST /api/uploads?purpose=logo (PNG, JPEG, WebP or SVG); null for no logo. */
  logoUploadId: z.nullable(z.string().check(z.minLength(1), z.maxLength(64))),
  logoPosition: logoPositionSchema,
  /** The logo's width as a share of the frame's shorter side. */
  logoScale: z
    .number()
    .check(
      z.gte(LOGO_SCALE_RANGE.min, `The logo is at least ${LOGO_SCALE_RANGE.min * 100}% of the frame wide.`),
      z.lte(LOGO_SCALE_RANGE.max, `The logo is at most ${LOGO_SCALE_RANGE.max * 100}% of the frame wide.`),
    ),
  logoOpacity: z
    .number()
    .check(
      z.gte(LOGO_OPACITY_RANGE.min, `The logo opacity is at least ${LOGO_OPACITY_RANGE.min}.`),
      z.lte(LOGO_OPACITY_RANGE.max, `The logo opacity is at most ${LOGO_OPACITY_RANGE.max}.`),
    ),
  accentColor: z.string().check(z.regex(/^#[0-9A-Fa-f]{6}$/, 'The accent colour is a hex colour like #FFE600.')),
  fontId: brandFontIdSchema,
  endCard: z.nullable(endCardSchema),
});
export type BrandKit = z.infer<typeof brandKitSchema>;

/** Dark text on a light accent, white on a dark one (WCAG relative luminance), as the end card is drawn. */
export function readableTextOn(hex: string): '#111111' | '#FFFFFF' {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(1 + offset, 3 + offset), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4) > 0.4 ? '#111111' : '#FFFFFF';
}

export const DEFAULT_BRAND_KIT: BrandKit = {
  enabled: false,
  logoUploadId: null,
  logoPosition: 'top-right',
  logoScale: 0.18,
  logoOpacity: 0.9,
  accentColor: '#FFE600',
  fontId: 'noto-sans',
  endCard: null,
};

export const embedSessionBodySchema = z.object({
  /** The partner's own brand: videos made in this session carry it instead of the account's. */
  brand: z.optional(brandKitSchema),
});
export type EmbedSessionBody = z.infer<typeof embedSessionBodySchema>;
