import { generateVideoBodySchema, type GenerationParams } from '@reelsmith/contracts';
import { rejectionOf } from '@reelsmith/pipeline/testing';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { HTML_MAX_DEPTH, PAGE_TOO_COMPLEX_MESSAGES } from './extract-article.js';
import type { fetchPage } from './fetch-page.js';
import { resolveSource } from './resolve-source.js';
import { SOURCE_GATE_MESSAGES, SourceGate } from './source-gate.js';

const GERMAN =
  'Das Fahrrad wurde im neunzehnten Jahrhundert erfunden. Es veränderte schnell, wie sich Menschen in den Städten bewegten. Besonders Frauen gewannen damit ein Stück Freiheit.';

const params = (source: Record<string, unknown>, extra: Record<string, unknown> = {}): GenerationParams =>
  generateVideoBodySchema.parse({ style: 'educational', language: 'en', duration: 30, voice: 'en-us-m3', source, ...extra });

const refusal = (promise: Promise<unknown>) => rejectionOf(promise, HttpError);

const page =
  (html: string): typeof fetchPage =>
  async (url) => ({ url, kind: 'html', text: html });

describe('resolveSource', () => {
  it('leaves a topic request as it is', async () => {
    const topic = generateVideoBodySchema.parse({ topic: 'Tea', style: 'educational', language: 'en', duration: 30, voice: 'v' });
    expect(await resolveSource(topic, { storyModel: false, allowPrivate: false })).toBe(topic);
  });

  it('refuses a source in another language offline, and lets a story model translate it', async () => {
    const german = params({ kind: 'article', text: GERMAN });
    const error = await refusal(resolveSource(german, { storyModel: false, allowPrivate: false }));
    expect(error).toMatchObject({ statusCode: 400, field: 'language' });
    expect(error.message).toBe(
      'This article is in German; choose German narration, or configure a story model to translate it into English.',
    );
    expect(await resolveSource(german, { storyModel: true, allowPrivate: false })).toEqual(german);
    expect(
      await resolveSource(params({ kind: 'article', text: GERMAN }, { language: 'de' }), { storyModel: false, allowPrivate: false }),
    ).toBeDefined();
  });

  it("refuses a script over the duration's word budget, and not one that fits", async () => {
    const fits = params({ kind: 'script', text: Array.from({ length: 99 }, () => 'word').join(' ') + '.' });
    expect(await resolveSource(fits, { storyModel: false, allowPrivate: false })).toEqual(fits);
    const over = params({ kind: 'script', text: Array.from({ length: 100 }, () => 'word').join(' ') + '.' });
    const error = await refusal(resolveSource(over, { storyModel: false, allowPrivate: false }));
    expect(error).toMatchObject({
      statusCode: 400,
      field: 'source.text',
      message: 'The narration has 100 words; a 30 s video holds at most 99. Shorten a scene or delete one.',
    });
  });

  it("turns a link into the page's article, with its title as the topic, storable as a job's params", async () => {
    const paragraphs = Array.from(
      { length: 8 },
      (_, index) =>
        `<p>Paragraph ${index + 1} explains how a lighthouse lens gathers the lamp's light\u0007 into one beam that sailors can see from far away.</p>`,
    );
    const html = `<html><head><title>Lighthouses</title></head><body><nav><a href="/">Home</a></nav><article><h1>Lighthouses</h1>${paragraphs.join('')}</article><footer>© Site</footer></body></html>`;
    const resolved = await resolveSource(params({ kind: 'url', url: 'https://example.org/lights' }), {
      storyModel: false,
      allowPrivate: false,
      fetch: page(html),
    });
    expect(resolved.topic).toBe('Lighthouses');
    expect(resolved.source).toMatchObject({ kind: 'article', title: 'Lighthouses', url: 'https://example.org/lights' });
    const text = (resolved.source as { text: string }).text;
    expect(text.split('\n')).toHaveLength(8);
    expect(text).not.toContain('Home');
    expect(text).not.toContain('\u0007');
    // A stored job's params are validated again each time they are read.
    expect(generateVideoBodySchema.parse(resolved)).toEqual(resolved);
  });

  it("keeps a topic the creator gave over the page's title", async () => {
    const html = `<html><head><title>Lighthouses</title></head><body><article>${'<p>The lens gathers the light of the lamp into a single beam that ships can see from thirty kilometres away at night.</p>'.repeat(6)}</article></body></html>`;
    const resolved = await resolveSource(params({ kind: 'url', url: 'https://example.org/lights' }, { topic: 'My own topic' }), {
      storyModel: false,
      allowPrivate: false,
      fetch: page(html),
    });
    expect(resolved.topic).toBe('My own topic');
  });

  const ARTICLE = `<article>${'<p>The lens gathers the light of the lamp into a single beam that ships can see from thirty kilometres away at night.</p>'.repeat(6)}</article>`;

  it('refuses a page nested deeper than the limit within the read limit, the event loop free meanwhile', async () => {
    // The third security round's pages: 2,000 nested <div>s took Readability 153 s, 20,000 overflowed the stack.
    for (const levels of [2_000, 20_000]) {
      const html = `<html><body>${'<div>'.repeat(levels)}${ARTICLE}${'</div>'.repeat(levels)}</body></html>`;
      const started = Date.now();
      let ticks = 0;
      const ticker = setInterval(() => (ticks += 1), 100);
      const error = await refusal(
        resolveSource(params({ kind: 'url', url: 'https://example.org/deep' }), {
          storyModel: false,
          allowPrivate: false,
          fetch: page(html),
        }),
      );
      clearInterval(ticker);
      expect(error).toMatchObject({ statusCode: 400, field: 'source.url', message: PAGE_TOO_COMPLEX_MESSAGES.depth });
      expect(Date.now() - started).toBeLessThan(15_000);
      // Every 100 ms tick came, give or take a second under load: nothing held the event loop for long.
      expect(ticks).toBeGreaterThanOrEqual(Math.floor((Date.now() - started) / 100) - 10);
    }
  }, 60_000);

  it('reads a page nested as deep as the limit, and refuses one with more elements than the limit', async () => {
    const levels = HTML_MAX_DEPTH - 20;
    const deep = `<html><body>${'<div>'.repeat(levels)}${ARTICLE}${'</div>'.repeat(levels)}</body></html>`;
    const resolved = await resolveSource(params({ kind: 'url', url: 'https://example.org/deep' }), {
      storyModel: false,
      allowPrivate: false,
      fetch: page(deep),
    });
    expect(resolved.source).toMatchObject({ kind: 'article' });
    const wide = `<html><body>${'<span>x</span>'.repeat(70_000)}${ARTICLE}</body></html>`;
    const error = await refusal(
      resolveSource(params({ kind: 'url', url: 'https://example.org/wide' }), {
        storyModel: false,
        allowPrivate: false,
        fetch: page(wide),
      }),
    );
    expect(error).toMatchObject({ statusCode: 400, message: PAGE_TOO_COMPLEX_MESSAGES.elements });
  }, 60_000);

  it("bounds one user's links being read at once, and lets other users' through", async () => {
    const gate = new SourceGate(10, 2);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: typeof fetchPage = async (url) => {
      await held;
      return { url, kind: 'text', text: 'Tea. '.repeat(100) };
    };
    const options = (user: string) => ({ storyModel: false, allowPrivate: false, fetch: slow, gate, user });
    const first = resolveSource(params({ kind: 'url', url: 'https://example.org/a' }), options('u1'));
    const second = resolveSource(params({ kind: 'url', url: 'https://example.org/b' }), options('u1'));
    const third = await refusal(resolveSource(params({ kind: 'url', url: 'https://example.org/c' }), options('u1')));
    expect(third).toMatchObject({ statusCode: 429, message: SOURCE_GATE_MESSAGES.user });
    const other = resolveSource(params({ kind: 'url', url: 'https://example.org/d' }), options('u2'));
    release();
    await Promise.all([first, second, other]);
    // The slots are given back, refusals included.
    await resolveSource(params({ kind: 'url', url: 'https://example.org/e' }), options('u1'));
  });
});
