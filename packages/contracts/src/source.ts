import { humanText } from './text.js';
import { z } from './zod.js';

/**
 * What a video can be made from besides a topic line: the creator's own script, an article's text,
 * a link the server fetches, or a Wikipedia article the creator chose (read in the job). Every narration sentence of such a video is traceable to the source.
 */
export const SOURCE_KINDS = ['script', 'article', 'url', 'wikipedia'] as const;
export const sourceKindSchema = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof sourceKindSchema>;

/**
 * A script is told verbatim, so the duration's word budget (at most 297 words for 90 s) refuses it
 * long before this; the cap only keeps the request small enough to count its words and answer.
 */
export const SCRIPT_MAX_LENGTH = 20_000;
/** About 30,000 English words: longer than any article a 90 s video could tell. */
export const ARTICLE_MAX_LENGTH = 200_000;
export const SOURCE_TITLE_MAX_LENGTH = 300;
export const SOURCE_URL_MAX_LENGTH = 2000;
/** MediaWiki titles are at most 255 bytes. */
export const WIKIPEDIA_TITLE_MAX_LENGTH = 255;

export const SOURCE_MESSAGES = {
  scriptRequired: 'The script is empty. Paste the words the narrator should say.',
  scriptTooLong: `The script is longer than ${SCRIPT_MAX_LENGTH} characters.`,
  articleRequired: 'The article is empty. Paste its text, or give its link instead.',
  articleTooLong: `The article is longer than ${ARTICLE_MAX_LENGTH} characters.`,
  titleTooLong: `The source's title is longer than ${SOURCE_TITLE_MAX_LENGTH} characters.`,
  urlRequired: 'The link is empty. Paste the address of the page to tell.',
  urlInvalid: 'The link is not a web address. Paste an address that starts with http:// or https://.',
  urlTooLong: `The link is longer than ${SOURCE_URL_MAX_LENGTH} characters.`,
  wikipediaTitleRequired: 'Pick a Wikipedia article.',
  wikipediaTitleTooLong: `The Wikipedia title is over ${WIKIPEDIA_TITLE_MAX_LENGTH} characters.`,
  kindInvalid: `The source's kind must be one of ${SOURCE_KINDS.join(', ')}.`,
} as const;

const isWebAddress = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const webAddressSchema = z
  .string({ error: SOURCE_MESSAGES.urlRequired })
  .check(
    z.trim(),
    z.minLength(1, SOURCE_MESSAGES.urlRequired),
    z.maxLength(SOURCE_URL_MAX_LENGTH, SOURCE_MESSAGES.urlTooLong),
    z.refine(isWebAddress, SOURCE_MESSAGES.urlInvalid),
  );

const sourceTitleSchema = humanText(
  z.string().check(z.trim(), z.maxLength(SOURCE_TITLE_MAX_LENGTH, SOURCE_MESSAGES.titleTooLong)),
  'The source title',
);

/** The creator's own words: the narration is this text, verbatim, split into scenes at sentence ends. */
export const scriptSourceSchema = z.object({
  kind: z.literal('script'),
  text: humanText(
    z
      .string({ error: SOURCE_MESSAGES.scriptRequired })
      .check(z.trim(), z.minLength(1, SOURCE_MESSAGES.scriptRequired), z.maxLength(SCRIPT_MAX_LENGTH, SOURCE_MESSAGES.scriptTooLong)),
    'The script',
    { multiline: true },
  ),
});
export type ScriptSource = z.output<typeof scriptSourceSchema>;

/** A long text told in 30/60/90 s: the narration is chosen from its own sentences. */
export const articleSourceSchema = z.object({
  kind: z.literal('article'),
  text: humanText(
    z
      .string({ error: SOURCE_MESSAGES.articleRequired })
      .check(z.trim(), z.minLength(1, SOURCE_MESSAGES.articleRequired), z.maxLength(ARTICLE_MAX_LENGTH, SOURCE_MESSAGES.articleTooLong)),
    'The article',
    { multiline: true },
  ),
  title: z.optional(sourceTitleSchema),
  /** Where the article was read (the credit links to it); never fetched when text is given. */
  url: z.optional(webAddressSchema),
});
export type ArticleSource = z.output<typeof articleSourceSchema>;

