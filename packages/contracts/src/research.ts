import { VIDEO_LANGUAGES } from './enums.js';
import { z } from './zod.js';

/** Wikipedia articles that match a topic, before a video is generated (GET /api/research/articles). */
export const RESEARCH_QUERY_MAX_LENGTH = 300;

export const RESEARCH_MESSAGES = {
  queryRequired: 'q is empty. Give the topic to look up.',
  queryTooLong: `q is longer than ${RESEARCH_QUERY_MAX_LENGTH} characters.`,
  languageInvalid: `language must be one of ${VIDEO_LANGUAGES.join(', ')}.`,
  /** The look-up is switched off or Wikimedia did not answer: the studio then offers no article. */
  unavailable: 'Wikipedia could not be reached, or the look-up is switched off on this server. The video will be written without it.',
} as const;

export const researchArticlesQuerySchema = z.object({
  q: z
    .string({ error: RESEARCH_MESSAGES.queryRequired })
    .check(
      z.trim(),
      z.minLength(1, RESEARCH_MESSAGES.queryRequired),
      z.maxLength(RESEARCH_QUERY_MAX_LENGTH, RESEARCH_MESSAGES.queryTooLong),
    ),
  language: z._default(z.enum(VIDEO_LANGUAGES, { error: RESEARCH_MESSAGES.languageInvalid }), 'en'),
});
export type ResearchArticlesQuery = z.input<typeof researchArticlesQuerySchema>;

export const researchArticleSchema = z.object({
  title: z.string(),
  url: z.string(),
  description: z.optional(z.string()),
});
export type ResearchArticle = z.infer<typeof researchArticleSchema>;

export const researchArticlesResponseSchema = z.object({
  articles: z.array(researchArticleSchema),
  /**
   * The title of the article a topic-only video of `q` would be told from (the first that clearly
   * matches the topic); absent when none does, and the video is then written without Wikipedia
   * unless the creator picks one of `articles`.
   */
  match: z.optional(z.string()),
});
export type ResearchArticlesResponse = z.infer<typeof researchArticlesResponseSchema>;
