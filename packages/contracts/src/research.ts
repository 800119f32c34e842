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

/**
 * Why a video was told from its topic alone, without Wikipedia: research is switched off on the
 * server (`off`), the creator chose "Don't look it up" (`declined`), Wikipedia did not answer in time
 * or failed (`unreachable`), or no article matches the topic (`no-article`; the search's hits are
 * offered to pick from).
 */
export const RESEARCH_UNUSED_REASONS = ['off', 'declined', 'unreachable', 'no-article'] as const;
export const researchUnusedReasonSchema = z.enum(RESEARCH_UNUSED_REASONS);
export type ResearchUnusedReason = z.infer<typeof researchUnusedReasonSchema>;

/** What the studio's Facts line and the finished video say when a video is told without Wikipedia. */
export const RESEARCH_UNUSED_MESSAGES: Record<ResearchUnusedReason, string> = {
  off: 'Told from the topic alone: looking topics up on Wikipedia is switched off on this server',
  declined: 'Told from the topic alone: you chose not to look it up',
  unreachable: 'Told from the topic alone: Wikipedia could not be reached',
  'no-article': 'Told from the topic alone: no article found — pick one',
};

/**
 * A finished video's `result.research`: `{ used: true }` when it was told from a Wikipedia article
 * (named in `result.source`), else `{ used: false, reason }`, with the articles the search did find
 * when none matched. Absent for a video made from a script, an article or a link, and for videos made
 * before research said.
 */
export const researchOutcomeSchema = z.union([
  z.object({ used: z.literal(true) }),
  z.object({
    used: z.literal(false),
    reason: researchUnusedReasonSchema,
    articles: z.optional(z.array(researchArticleSchema)),
  }),
]);
export type ResearchOutcome = z.infer<typeof researchOutcomeSchema>;

export const researchArticlesResponseSchema = z.object({
  /**
   * Set when nothing could be looked up: `off` (switched off on this server) or `unreachable`
   * (Wikipedia did not answer). An answer, not an error: the video is then told from the topic
   * alone, and the studio says so (RESEARCH_UNUSED_MESSAGES).
   */
  unavailable: z.optional(z.enum(['off', 'unreachable'])),
  articles: z.array(researchArticleSchema),
  /**
   * The title of the article a topic-only video of `q` would be told from (the first that clearly
   * matches the topic); absent when none does, and the video is then written without Wikipedia
   * unless the creator picks one of `articles`.
   */
  match: z.optional(z.string()),
});
export type ResearchArticlesResponse = z.infer<typeof researchArticlesResponseSchema>;
