import { Readability } from '@mozilla/readability';
import type { PageArticleResult } from '@reelsmith/contracts';

/** Blocks whose text is told; headings are left out (no sentence of their own, the title names the video). */
const TEXT_BLOCKS = 'p, li, blockquote, pre, figcaption, dd, td';
/** Running text shorter than this is not an article (a sign-in wall, a gallery, a search page). */
export const MIN_ARTICLE_CHARACTERS = 280;

/** One line of plain words: runs of white space become one space, control characters go (the contracts refuse them). */
const tidy = (text: string | null | undefined) =>
  (text ?? '')
    .replace(/[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The article's paragraphs: the innermost text blocks of Readability's cleaned content, in order. */
export function articleParagraphs(contentHtml: string, parser: DOMParser): string[] {
  const body = parser.parseFromString(contentHtml, 'text/html').body;
  const paragraphs: string[] = [];
  for (const block of body.querySelectorAll(TEXT_BLOCKS)) {
    // A list item holding paragraphs is told through them.
    if (block.querySelector(TEXT_BLOCKS)) continue;
    const text = tidy(block.textContent);
    if (text) paragraphs.push(text);
  }
  return paragraphs.length > 0 ? paragraphs : [tidy(body.textContent)].filter(Boolean);
}

/**
 * Reads the article of a page as Mozilla's Readability (Firefox's Reader View) finds it: the main
 * text without navigation, cookie banners, ads or footers. Runs inside the page, so pages behind a
 * sign-in work too. Readability rewrites the document it reads, so it gets a copy.
 */
export function readArticle(
  document: Document,
  location: Pick<Location, 'href' | 'hash'>,
  parser: DOMParser = new DOMParser(),
): PageArticleResult {
  const article = new Readability(document.cloneNode(true) as Document).parse();
  const text = article?.content ? articleParagraphs(article.content, parser).join('\n\n') : '';
  if (text.length < MIN_ARTICLE_CHARACTERS) return { ok: false, reason: 'no-article' };
  const url = location.hash ? location.href.slice(0, -location.hash.length) : location.href;
  return { ok: true, title: tidy(article?.title) || tidy(document.title), url, text };
}
