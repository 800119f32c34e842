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
 * The article on an HTML page, as Firefox's Reader View finds it (Mozilla's Readability over a
 * linkedom document): navigation, cookie banners, ads, sidebars and footers are left out. Null when
 * the page holds no article of at least ARTICLE_MIN_WORDS words.
 */
export function extractArticle(html: string): ExtractedArticle | null {
  const { document } = parseHTML(html);
  const parsed = new Readability<Element>(document as unknown as Document, { serializer: (node) => node as Element }).parse();
  if (!parsed?.content) return null;
  const lines: string[] = [];
  const blocks = [...parsed.content.querySelectorAll(BLOCKS)];
  for (const block of blocks) {
    // A paragraph inside a list item or quote is read once, as its own line.
    if (block.querySelector(BLOCKS)) continue;
    const line = (block.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (line) lines.push(line);
  }
  const text = lines.length > 0 ? lines.join('\n') : (parsed.textContent ?? '').trim();
  if (countNarrationWords(text) < ARTICLE_MIN_WORDS) return null;
  return { title: clean(parsed.title) ?? clean(document.querySelector('h1')?.textContent), byline: clean(parsed.byline), text };
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
