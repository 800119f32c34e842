import { SOURCE_MESSAGES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { scriptBudgetError, sourceHint } from '../../studio/script-budget.js';
import { draftFromSource, linkIn, sourceError, sourceInput, TOPIC_ONLY } from './source-draft.js';

describe('source draft', () => {
  it('takes a lone web address as a link, and anything else as text', () => {
    expect(linkIn('  https://example.com/a?b=1 ')).toBe('https://example.com/a?b=1');
    expect(linkIn('http://example.com')).toBe('http://example.com');
    expect(linkIn('ftp://example.com/file')).toBeNull();
    expect(linkIn('Read https://example.com today')).toBeNull();
    expect(linkIn('https://exa mple.com')).toBeNull();
    expect(linkIn('')).toBeNull();
  });

  it('builds the request source for each choice', () => {
    expect(sourceInput(TOPIC_ONLY)).toBeUndefined();
    expect(sourceInput({ choice: 'script', text: 'https://example.com', page: null })).toEqual({
      kind: 'script',
      text: 'https://example.com',
    });
    expect(sourceInput({ choice: 'article', text: 'https://example.com/x', page: null })).toEqual({
      kind: 'url',
      url: 'https://example.com/x',
    });
    // Text read from a page stays an article with its credit, even when it looks like a link.
    expect(sourceInput({ choice: 'article', text: 'Body.', page: { title: 'T', url: 'https://example.com/x' } })).toEqual({
      kind: 'article',
      text: 'Body.',
      title: 'T',
      url: 'https://example.com/x',
    });
  });

  it('says what is wrong in the contracts words', () => {
    expect(sourceError(TOPIC_ONLY)).toBeUndefined();
    expect(sourceError({ choice: 'script', text: '', page: null })).toBe(SOURCE_MESSAGES.scriptRequired);
    expect(sourceError({ choice: 'article', text: '   ', page: null })).toBe(SOURCE_MESSAGES.articleRequired);
    expect(sourceError({ choice: 'article', text: `https://example.com/${'a'.repeat(2000)}`, page: null })).toBe(
      SOURCE_MESSAGES.urlTooLong,
    );
    expect(sourceError({ choice: 'script', text: 'Fine words.', page: null })).toBeUndefined();
  });

  it('counts a script against the duration it is told in, word for word', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(scriptBudgetError(words(99), 30)).toBeNull();
    expect(scriptBudgetError(words(100), 30)).toBe(
      'Your script has 100 words; a 30 s video holds at most 99. Shorten it or choose a longer duration.',
    );
    expect(scriptBudgetError(words(100), 60)).toBeNull();
    expect(sourceHint({ choice: 'script', text: words(12), page: null }, 30, false)).toBe(
      '12 words · a 30 s video holds at most 99, told word for word',
    );
    expect(sourceHint({ choice: 'article', text: 'https://example.com/a', page: null }, 60, true)).toMatch(
      /^A link: the page is read when you generate/,
    );
    expect(sourceHint({ choice: 'article', text: words(800), page: null }, 60, false)).toBe(
      '800 words of article · its most central sentences are told in 60 s',
    );
    expect(sourceHint(TOPIC_ONLY, 30, false)).toBeNull();
  });

  it('turns a handed-over script or article into the draft, keeping the page credit', () => {
    expect(draftFromSource({ kind: 'script', text: 'Words.' })).toEqual({ choice: 'script', text: 'Words.', page: null });
    expect(draftFromSource({ kind: 'article', text: 'Body.', title: 'T', url: 'https://example.com' })).toEqual({
      choice: 'article',
      text: 'Body.',
      page: { title: 'T', url: 'https://example.com' },
    });
    expect(draftFromSource({ kind: 'article', text: 'Body.' })).toEqual({ choice: 'article', text: 'Body.', page: null });
  });
});
