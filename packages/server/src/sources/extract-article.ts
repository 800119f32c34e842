import { Readability } from '@mozilla/readability';
import { countNarrationWords } from '@reelsmith/contracts';
import { parseHTML } from 'linkedom';

export interface ExtractedArticle {
  title: string | null;
  byline: string | null;
  /** The article's text, one paragraph (or heading, or list item) a line. */
  text: string;
}

/** Fewer words than this is a teaser, a landing page or a sign-in wall, not something to tell. */
export const ARTICLE_MIN_WORDS = 60;

export const NOT_AN_ARTICLE_MESSAGE =
  'No article could be found on that page (it looks like a home page, a list or a sign-in page). Give the link of the article itself, or paste its text.';

/** The elements whose text is a line of its own in the extracted article. */
const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, blockquote, pre, figcaption, dd, dt';

/**
 * Elements a page may have, and levels they may nest, before it is refused unread. Readability walks
 * the tree recursively and re-scores it per candidate: 1,000 nested <div>s took 11–20 s of CPU and
 * 20,000 overflowed the stack. Real articles (news sites, Wikipedia) nest under 40 levels and hold a
 * few thousand elements; a 2 MB page of plain markup is at most about 60,000.
 */
export const HTML_MAX_DEPTH = 120;
export const HTML_MAX_ELEMENTS = 60_000;

export const PAGE_TOO_COMPLEX_MESSAGES = {
  depth: `This page is too complex to read: its elements nest more than ${HTML_MAX_DEPTH} levels deep. Paste the article's text instead.`,
  elements: `This page is too complex to read: it has more than ${HTML_MAX_ELEMENTS.toLocaleString('en-US')} elements. Paste the article's text instead.`,
  limit: (reason: string) => `This page is too complex to read (${reason}). Paste the article's text instead.`,
} as const;

/** What reading a page found: its article, no article, or a page refused for its shape. */
export type ReadPageOutcome = { article: ExtractedArticle } | { article: null } | { refused: 'depth' | 'elements' };

/**
 * The sandbox task (see resolve-source.ts): the page's shape is checked on the parsed tree, without
 * recursion, before Readability sees it. Tags are counted first so a page with more elements than
 * allowed is not even parsed.
 */
export function readHtmlPage(html: string): ReadPageOutcome {
  let tags = 0;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    if (/[a-zA-Z]/.test(html.charAt(at + 1)) && ++tags > HTML_MAX_ELEMENTS) return { refused: 'elements' };
  }
  const { document } = parseHTML(html);
  const shape = measureTree(document.documentElement as unknown as Element | null);
  if (shape.elements > HTML_MAX_ELEMENTS) return { refused: 'elements' };
  if (shape.depth > HTML_MAX_DEPTH) return { refused: 'depth' };
  return { article: extractFromDocument(document as unknown as Document) };
}

/** Depth and element count of a tree, walked with an explicit stack (a recursive walk is what overflows). */
export function measureTree(root: Element | null): { depth: number; elements: number } {
  if (!root) return { depth: 0, elements: 0 };
  const stack: [Element, number][] = [[root, 1]];
  let depth = 0;
  let elements = 0;
  while (stack.length > 0) {
    const [element, level] = stack.pop()!;
    elements += 1;
    depth = Math.max(depth, level);
    if (depth > HTML_MAX_DEPTH || elements > HTML_MAX_ELEMENTS) break;
    for (const child of element.children) stack.push([child, level + 1]);
  }
  return { depth, elements };
}

/**
 * The article on an HTML page, as Firefox's Reader View finds it (Mozilla's Readability over a
 * linkedom document): navigation, cookie banners, ads, sidebars and footers are left out. Null when
 * the page holds no article of at least ARTICLE_MIN_WORDS words.
 */
function extractFromDocument(document: Document): ExtractedArticle | null {
  leaveOutPageChrome(document);
  const parsed = new Readability<Element>(document, { serializer: (node) => node as Element }).parse();
  if (!parsed?.content) return null;
  const lines: string[] = [];
  const blocks = [...parsed.content.querySelectorAll(BLOCKS)];
  for (const block of blocks) {
    // A paragraph inside a list item or quote is read once, as its own line.
    if (block.querySelector(BLOCKS)) continue;
    const line = (block.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (line && !AD_LABEL.test(line)) lines.push(line);
  }
  const text = lines.length > 0 ? lines.join('\n') : (parsed.textContent ?? '').trim();
  if (countNarrationWords(text) < ARTICLE_MIN_WORDS) return null;
  return { title: clean(parsed.title) ?? clean(document.querySelector('h1')?.textContent), byline: clean(parsed.byline), text };
}

/**
 * Landmarks and widgets that are never the article. Readability alone keeps a sibling of the article
 * whose text reads like prose (an ad's "Buy the new SuperPhone today and save forty percent." beside
 * <main> was narrated first), so they are removed before it scores the page.
 */
const NEVER_ARTICLE = [
  'nav',
  'aside',
  'dialog',
  'menu',
  'template',
  'noscript',
  'iframe',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="complementary"]',
  '[role="contentinfo"]',
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[role="search"]',
  '[aria-modal="true"]',
  '[aria-hidden="true"]',
  '[hidden]',
].join(', ');

