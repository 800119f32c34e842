import { ARTICLE_MAX_LENGTH } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { fakeScripting } from '../background/testing/fake-chrome.js';
import { activePageTab, fitText, PAGE_ARTICLE_MESSAGES, PAGE_READER_FILE, readActivePage, readArticleInTab } from './page-article.js';

const ARTICLE = {
  ok: true,
  title: 'Lighthouses',
  url: 'https://coast.example/lighthouses',
  text: 'Lighthouses guide ships.\n\nEach flashes its own pattern.',
};

describe('reading a page from the extension', () => {
  it('injects the reader, then asks it for the article, as an article source with its title and address', async () => {
    const scripting = fakeScripting({ 3: ARTICLE });
    expect(await readArticleInTab(scripting as never, 3)).toEqual({
      kind: 'article',
      text: ARTICLE.text,
      title: 'Lighthouses',
      url: 'https://coast.example/lighthouses',
    });
    expect(scripting.injected).toEqual([{ tabId: 3, files: [PAGE_READER_FILE] }]);
  });

  it('turns each failure into a message the creator can act on', async () => {
    await expect(readArticleInTab(fakeScripting({ 3: { ok: false, reason: 'no-article' } }) as never, 3)).rejects.toThrow(
      PAGE_ARTICLE_MESSAGES.noArticle,
    );
    await expect(readArticleInTab(fakeScripting({ 3: { surprise: true } }) as never, 3)).rejects.toThrow(PAGE_ARTICLE_MESSAGES.failed);
    const refused = fakeScripting(
      {},
      'Cannot access contents of the page. Extension manifest must request permission to access the respective host.',
    );
    await expect(readArticleInTab(refused as never, 3)).rejects.toThrow(PAGE_ARTICLE_MESSAGES.notAllowed);
    await expect(readArticleInTab(fakeScripting({}, 'The extensions gallery cannot be scripted.') as never, 3)).rejects.toThrow(
      PAGE_ARTICLE_MESSAGES.notAllowed,
    );
    await expect(readArticleInTab(fakeScripting({}, 'Frame with ID 0 was removed.') as never, 3)).rejects.toThrow(
      PAGE_ARTICLE_MESSAGES.failed,
    );
  });

  it('keeps a page address only when it is a web address, and cuts a long article at a paragraph', async () => {
    const local = fakeScripting({ 3: { ...ARTICLE, url: 'file:///home/me/notes.html' } });
    expect(await readArticleInTab(local as never, 3)).not.toHaveProperty('url');
    const long = `${'a'.repeat(ARTICLE_MAX_LENGTH - 10)}\n\n${'b'.repeat(50)}`;
    expect(fitText(long, ARTICLE_MAX_LENGTH)).toBe('a'.repeat(ARTICLE_MAX_LENGTH - 10));
    expect(fitText('short', 10)).toBe('short');
  });

  it('reads the active tab of the last focused browser window', async () => {
    const asked: unknown[] = [];
    const deps = {
      windows: { getLastFocused: async (options: unknown) => (asked.push(options), { id: 8 }) },
      tabs: { query: async (query: { windowId: number }) => (query.windowId === 8 ? [{ id: 3 }] : []) },
    };
    expect(await activePageTab(deps as never)).toBe(3);
    expect(asked).toEqual([{ windowTypes: ['normal'] }]);
    expect(await readActivePage({ ...deps, scripting: fakeScripting({ 3: ARTICLE }) } as never)).toMatchObject({ title: 'Lighthouses' });
    const empty = { windows: { getLastFocused: async () => ({ id: 8 }) }, tabs: { query: async () => [] } };
    await expect(activePageTab(empty as never)).rejects.toThrow(PAGE_ARTICLE_MESSAGES.noPage);
  });
});
