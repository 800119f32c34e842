// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MIN_ARTICLE_CHARACTERS, readArticle } from './read-article.js';

const ARTICLE = [
  'The first lighthouse we know of stood at Alexandria, on the island of Pharos, more than two thousand years ago.',
  'Its fire burned at the top of a tower taller than any building of its time, and sailors saw it from far out at sea.',
  'Later towers used oil lamps and polished mirrors, and in 1822 Augustin Fresnel built a lens of glass rings that sent the light much further.',
  'Each lighthouse flashes in its own pattern, so a navigator who counts the flashes knows which coast the ship is passing.',
  'Today most lights run by themselves, but many keepers’ houses still stand beside them and welcome visitors in summer.',
];

function page(body: string): Document {
  return new DOMParser().parseFromString(
    `<!doctype html><html><head><title>Lighthouses | Coast Weekly</title></head><body>${body}</body></html>`,
    'text/html',
  );
}

const FULL_PAGE = `
  <header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav></header>
  <div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <button>Accept all cookies</button></div>
  <aside class="ad advertisement">Buy the new SuperPhone today! Limited offer, subscribe now.</aside>
  <main><article>
    <h1>How lighthouses keep ships safe</h1>
    <p class="byline">By Ana Reef</p>
    ${ARTICLE.map((sentence) => `<p>${sentence}</p>`).join('\n')}
    <ul><li><p>Keepers once wound the clockwork every few hours.</p></li><li>Fog horns sounded when the light could not be seen.</li></ul>
  </article></main>
  <aside class="sidebar related"><h3>Related</h3><a href="/a">Ten best beaches</a></aside>
  <footer>© 2026 Coast Weekly · Privacy · Terms · Contact us</footer>`;

describe('reading the article of a page', () => {
  it('keeps the article body and leaves navigation, cookie banner, ads and footer out', () => {
    const doc = page(FULL_PAGE);
    const result = readArticle(doc, { href: 'https://coast.example/lighthouses#comments', hash: '#comments' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.url).toBe('https://coast.example/lighthouses');
    expect(result.title).toMatch(/lighthouses/i);
    const paragraphs = result.text.split('\n\n');
    expect(paragraphs.slice(0, ARTICLE.length + 1).filter((p) => ARTICLE.includes(p))).toEqual(ARTICLE);
    // A list item's own paragraph is told once, a bare list item as it is.
    expect(paragraphs).toContain('Keepers once wound the clockwork every few hours.');
    expect(paragraphs).toContain('Fog horns sounded when the light could not be seen.');
    for (const noise of ['cookies', 'SuperPhone', 'Weather', 'Privacy', 'Ten best beaches', 'How lighthouses keep ships safe']) {
      expect(result.text).not.toContain(noise);
    }
    // Readability works on a copy: the page itself is untouched.
    expect(doc.querySelector('#cookie-banner')).not.toBeNull();
  });

  it('says there is no article on a page without enough running text', () => {
    const doc = page(
      '<nav><a href="/">Home</a></nav><main><h1>Sign in</h1><form><input name="email"><button>Continue</button></form></main>',
    );
    expect(readArticle(doc, { href: 'https://example.com/login', hash: '' })).toEqual({ ok: false, reason: 'no-article' });
    expect(MIN_ARTICLE_CHARACTERS).toBeGreaterThan(100);
  });

  it('drops control characters the contracts would refuse', () => {
    const doc = page(`<article>${ARTICLE.map((sentence) => `<p>${sentence}\u0007</p>`).join('')}</article>`);
    const result = readArticle(doc, { href: 'https://example.com/a', hash: '' });
    expect(result.ok && /\u0007/.test(result.text)).toBe(false);
  });
});