/** Where a <header> or <footer> is the article's own (its headline, its notes) rather than the site's. */
const SECTIONING = 'article, main, [role="main"], section';

/** The page's main content, when it marks it: the element the article is looked for in. */
const MAIN_CONTENT = 'main, [role="main"]';

/**
 * Words of a class or id (split at spaces, dashes, underscores and camelCase) that name the site's
 * own furniture: ads, cookie and consent notices, banners, newsletter and sharing boxes, related links.
 */
const CHROME_WORDS = new Set([
  'ad',
  'ads',
  'adv',
  'advert',
  'adverts',
  'advertisement',
  'advertising',
  'adslot',
  'adunit',
  'adsbygoogle',
  'sponsor',
  'sponsored',
  'promo',
  'promoted',
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'banner',
  'newsletter',
  'subscribe',
  'paywall',
  'popup',
  'modal',
  'share',
  'sharing',
  'social',
  'related',
  'recommended',
  'breadcrumb',
  'breadcrumbs',
  'sidebar',
  'masthead',
  'outbrain',
  'taboola',
]);

/** A line that only labels an ad slot ("Advertisement", "Sponsored: …") is never narrated. */
const AD_LABEL = /^(advertisement|advertising|sponsored(?: content)?|anzeige|publicité|publicidad|werbung)\b\s*(?:$|[:\-–—|·])/i;

/**
 * Leaves only the article's part of the page for Readability: the site's navigation, banners, cookie
 * notices, asides and ads are removed, and when the page marks its main content (one <main>, or one
 * <article>) that holds an article's worth of words, everything beside it goes too. An element that
 * holds the main content or most of the page's words is never removed for its class name alone (a
 * wrapper called "has-sidebar" or "ad-free" holds the article).
 */
export function leaveOutPageChrome(document: Document): void {
  const body = document.body as Element | null;
  if (!body) return;
  for (const element of [...body.querySelectorAll(NEVER_ARTICLE)]) element.remove();
  for (const element of [...body.querySelectorAll('header, footer')]) {
    if (!element.parentElement?.closest(SECTIONING)) element.remove();
  }
  const pageWords = wordsOf(body);
  for (const element of [...body.querySelectorAll('[class], [id]')]) {
    if (!element.isConnected || !namesChrome(element)) continue;
    if (element.querySelector(`${MAIN_CONTENT}, article`) || element.matches(`${MAIN_CONTENT}, article`)) continue;
    if (wordsOf(element) > pageWords / 2) continue;
    element.remove();
  }
  const root = onlyOne(body, MAIN_CONTENT) ?? onlyOne(body, 'article');
  if (root && wordsOf(root) >= ARTICLE_MIN_WORDS) keepOnly(body, root);
}

function namesChrome(element: Element): boolean {
  const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return names
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => CHROME_WORDS.has(word));
}

function onlyOne(body: Element, selector: string): Element | null {
  const found = body.querySelectorAll(selector);
  return found.length === 1 ? found[0]! : null;
}

/** Removes everything in `body` beside `root` and its ancestors. */
function keepOnly(body: Element, root: Element): void {
  for (let element: Element = root; element !== body && element.parentElement; element = element.parentElement) {
    for (const sibling of [...element.parentElement.childNodes]) if (sibling !== element) sibling.remove();
  }
}

function wordsOf(element: Element): number {
  return countNarrationWords(element.textContent ?? '');
}

/** A plain-text page: its first short line is its title when it looks like one. */
export function plainTextArticle(text: string): ExtractedArticle | null {
  const trimmed = text.replace(/\r\n?/g, '\n').trim();
  if (countNarrationWords(trimmed) < ARTICLE_MIN_WORDS) return null;
  const [first = '', ...rest] = trimmed.split('\n');
  const looksLikeTitle = first.length <= 150 && !/[.!?。]$/.test(first.trim()) && rest.join('').trim() !== '';
  return { title: looksLikeTitle ? first.trim() : null, byline: null, text: looksLikeTitle ? rest.join('\n').trim() : trimmed };
}

function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text : null;
}
