import { describe, expect, it } from 'vitest';
import { readHtmlPage, type ExtractedArticle } from './extract-article.js';

/** Prose of the article itself: every line of it is what may be narrated. */
const PARAGRAPHS = [
  'An octopus has three hearts. Two of them pump blood through the gills, where it picks up oxygen from the water, and the third pushes that blood around the rest of the body.',
  'The blood of an octopus is blue, because it carries oxygen with a copper-rich protein called hemocyanin rather than the iron-rich hemoglobin that makes our own blood red.',
  'Hemocyanin works well in cold water with little oxygen, but it is less efficient than hemoglobin, which is one reason the octopus needs extra hearts to keep its blood moving.',
  'When an octopus swims, the heart that serves the body stops beating, which is why these animals prefer crawling along the sea floor to swimming through open water.',
];
const HEADLINE = 'Why octopuses have three hearts';
const ARTICLE = `<h1>${HEADLINE}</h1>${PARAGRAPHS.map((text) => `<p>${text}</p>`).join('\n')}`;

/** What the site around the article says: none of it may reach the narration. */
const CHROME = {
  header: '<header><a href="/">Sea Weekly</a><div>Read the sea news that matters to you, every morning before breakfast.</div></header>',
  nav: '<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About us</a></li></ul></nav>',
  cookies:
    '<div class="cookie-banner" id="cookie-notice">We use cookies to improve your experience. By continuing to browse you accept our cookie policy and our partners.</div>',
  ad: '<div class="ad">Advertisement: Buy the amazing new SuperPhone today and save forty percent.</div>',
  aside:
    '<aside><h2>Related stories</h2><p>Read our guide to the ten strangest fish of the deep sea, and sign up for our free weekly quiz.</p></aside>',
  footer: '<footer>Copyright 2026 Sea Weekly. All rights reserved. Registered in the harbour town of Port Example.</footer>',
};
const CHROME_TEXT = ['Sea Weekly', 'sea news', 'Home', 'cookies', 'SuperPhone', 'Advertisement', 'strangest fish', 'Copyright'];

const page = (body: string) => `<!doctype html><html><head><title>Octopus hearts | Sea Weekly</title></head><body>${body}</body></html>`;

function read(html: string): ExtractedArticle {
  const outcome = readHtmlPage(html);
  expect(outcome).toHaveProperty('article');
  const article = (outcome as { article: ExtractedArticle | null }).article;
  expect(article).not.toBeNull();
  return article!;
}

function expectOnlyTheArticle(article: ExtractedArticle): void {
  const lines = article.text.split('\n');
  for (const line of lines) expect([HEADLINE, ...PARAGRAPHS]).toContain(line);
  for (const paragraph of PARAGRAPHS) expect(lines).toContain(paragraph);
  for (const words of CHROME_TEXT) expect(article.text).not.toContain(words);
}

describe('reading the article of a page', () => {
  it("leaves out the header, navigation, cookie banner, ad, aside and footer beside <main><article> (the issue's page)", () => {
    const { header, nav, cookies, ad, aside, footer } = CHROME;
    expectOnlyTheArticle(read(page(`${header}${nav}${cookies}${ad}<main><article>${ARTICLE}</article></main>${aside}${footer}`)));
  });

  it('leaves them out inside <main> too, and without <main> or <article>', () => {
    const { header, nav, cookies, ad, aside, footer } = CHROME;
    expectOnlyTheArticle(read(page(`${header}<main>${nav}${cookies}${ad}<article>${ARTICLE}</article>${aside}</main>${footer}`)));
    expectOnlyTheArticle(
      read(page(`${header}${nav}<div id="page">${cookies}${ad}<div class="story-body">${ARTICLE}</div>${aside}</div>${footer}`)),
    );
  });

  it('leaves out ads named by ARIA roles, ad classes and ids, and unlabelled ad slots inside the article', () => {
    const article = `<h1>${HEADLINE}</h1><p>${PARAGRAPHS[0]}</p>
<div class="adSlot-wrapper"><p>Buy the amazing new SuperPhone today and save forty percent.</p></div>
<p>${PARAGRAPHS[1]}</p><div role="complementary"><p>Read our guide to the ten strangest fish of the deep sea and more.</p></div>
<p>${PARAGRAPHS[2]}</p><div><p>Advertisement</p></div><p>${PARAGRAPHS[3]}</p>`;
    expectOnlyTheArticle(
      read(page(`<div role="navigation"><a href="/">Home</a></div><div role="banner">Sea Weekly</div><article>${article}</article>`)),
    );
  });

  it("keeps the article's own header and a wrapper whose class merely mentions ads", () => {
    const article = read(
      page(
        `<div class="ad-free-layout"><article><header><h1>${HEADLINE}</h1></header>${PARAGRAPHS.map((text) => `<p>${text}</p>`).join('')}</article></div>`,
      ),
    );
    expectOnlyTheArticle(article);
    expect(article.text.split('\n')[0]).toBe(HEADLINE);
  });
});