/**
 * A page the server fetches and reads the article from. Before the job is queued the server turns
 * it into an article source carrying the page's text, title and address, so a stored job never
 * needs the network again.
 */
export const urlSourceSchema = z.object({
  kind: z.literal('url'),
  url: webAddressSchema,
});
export type UrlSource = z.output<typeof urlSourceSchema>;

/**
 * A Wikipedia article the creator picked (GET /api/research/articles): the job reads it from the
 * narration language's Wikipedia and tells the video from it, crediting it.
 */
export const wikipediaSourceSchema = z.object({
  kind: z.literal('wikipedia'),
  title: humanText(
    z
      .string({ error: SOURCE_MESSAGES.wikipediaTitleRequired })
      .check(
        z.trim(),
        z.minLength(1, SOURCE_MESSAGES.wikipediaTitleRequired),
        z.maxLength(WIKIPEDIA_TITLE_MAX_LENGTH, SOURCE_MESSAGES.wikipediaTitleTooLong),
      ),
    "The Wikipedia article's title",
  ),
});
export type WikipediaSource = z.output<typeof wikipediaSourceSchema>;

export const sourceSchema = z.discriminatedUnion(
  'kind',
  [scriptSourceSchema, articleSourceSchema, urlSourceSchema, wikipediaSourceSchema],
  {
    error: (issue) => (issue.code === 'invalid_union' ? SOURCE_MESSAGES.kindInvalid : undefined),
  },
);
export type SourceInput = z.input<typeof sourceSchema>;
export type Source = z.output<typeof sourceSchema>;

/**
 * What a video says it is based on ("Based on: <title>" with the link), in job and video responses
 * and webhook and embed payloads. The source's text stays with the job and is not repeated here.
 */
export const sourceCreditSchema = z.object({
  kind: sourceKindSchema,
  title: z.optional(z.string()),
  url: z.optional(z.string()),
});
export type SourceCredit = z.infer<typeof sourceCreditSchema>;

export function sourceCredit(source: Source): SourceCredit {
  if (source.kind === 'url') return { kind: 'url', url: source.url };
  if (source.kind === 'script') return { kind: 'script' };
  if (source.kind === 'wikipedia') return { kind: 'wikipedia', title: source.title };
  return { kind: 'article', ...(source.title ? { title: source.title } : {}), ...(source.url ? { url: source.url } : {}) };
}

/** A topic line stands in for a source without one: at most this many characters of its first sentence. */
export const SOURCE_TOPIC_MAX_LENGTH = 200;

/**
 * The topic a source-made video carries when the request names none: the source's title, else its
 * first sentence (cut at a word before SOURCE_TOPIC_MAX_LENGTH), else the link itself (the server
 * replaces that with the fetched page's title).
 */
export function topicFromSource(source: Source): string {
  if (source.kind === 'url') return source.url;
  if (source.kind === 'wikipedia') return source.title;
  if (source.kind === 'article' && source.title) return source.title;
  const firstLine = source.text.trim().split(/\n/)[0]!.trim();
  const sentence = /^.+?[.!?。！？।](?=\s|$)/u.exec(firstLine)?.[0] ?? firstLine;
  if (sentence.length <= SOURCE_TOPIC_MAX_LENGTH) return sentence;
  const cut = sentence.slice(0, SOURCE_TOPIC_MAX_LENGTH);
  const space = cut.lastIndexOf(' ');
  return (space > SOURCE_TOPIC_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).trim() + '…';
}

/**
 * One credit a video owes: the article it tells (text) or a picture it shows (image), with the
 * licence the work is under. Creators copy these into the post's description.
 */
export const attributionSchema = z.object({
  kind: z.enum(['text', 'image']),
  title: z.string(),
  author: z.optional(z.string()),
  license: z.string(),
  licenseUrl: z.optional(z.string()),
  sourceUrl: z.string(),
});
export type Attribution = z.infer<typeof attributionSchema>;
