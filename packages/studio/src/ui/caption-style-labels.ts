import { CAPTION_STYLES, CAPTION_TEMPLATES, type CaptionStyle } from '@reelsmith/contracts';

const STYLE_NAMES: Record<(typeof CAPTION_STYLES)[number], string> = {
  tiktok: 'TikTok',
  instagram: 'Instagram',
  youtube: 'YouTube',
  netflix: 'Netflix',
  minimal: 'Minimal',
};

/** The five spec styles first, then the animated templates, each as the creator sees it named. */
export const CAPTION_CHOICES: ReadonlyArray<{ value: CaptionStyle; name: string; template: boolean }> = [
  ...CAPTION_STYLES.map((style) => ({ value: style, name: STYLE_NAMES[style], template: false })),
  ...CAPTION_TEMPLATES.map((template) => ({ value: template.id, name: template.name, template: true })),
];

export function captionStyleName(style: CaptionStyle): string {
  return CAPTION_CHOICES.find((choice) => choice.value === style)?.name ?? style;
}
