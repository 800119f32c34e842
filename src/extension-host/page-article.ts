import { ARTICLE_MAX_LENGTH, pageArticleResultSchema, SOURCE_TITLE_MAX_LENGTH, type ArticleSource } from '@reelsmith/contracts';

/** Why a page could not be read, as the popup, the side panel and the worker's notification say it. */
export const PAGE_ARTICLE_MESSAGES = {
  noArticle:
    'This page has no article to tell (too little running text). Select the text you want and choose "Make a video of this text", or paste it as a script.',
  noPage: 'There is no web page open in this window to make a video of.',
  notAllowed:
    'Reelsmith may read this page only after you ask from the page itself: click the Reelsmith toolbar button on it, or right-click it and choose "Make a video of this page". Browser pages (chrome://, the Web Store) cannot be read.',
  failed: 'The page could not be read. Reload it and try again.',
} as const;

/** The page reader's own bundle (vite.config.ts), at the extension's root; injected only when asked. */
export const PAGE_READER_FILE = 'page-reader.js';

export type ScriptingLike = Pick<typeof chrome.scripting, 'executeScript'>;
export interface TabFinder {
  windows: Pick<typeof chrome.windows, 'getLastFocused'>;
  tabs: Pick<typeof chrome.tabs, 'query'>;
}

/** Chrome refuses pages the extension may not read (no activeTab grant, chrome://, the Web Store) with these words. */
const NOT_ALLOWED = /cannot access|cannot be scripted|permission|must request/i;

/** Cuts at the last paragraph end that fits, so the article never ends mid-sentence. */
export function fitText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const paragraph = cut.lastIndexOf('\n\n');
  return (paragraph > max / 2 ? cut.slice(0, paragraph) : cut).trim();
}

/**
 * Reads the article of a tab inside the page: the reader bundle first (it leaves a function in the
 * extension's isolated world), then a call of that function. Needs the activeTab grant of a click on
 * the toolbar button or the page's menu (or a host permission). Rejects with a message to show.
 */
export async function readArticleInTab(scripting: ScriptingLike, tabId: number): Promise<ArticleSource> {
  let answer: unknown;
  try {
    await scripting.executeScript({ target: { tabId }, files: [PAGE_READER_FILE] });
    const [frame] = await scripting.executeScript({
      target: { tabId },
      func: () => (globalThis as typeof globalThis & { reelsmithReadArticle?: () => unknown }).reelsmithReadArticle?.() ?? null,
    });
    answer = frame?.result;
  } catch (error) {
    throw new Error(
      error instanceof Error && NOT_ALLOWED.test(error.message) ? PAGE_ARTICLE_MESSAGES.notAllowed : PAGE_ARTICLE_MESSAGES.failed,
      { cause: error },
    );
  }
  const parsed = pageArticleResultSchema.safeParse(answer);
  if (!parsed.success) throw new Error(PAGE_ARTICLE_MESSAGES.failed);
  if (!parsed.data.ok) throw new Error(PAGE_ARTICLE_MESSAGES.noArticle);
  const { title, url, text } = parsed.data;
  const link = /^https?:\/\//.test(url) ? url : undefined;
  return {
    kind: 'article',
    text: fitText(text, ARTICLE_MAX_LENGTH),
    ...(title ? { title: title.slice(0, SOURCE_TITLE_MAX_LENGTH).trim() } : {}),
    ...(link ? { url: link } : {}),
  };
}

/** The tab the creator is reading: the active tab of the last focused browser window (not a popup window). */
export async function activePageTab({ windows, tabs }: TabFinder): Promise<number> {
  const window = await windows.getLastFocused({ windowTypes: ['normal'] });
  const [tab] = window.id === undefined ? [] : await tabs.query({ active: true, windowId: window.id });
  if (tab?.id === undefined) throw new Error(PAGE_ARTICLE_MESSAGES.noPage);
  return tab.id;
}

/** "Make a video of this page" in the popup and the side panel: the article of the tab beside them. */
export async function readActivePage(deps: TabFinder & { scripting: ScriptingLike }): Promise<ArticleSource> {
  return readArticleInTab(deps.scripting, await activePageTab(deps));
}
