import { z } from 'zod';
import { LANGUAGE_NAMES, STORY_STYLES, type VoiceLanguage } from '@reelsmith/contracts';
import { NO_TEXT_IN_IMAGE, VISUAL_STYLE_GUIDANCE } from '../images/openai-image-style.js';
import type { StoryRequest } from '../providers/types.js';

const nonEmptyText = (what: string) =>
  // A refinement, not .min(1): strict structured output rejects minLength, and refinements stay out of the JSON schema.
  z.string().refine((value) => value.trim().length > 0, { message: `${what} must not be empty` });

/**
 * The post the model writes beside the story, as the JSON schema asks for it. Its rules (title within
 * 100 characters, 3–8 hashtags) are checked apart from the story's (writtenPostFrom in post-kit.ts):
 * a post that breaks them is replaced by the one built offline, never a reason to ask again.
 */
const postWireSchema = z.object({ title: z.string(), description: z.string(), hashtags: z.array(z.string()) });

/** A scene as the model writes it: what the narrator says and the one picture shown meanwhile. */
const sceneSchema = z.object({
  narration: nonEmptyText('narration'),
  imagePrompt: nonEmptyText('imagePrompt'),
});

/** A title and exactly `sceneCount` scenes of the given shape: a story written from a topic or from a source. */
function storyOf<Scene extends z.ZodObject>(scene: Scene, sceneCount: number) {
  return z.object({ title: nonEmptyText('title'), scenes: z.array(scene).length(sceneCount) });
}

/**
 * JSON schema for `response_format`: the story and its post; `$schema` is dropped because strict mode
 * accepts only a subset of keywords.
 */
function responseJsonSchema(story: z.ZodObject): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(story.extend({ post: postWireSchema })) as Record<string, unknown>;
  return schema;
}

/** The story's shape, the validator of the model's answer (the post is checked on its own). */
export function storySchema(sceneCount: number) {
  return storyOf(sceneSchema, sceneCount);
}

export type StoryOutput = z.infer<ReturnType<typeof storySchema>>;

export function storyJsonSchema(sceneCount: number): Record<string, unknown> {
  return responseJsonSchema(storySchema(sceneCount));
}

/** What the model is told about the post; the same words for a topic and for a source. */
function postInstruction(language: string): string {
  return [
    `post is what the creator pastes beside the video when posting it, written in ${language}:`,
    'post.title: a catchy title of at most 100 characters;',
    'post.description: two or three sentences that summarise the video (no hashtags, links or credits: those are added for you);',
    'post.hashtags: 3 to 8 different hashtags a viewer would search for, each one word or CamelCase words without spaces, starting with #.',
  ].join(' ');
}

const POST_SHAPE = '"post": {"title": string, "description": string, "hashtags": [string]}';

export function languageName(language: string): string {
  return LANGUAGE_NAMES[language as VoiceLanguage] ?? language;
}

function styleInstruction(style: string): string {
  const known = (STORY_STYLES as readonly string[]).includes(style) && style !== 'custom';
  return known
    ? `Style: ${style}. Let this style shape the tone, the word choice and the pacing.`
    : `Style, in the creator's own words: """${style.trim()}"""`;
}

