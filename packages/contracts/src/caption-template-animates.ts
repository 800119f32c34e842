import type { CaptionTemplateId } from './enums.js';

/** What each template animates, in the words a creator reads (a module of its own: the popup's picker does without it, and a chunk holds whole modules). */
export const CAPTION_TEMPLATE_ANIMATES: Record<CaptionTemplateId, string> = {
  'word-pop': 'Each word grows from 80% to full size in the accent colour as it is spoken.',
  bounce: 'The spoken word jumps up past full size and settles back.',
  karaoke: 'The accent colour sweeps through each word with its timing.',
  'box-highlight': 'A coloured box moves under the word being spoken.',
  'one-word': 'One big word at a time, popping in as it is spoken.',
  typewriter: 'Words appear one after another as they are spoken.',
  keyword: 'Numbers, names and the main word of each line stay in the accent colour; the spoken word lifts.',
  'neon-glow': 'The spoken word lights up with a glowing accent outline.',
};
