import { z } from './zod.js';

/**
 * Background music of a generated video: an offline music bed in one of these moods, or
 * none. 'auto' picks the mood from the story style, so a creator who never opens the Music field
 * still gets music that fits what they asked for.
 */
export const MUSIC_MOODS = ['mysterious', 'upbeat', 'calm', 'dramatic', 'playful', 'inspiring'] as const;
export const musicMoodSchema = z.enum(MUSIC_MOODS);
export type MusicMood = z.infer<typeof musicMoodSchema>;

export const MUSIC_CHOICES = ['auto', ...MUSIC_MOODS, 'none'] as const;
export const musicChoiceSchema = z.enum(MUSIC_CHOICES, { error: `Music must be one of ${MUSIC_CHOICES.join(', ')}` });
export type MusicChoice = z.infer<typeof musicChoiceSchema>;
export const DEFAULT_MUSIC_CHOICE: MusicChoice = 'auto';

export const MUSIC_MOOD_LABELS: Record<MusicMood, string> = {
  mysterious: 'Mysterious',
  upbeat: 'Upbeat',
  calm: 'Calm',
  dramatic: 'Dramatic',
  playful: 'Playful',
  inspiring: 'Inspiring',
};

/** Style words (the spec's styles and a creator's own custom style) to the mood that suits them. */
const STYLE_MOOD_WORDS: ReadonlyArray<readonly [MusicMood, readonly string[]]> = [
  ['mysterious', ['mysterious', 'mystery', 'terrifying', 'horror', 'scary', 'psychological', 'sci-fi', 'dark', 'suspense', 'thriller']],
  ['dramatic', ['dramatic', 'drama', 'action', 'epic', 'news', 'war', 'battle', 'mythology', 'intense']],
  ['playful', ['funny', 'comedy', 'humor', 'humour', 'playful', 'kids', 'silly', 'satire', 'sattaire']],
  ['inspiring', ['motivational', 'inspirational', 'inspiring', 'speaker', 'stoic', 'success', 'hope']],
  ['calm', ['romantic', 'emotional', 'aesthetic', 'calm', 'relaxing', 'peaceful', 'lesson', 'meditation', 'love']],
  ['upbeat', ['educational', 'curious', 'upbeat', 'energetic', 'travel', 'tutorial', 'facts']],
];

/** The mood 'auto' stands for with this story style; an unknown custom style gets an upbeat bed. */
export function musicMoodForStyle(style: string): MusicMood {
  const lower = style.toLocaleLowerCase();
  for (const [mood, words] of STYLE_MOOD_WORDS) if (words.some((word) => lower.includes(word))) return mood;
  return 'upbeat';
}

/** The mood a job's music choice plays, or null for no music. */
export function resolveMusicMood(choice: MusicChoice | undefined, style: string): MusicMood | null {
  if (choice === 'none') return null;
  if (choice === undefined || choice === 'auto') return musicMoodForStyle(style);
  return choice;
}

/** What the Music field says for each choice; 'auto' names the mood it resolves to. */
export function musicChoiceLabel(choice: MusicChoice, style: string): string {
  if (choice === 'none') return 'No music';
  if (choice === 'auto') return `Match the style (${MUSIC_MOOD_LABELS[musicMoodForStyle(style)]})`;
  return MUSIC_MOOD_LABELS[choice];
}