export function buildStoryMessages(request: StoryRequest): Array<{ role: 'system' | 'user'; content: string }> {
  const language = languageName(request.language);
  const wordsPerScene = Math.max(1, Math.round(request.targetWords / request.sceneCount));
  const visual = VISUAL_STYLE_GUIDANCE[request.visualStyle];
  const system = [
    'You write narrated short videos for social media (TikTok, Reels, Shorts).',
    'A video is a title and a list of scenes. Each scene has narration (what the narrator says) and imagePrompt (the single picture shown while it is said).',
    'Open with a hook in the first sentence, keep every sentence easy to speak aloud, and end with a satisfying close.',
    'Narration is spoken text only: no stage directions, no scene numbers, no emojis, no hashtags, no markdown.',
    'Each imagePrompt is written in English whatever the narration language: one concrete, visual description of the scene (subject, setting, action, mood, composition), keeping recurring characters and places consistent across scenes.',
    `Every imagePrompt is written in the visual style "${request.visualStyle}": ${visual}. Each imagePrompt must say ${NO_TEXT_IN_IMAGE}.`,
    `Answer with one JSON object only: {"title": string, "scenes": [{"narration": string, "imagePrompt": string}], ${POST_SHAPE}}.`,
  ].join('\n');

  const user = [
    `Topic: ${request.topic.trim()}`,
    styleInstruction(request.style),
    `Write the title and all narration in ${language} (language code ${request.language}).`,
    `Exactly ${request.sceneCount} scenes. The video lasts ${request.durationSeconds} seconds, so the narration must total about ${request.targetWords} words (about ${wordsPerScene} words per scene).`,
    postInstruction(language),
    request.customPrompt.trim() ? `Extra instructions from the creator: """${request.customPrompt.trim()}"""` : '',
  ]
    .filter(Boolean)
    .join('\n');

  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The correction sent with the one retry: what was wrong, and what to send instead. */
export function correctionMessage(problem: string, sceneCount: number): string {
  return [
    `Your answer could not be used: ${problem}`,
    `Answer again with only the JSON object {"title": string, "scenes": [{"narration": string, "imagePrompt": string}], ${POST_SHAPE}}, with exactly ${sceneCount} scenes, every field non-empty, and nothing before or after the JSON.`,
  ].join('\n');
}

/** A story told from a source: each scene also says which numbered source sentences it tells. */
export function sourceStorySchema(sceneCount: number) {
  return storyOf(sceneSchema.extend({ sourceSentences: z.array(z.number().int()) }), sceneCount);
}

export type SourceStoryOutput = z.infer<ReturnType<typeof sourceStorySchema>>;

export function sourceStoryJsonSchema(sceneCount: number): Record<string, unknown> {
  return responseJsonSchema(sourceStorySchema(sceneCount));
}

/** Words of source text sent to the model at most: more than any 90 s video can tell, less than a context window. */
export const SOURCE_PROMPT_MAX_WORDS = 8000;

/**
 * The messages that have the model tell an article (or translate a script) in the video's language.
 * The source goes as numbered sentences so each scene can name the ones it tells; the rules forbid
 * anything the text does not say.
 */
export function buildSourceStoryMessages(
  request: StoryRequest,
  sentences: readonly string[],
  kind: 'script' | 'article',
  sourceLanguage: string | null,
): Array<{ role: 'system' | 'user'; content: string }> {
  const language = languageName(request.language);
  const wordsPerScene = Math.max(1, Math.round(request.targetWords / request.sceneCount));
  const visual = VISUAL_STYLE_GUIDANCE[request.visualStyle];
  const translating = sourceLanguage !== null && sourceLanguage !== request.language;
  const system = [
    'You turn a written source into a narrated short video for social media (TikTok, Reels, Shorts).',
    'A video is a title and a list of scenes. Each scene has narration (what the narrator says), imagePrompt (the single picture shown while it is said) and sourceSentences (the numbers of the source sentences the narration tells).',
    'Use ONLY facts stated in the source. Do not add names, numbers, dates, places, causes, opinions or any other fact that is not in the source text, even if you know it to be true. If the source does not say something, leave it out.',
    kind === 'script'
      ? "The source is the creator's own script: the narration must be a faithful translation of it, sentence by sentence and in order, with nothing added and nothing left out."
      : "Tell the source's main points in the source's order, keeping its most important sentences close to their original wording.",
    'Narration is spoken text only: no stage directions, no scene numbers, no emojis, no hashtags, no markdown.',
    "Each imagePrompt is written in English whatever the narration language: one concrete, visual description of what that scene's own sentences talk about (its people, things and places), not of the title in general.",
    `Every imagePrompt is written in the visual style "${request.visualStyle}": ${visual}. Each imagePrompt must say ${NO_TEXT_IN_IMAGE}.`,
    `Answer with one JSON object only: {"title": string, "scenes": [{"narration": string, "imagePrompt": string, "sourceSentences": [number]}], ${POST_SHAPE}}.`,
  ].join('\n');

  const numbered = sentences.map((sentence, index) => `[${index + 1}] ${sentence}`).join('\n');
  const user = [
    `Source (${kind}${sourceLanguage ? `, written in ${languageName(sourceLanguage)}` : ''}), one numbered sentence a line:`,
    '"""',
    numbered,
    '"""',
    request.source?.title ? `Source title: ${request.source.title}` : '',
    styleInstruction(request.style),
    translating
      ? `Write the title and all narration in ${language} (language code ${request.language}), translating from the source faithfully.`
      : `Write the title and all narration in ${language} (language code ${request.language}).`,
    `Exactly ${request.sceneCount} scenes. The video lasts ${request.durationSeconds} seconds, so the narration must total about ${request.targetWords} words (about ${wordsPerScene} words per scene).`,
    `sourceSentences lists, for each scene, the numbers (1 to ${sentences.length}) of the source sentences its narration tells; never empty.`,
    postInstruction(language),
    request.customPrompt.trim()
      ? `Extra instructions from the creator (they never allow facts outside the source): """${request.customPrompt.trim()}"""`
      : '',
  ]
    .filter(Boolean)
    .join('\n');

  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export function sourceCorrectionMessage(problem: string, sceneCount: number, sentenceCount: number): string {
  return [
    `Your answer could not be used: ${problem}`,
    `Answer again with only the JSON object {"title": string, "scenes": [{"narration": string, "imagePrompt": string, "sourceSentences": [number]}], ${POST_SHAPE}}, with exactly ${sceneCount} scenes, every text non-empty, every sourceSentences a non-empty list of numbers from 1 to ${sentenceCount}, and nothing before or after the JSON.`,
  ].join('\n');
}
