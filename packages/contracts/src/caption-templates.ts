import { CAPTION_TEMPLATE_IDS, type CaptionStyle, type CaptionTemplateId } from './enums.js';

/**
 * Animated caption templates: named, versioned presets beside the spec's five static styles. The
 * renderer writes each as libass override tags in the caption file it already burns in, so a template
 * costs no extra ffmpeg pass. Every effect works per word, never per letter, so Devanagari conjuncts
 * and Japanese runs are shaped exactly as in the static styles. Bump `version` whenever a template's
 * look changes: cached previews and rendered segments are keyed on it.
 */
export interface CaptionTemplate {
  id: CaptionTemplateId;
  name: string;
  version: number;
  /** The highlight colour when no brand accent is set. */
  defaultAccent: string;
}

export const CAPTION_TEMPLATES: readonly CaptionTemplate[] = [
  { id: 'word-pop', name: 'Word Pop', version: 1, defaultAccent: '#FFE600' },
  { id: 'bounce', name: 'Bounce', version: 1, defaultAccent: '#39FF88' },
  { id: 'karaoke', name: 'Karaoke Fill', version: 1, defaultAccent: '#FFB800' },
  { id: 'box-highlight', name: 'Box Highlight', version: 1, defaultAccent: '#7B3FF2' },
  { id: 'one-word', name: 'One Word', version: 1, defaultAccent: '#FFFFFF' },
  { id: 'typewriter', name: 'Typewriter', version: 1, defaultAccent: '#FFFFFF' },
  { id: 'keyword', name: 'Two-Tone Keywords', version: 1, defaultAccent: '#00D1FF' },
  { id: 'neon-glow', name: 'Neon Glow', version: 1, defaultAccent: '#FF2E97' },
];

export function captionTemplate(style: CaptionStyle): CaptionTemplate | null {
  return CAPTION_TEMPLATES.find((template) => template.id === style) ?? null;
}

export function isCaptionTemplate(style: CaptionStyle): style is CaptionTemplateId {
  return (CAPTION_TEMPLATE_IDS as readonly string[]).includes(style);
}
