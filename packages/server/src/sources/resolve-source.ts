import {
  ARTICLE_MAX_LENGTH,
  narrationBudgetError,
  SOURCE_TITLE_MAX_LENGTH,
  topicFromSource,
  type ArticleSource,
  type GenerationParams,
} from '@reelsmith/contracts';
import {
  detectSourceLanguage,
  needsTranslation,
  SandboxLimitError,
  sharedSandbox,
  sourceLanguageMismatchMessage,
  type SandboxPool,
} from '@reelsmith/pipeline';
import { badRequest, tooManyRequests } from '../errors.js';
import {
  NOT_AN_ARTICLE_MESSAGE,
  PAGE_TOO_COMPLEX_MESSAGES,
  plainTextArticle,
  type ExtractedArticle,
  type ReadPageOutcome,
} from './extract-article.js';
import { fetchPage, PageFetchError, type FetchPageOptions } from './fetch-page.js';
import type { SourceGate } from './source-gate.js';

/**
 * Wall time of reading one fetched page (parsing it and finding its article) in a worker thread,
 * waiting for a free thread included. Ordinary pages take well under a second.
 */
export const PAGE_READ_TIMEOUT_MS = 5_000;

const EXTRACT_MODULE = new URL('./extract-article.ts', import.meta.url).href;

export interface ResolveSourceOptions {
  /** True when a story model is configured: it can translate a source written in another language. */
  storyModel: boolean;
  /** SOURCE_ALLOW_PRIVATE: links may point at loopback, private and link-local addresses. */
  allowPrivate: boolean;
  /** Replaces the page fetch (tests of the refusals that need no server). */
  fetch?: typeof fetchPage;
  fetchOptions?: Partial<FetchPageOptions>;
  /** Whose request it is: their links count against their own bounds in `gate` and the sandbox. */
  user?: string;
  /** Bounds the links fetched and read at once (the jobs plugin's); none in unit tests of refusals. */
  gate?: SourceGate;
  /** Where pages are read (default: the process's shared pool). */
  sandbox?: SandboxPool;
  readTimeoutMs?: number;
}

/**
 * A generate request's source made ready to queue, or a 400 that says what is wrong with it, before
 * anything is queued or counted against the plan: a script must fit the duration, a link is fetched
 * and its article extracted (it becomes an article source carrying the page's address and title),
 * and a source in another language than the narration needs a story model to translate it.
 */
export async function resolveSource(params: GenerationParams, options: ResolveSourceOptions): Promise<GenerationParams> {
  const { source } = params;
  if (!source) return params;
  if (source.kind === 'script') {
    // The storyboard's own budget and message: a script is narrated verbatim, so it must fit as written.
    const overflow = narrationBudgetError([{ narration: source.text }], params.duration);
    if (overflow) throw badRequest(overflow, 'source.text');
    refuseUntranslatable('script', source.text, params.language, options.storyModel);
    return params;
  }
  if (source.kind === 'article') {
    refuseUntranslatable('article', source.text, params.language, options.storyModel);
    return params;
  }
  // A chosen Wikipedia article is read by the job's research step (network, bounded, never failing the job).
  if (source.kind === 'wikipedia') return params;
  const article = await readPage(source.url, options);
  refuseUntranslatable('article', article.text, params.language, options.storyModel);
  // The link stood in for a missing topic until the page's title (or first sentence) was known.
  const topic = params.topic === source.url ? topicFromSource(article) : params.topic;
  return { ...params, topic, source: article };
}

async function readPage(url: string, options: ResolveSourceOptions): Promise<ArticleSource> {
  const leave = options.gate?.enter(options.user ?? '');
  let page;
  let article: ExtractedArticle | null;
  try {
    try {
      page = await (options.fetch ?? fetchPage)(url, { allowPrivate: options.allowPrivate, ...options.fetchOptions });
    } catch (error) {
      if (error instanceof PageFetchError) throw badRequest(error.message, 'source.url');
      throw error;
    }
    article = page.kind === 'html' ? await readHtmlApart(page.text, options) : plainTextArticle(page.text);
  } finally {
    leave?.();
  }
  if (!article) throw badRequest(NOT_AN_ARTICLE_MESSAGE, 'source.url');
  const title = article.title ? storable(article.title).slice(0, SOURCE_TITLE_MAX_LENGTH).trim() : undefined;
  return { kind: 'article', text: cutAtLine(storable(article.text), ARTICLE_MAX_LENGTH), ...(title ? { title } : {}), url: page.url };
}

/**
 * The page's article, found in a worker thread with a wall-time and heap limit: a page built to
 * stall Readability (thousands of nested elements) ends its worker, not the API's event loop.
 */
async function readHtmlApart(html: string, options: ResolveSourceOptions): Promise<ExtractedArticle | null> {
  const timeoutMs = options.readTimeoutMs ?? PAGE_READ_TIMEOUT_MS;
  let outcome: ReadPageOutcome;
  try {
    outcome = await (options.sandbox ?? sharedSandbox()).run<ReadPageOutcome>(
      { module: EXTRACT_MODULE, name: 'readHtmlPage', args: [html] },
      { timeoutMs, ...(options.user ? { user: options.user } : {}) },
    );
  } catch (error) {
    if (!(error instanceof SandboxLimitError)) throw error;
    if (error.limit === 'busy' || error.limit === 'user-busy' || error.limit === 'user-rate') throw tooManyRequests(error.message);
    const reason =
      error.limit === 'time'
        ? `reading it took longer than ${timeoutMs / 1000} seconds`
        : error.limit === 'memory'
          ? 'it needs too much memory'
          : 'reading it failed';
    throw badRequest(PAGE_TOO_COMPLEX_MESSAGES.limit(reason), 'source.url');
  }
  if ('refused' in outcome) {
    // A refused page costs its sender as a timed-out one does (SandboxPool.strike): a flood of them waits.
    if (options.user) (options.sandbox ?? sharedSandbox()).strike(options.user);
    throw badRequest(PAGE_TOO_COMPLEX_MESSAGES[outcome.refused], 'source.url');
  }
  return outcome.article;
}

/**
 * A page's text as a stored job's params must hold it (they are validated again each time the job
 * is read): control characters become spaces, broken surrogates go, NFC form.
 */
function storable(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, ' ')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .normalize('NFC');
}

/** A very long article keeps its first paragraphs up to the limit: a 90 s video tells far less. */
function cutAtLine(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const line = cut.lastIndexOf('\n');
  return (line > limit / 2 ? cut.slice(0, line) : cut).trim();
}

function refuseUntranslatable(kind: 'script' | 'article', text: string, narrationLanguage: string, storyModel: boolean): void {
  if (storyModel) return;
  const language = detectSourceLanguage(text);
  if (needsTranslation(language, narrationLanguage)) {
    throw badRequest(sourceLanguageMismatchMessage(kind, language!, narrationLanguage), 'language');
  }
}
