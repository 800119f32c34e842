import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { STORY_STYLES, VIDEO_LANGUAGES, VISUAL_STYLES, type VideoLanguage } from '@reelsmith/contracts';

/** Where the writer's sentence templates live: packages/pipeline/data/story-templates. */
export const STORY_TEMPLATES_DIR = fileURLToPath(new URL('../../data/story-templates/', import.meta.url));

const sentence = z.string().trim().min(2);
const topicSentence = sentence.refine((text) => text.includes('{topic}'), 'must contain {topic}');
const slotted = (slot: string) => sentence.refine((text) => text.includes(`{${slot}}`), `must contain {${slot}}`);

/** One story style's own voice in one language. */
export const styleVoiceSchema = z.object({
  title: topicSentence,
  openings: z.array(topicSentence).min(2),
  transitions: z.array(sentence).min(1),
  devices: z.array(sentence).min(1),
  closings: z.array(sentence).min(1),
});
export type StyleVoice = z.infer<typeof styleVoiceSchema>;

const storyStyleVoicesSchema = z.object(
  Object.fromEntries(STORY_STYLES.map((style) => [style, styleVoiceSchema])) as Record<
    (typeof STORY_STYLES)[number],
    typeof styleVoiceSchema
  >,
);

export const languageTemplatesSchema = z.object({
  language: z.enum(VIDEO_LANGUAGES),
  /** How sentences are joined: '' for ja, ' ' for the rest. */
  sentenceJoiner: z.string(),
  styles: storyStyleVoicesSchema,
  beats: z.object({
    context: z.array(topicSentence).min(4),
    /**
     * A development scene's main sentence: one angle on the topic (what, how, why, who, compared with
     * what, what is known and what is not). Twelve, so a 90 s story never says one twice.
     */
    angles: z.array(topicSentence).min(12),
    /** Sentences that carry a scene between its points. They state no facts: the writer knows none. */
    development: z.array(sentence).min(12),
    turn: z.array(topicSentence).min(3),
  }),
  /** Sentences built around something the creator asked the story to cover. */
  focus: z.array(slotted('focus')).min(3),
  /** Sentences that carry the creator's own tone (custom style text or a "make it ..." instruction). */
  tone: z.array(slotted('tone')).min(2),
  /** Phrases in this language that introduce a "cover this" instruction, e.g. "céntrate en". */
  focusCues: z.array(z.string().min(2)),
  /** Phrases in this language that introduce a tone instruction, e.g. "que sea". */
  toneCues: z.array(z.string().min(2)),
});
export type LanguageTemplates = z.infer<typeof languageTemplatesSchema>;

const roleShotsSchema = z.array(topicSentence).min(3);
export const imagePromptTemplatesSchema = z.object({
  shots: z.object({
    hook: roleShotsSchema,
    context: roleShotsSchema,
    development: z.array(topicSentence).min(8),
    turn: roleShotsSchema,
    closing: roleShotsSchema,
    focus: z.array(slotted('focus')).min(3),
  }),
  /** Mood words per story style, so the picture matches the telling. */
  moods: z.object(
    Object.fromEntries(STORY_STYLES.map((style) => [style, sentence])) as Record<(typeof STORY_STYLES)[number], typeof sentence>,
  ),
  /** Rendering keywords per visual style. */
  visualStyles: z.object(
    Object.fromEntries(VISUAL_STYLES.map((style) => [style, sentence])) as Record<(typeof VISUAL_STYLES)[number], typeof sentence>,
  ),
});
export type ImagePromptTemplates = z.infer<typeof imagePromptTemplatesSchema>;

const languageCache = new Map<VideoLanguage, LanguageTemplates>();
let imagePromptCache: ImagePromptTemplates | undefined;

function readJson(fileName: string): unknown {
  return JSON.parse(readFileSync(`${STORY_TEMPLATES_DIR}${fileName}`, 'utf8'));
}

/** Loads and validates one language's templates; a malformed file fails loudly with the zod issues. */
export function loadLanguageTemplates(language: VideoLanguage): LanguageTemplates {
  const cached = languageCache.get(language);
  if (cached) return cached;
  const parsed = languageTemplatesSchema.safeParse(readJson(`${language}.json`));
  if (!parsed.success) {
    throw new Error(`Story templates for "${language}" are invalid: ${z.prettifyError(parsed.error)}`);
  }
  if (parsed.data.language !== language) throw new Error(`${language}.json declares language ${parsed.data.language}`);
  languageCache.set(language, parsed.data);
  return parsed.data;
}

export function loadImagePromptTemplates(): ImagePromptTemplates {
  if (imagePromptCache) return imagePromptCache;
  const parsed = imagePromptTemplatesSchema.safeParse(readJson('image-prompts.json'));
  if (!parsed.success) throw new Error(`Image prompt templates are invalid: ${z.prettifyError(parsed.error)}`);
  imagePromptCache = parsed.data;
  return parsed.data;
}
