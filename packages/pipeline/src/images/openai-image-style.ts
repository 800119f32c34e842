import type { VisualStyle } from '@reelsmith/contracts';

/**
 * How each visual style looks, in words an image model understands. The story prompt uses it so
 * scene prompts are written in the style; the image provider appends it so every picture of a video
 * keeps the same look even when a prompt forgets it.
 */
export const VISUAL_STYLE_GUIDANCE: Record<VisualStyle, string> = {
  cinematic: 'cinematic film still, dramatic lighting, shallow depth of field, anamorphic lens, rich color grading',
  'dark horror': 'dark horror atmosphere, low-key lighting, deep shadows, desaturated cold tones, fog, unsettling mood',
  'bright colorful': 'bright vivid colors, high saturation, cheerful sunny lighting, clean and playful composition',
  'realistic photography': 'realistic photograph, natural lighting, true-to-life colors, sharp focus, shot on a full-frame camera',
  'artistic painting': 'artistic oil painting, visible brush strokes, painterly textures, expressive color palette',
  'cartoon animation': 'cartoon animation style, bold clean outlines, flat vibrant colors, expressive characters, 2D animated look',
};

/** Text in generated pictures comes out garbled and would clash with the captions. */
export const NO_TEXT_IN_IMAGE = 'no text, no letters, no captions, no watermark';
