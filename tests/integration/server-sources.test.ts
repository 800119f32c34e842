import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ARTICLE_MAX_LENGTH, storyboardSchema, STORYBOARD_MESSAGES, videoJobSchema, type VideoJob } from '@reelsmith/contracts';
import {
  createOfflineStoryProvider,
  createOfflineVoiceProvider,
  runGeneration,
  type assembleVideo,
  type GenerationRun,
  type ImageProvider,
  type Providers,
} from '@reelsmith/pipeline';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, subscribe, waitFor, waitForStatus, type TestUser } from './server-jobs-fakes.js';

/**
 * Videos made from a script, an article and a link, through HTTP: the real story step and offline
 * voice (pictures and the final render are stand-ins), and every refusal before anything is queued.
 */

const ARTICLE_FILE = new URL('../../packages/pipeline/src/story/source-articles/en.txt', import.meta.url);
const articleFile = readFileSync(ARTICLE_FILE, 'utf8');
/** The article's body: its prose paragraphs, without its title line and the site's links. */
const articleParagraphs = articleFile.split('\n').filter((line) => /[.!?]$/.test(line.trim()));
const ARTICLE_TITLE = 'How Honeybees Tell Each Other Where the Flowers Are';

/** Words that only the page's navigation, cookie banner, ads and footer say. */
const CHROME_WORDS = ['cookie', 'SuperWidget', 'newsletter', 'All rights reserved', 'Most read', 'Sign in'];

/** A news page as sites serve them: the article among navigation, a cookie banner, ads, a sidebar and a footer. */
function articlePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${ARTICLE_TITLE} | Example Nature Magazine</title>
<meta property="og:title" content="${ARTICLE_TITLE}"></head><body>
<header><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/science">Science</a> <a href="/login">Sign in</a> <a href="/subscribe">Subscribe to our newsletter</a></nav></header>
<div class="cookie-banner" id="cookie-consent"><p>We use cookies to improve your experience and to show you personalised adverts. By clicking accept you agree to all cookies on this site.</p><button>Accept all cookies</button></div>
<div class="ad ad-banner"><p>Buy the SuperWidget 3000 today and save fifty percent on every order you place this week, only while stocks last.</p></div>
<main><article><h1>${ARTICLE_TITLE}</h1><p class="byline">By Ada Fielding</p>
${articleParagraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n')}
</article>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Ten gadgets you will love this summer</a></li><li><a href="/b">Why the SuperWidget is selling out</a></li></ul></aside></main>
<footer><p>© 2026 Example Nature Magazine. All rights reserved. Read our cookie policy and sign up for the newsletter.</p></footer>
</body></html>`;
}

/**
 * The page of issue 49: the ad is a bare <div class="ad"> beside <main><article>, with a header, a
 * navigation, a cookie banner and an aside; its prose read like the article's, so it was narrated first.
 */
function adBesideArticlePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${ARTICLE_TITLE} | Example Nature Magazine</title></head><body>
<header><a href="/">Example Nature Magazine</a><div>Nature news you can trust, delivered every morning to your inbox.</div></header>
<nav><ul><li><a href="/">Home</a></li><li><a href="/science">Science</a></li><li><a href="/login">Sign in</a></li></ul></nav>
<div class="cookie-banner">We use cookies to improve your experience. By continuing to browse you accept our cookie policy.</div>
<div class="ad">Advertisement: Buy the amazing new SuperPhone today and save forty percent.</div>
<main><article><h1>${ARTICLE_TITLE}</h1>
${articleParagraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n')}
</article></main>
<aside><h2>Most read</h2><p>Read our guide to the ten strangest fish of the deep sea, and sign up for our free weekly quiz.</p></aside>
</body></html>`;
}

interface PageServer {
  url: string;
  server: Server;
}

async function startPageServer(): Promise<PageServer> {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/article') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage());
    if (path === '/ad-beside-article')
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(adBesideArticlePage());
    if (path === '/latin1') {
      const body = Buffer.from(
        `<html><body><article><h1>Über Bären</h1>${Array.from({ length: 12 }, () => '<p>Bären schlafen im Winter in Höhlen, und ihr Herz schlägt dann nur noch wenige Male in der Minute, während sie von ihren Fettreserven leben.</p>').join('')}</article></body></html>`,
        'latin1',
      );
      return void response.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' }).end(body);
    }
    if (path === '/notes.txt')
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end(`${ARTICLE_TITLE}\n${articleParagraphs.join('\n')}`);
    if (path === '/hop1') return void response.writeHead(302, { location: '/hop2' }).end();
    if (path === '/hop2') return void response.writeHead(301, { location: '/hop3' }).end();
    if (path === '/hop3') return void response.writeHead(307, { location: '/article' }).end();
    if (path === '/loop1') return void response.writeHead(302, { location: '/loop2' }).end();
    if (path === '/loop2') return void response.writeHead(302, { location: '/loop3' }).end();
    if (path === '/loop3') return void response.writeHead(302, { location: '/loop4' }).end();
    if (path === '/loop4') return void response.writeHead(302, { location: '/article' }).end();
    if (path === '/picture.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64));
    if (path === '/home') {
      return void response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body><nav><a href="/a">News</a> <a href="/b">Sport</a></nav><p>Welcome!</p></body></html>');
    }
    if (path === '/huge') {
      // No Content-Length: the cap is enforced while reading.
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'word '.repeat(20_000)}</p>`;
      for (let index = 0; index < 30; index++) response.write(chunk);
      return void response.end();
    }
    if (path === '/slow') return void response.writeHead(200, { 'content-type': 'text/html' }).write('<html>');
    response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Pictures and the final render are stand-ins: what is tested is the story told and the narration voiced. */
const placeholderImages: ImageProvider = {
  name: 'placeholder',
  health: async () => ({ name: 'placeholder', status: 'healthy', details: '' }),
  generateImage: async (request) => {
    writeFileSync(request.outputPath, 'jpg');
    return { imagePath: request.outputPath };
  },
};
const quickAssemble: typeof assembleVideo = async (request) => {
  writeFileSync(request.outputPath, 'mp4');
  writeFileSync(request.posterPath, 'jpg');
  return {
    videoPath: request.outputPath,
    posterPath: request.posterPath,
    durationSeconds: request.durationSeconds,
    width: 1080,
    height: 1920,
    sizeBytes: 3,
    renderStats: { seconds: 0.1, segmentsRendered: request.scenes.length, segmentsReused: 0 },
  };
};
const providers = (): Providers => ({
  story: createOfflineStoryProvider(),
  voice: createOfflineVoiceProvider(),
  images: placeholderImages,
});
const runner = (run: GenerationRun) => runGeneration(run, { assemble: quickAssemble });

const sourceBody = (source: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  style: 'educational',
  language: 'en',
  duration: 30,
  voice: 'en-us-m3',
  source,
  ...extra,
});

describe('videos made from a source', () => {
  let database: TestDatabase;
  let app: App;
  let guarded: App;
  let pages: PageServer;

  beforeAll(async () => {
    pages = await startPageServer();
    database = await createTestDatabase('sqlite');
    const options = {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner, providersFor: providers, sourceFetch: { timeoutMs: 1500 } },
    };
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', SOURCE_ALLOW_PRIVATE: 'true' }), options);
    // The same server as deployed by default: links may not reach private addresses.
    guarded = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), { ...options, jobs: { ...options.jobs, autoStart: false } });
  });
  afterAll(async () => {
    await app?.close();
    await guarded?.close();
    await database?.cleanup();
    pages?.server.close();
  });

  const submit = (target: App, user: TestUser, body: Record<string, unknown>) =>
    target.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: body });

  async function made(user: TestUser, body: Record<string, unknown>): Promise<VideoJob> {
    const response = await submit(app, user, body);
    expect(response.statusCode, response.body).toBe(200);
    return waitForStatus(app, user, (response.json() as { jobId: string }).jobId, 'completed', 120_000);
  }

  async function storyboardOf(user: TestUser, jobId: string) {
    const response = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/storyboard`, headers: bearer(user) });
    expect(response.statusCode, response.body).toBe(200);
    return storyboardSchema.parse(response.json());
  }

  async function jobsOf(target: App, user: TestUser): Promise<VideoJob[]> {
    const response = await target.inject({ method: 'GET', url: '/api/videos', headers: bearer(user) });
    return (response.json() as { jobs: VideoJob[] }).jobs;
  }

  /** A refusal: a 400 naming the field, and no job made (so nothing queued and nothing counted). */
  async function refused(target: App, body: Record<string, unknown>, field: string, message: string | RegExp) {
    const user = await registerUser(target, 'refused');
    const response = await submit(target, user, body);
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json() as { message: string; field?: string };
    expect(answer.field).toBe(field);
    if (typeof message === 'string') expect(answer.message).toBe(message);
    else expect(answer.message).toMatch(message);
    expect(await jobsOf(target, user)).toEqual([]);
    return answer.message;
  }

  it('says a script verbatim, scene by scene, and credits it', { timeout: 130_000 }, async () => {
    const user = await registerUser(app, 'script');
    const script =
      'Honeybees dance to share news. A forager runs a straight line on the comb while shaking her body. The angle of that run points to the flowers. The length of the waggle tells how far away they are. Her sisters follow her and then fly out to find the food.';
    const job = await made(user, sourceBody({ kind: 'script', text: script }));
    expect(job.params.topic).toBe('Honeybees dance to share news.');
    expect(job.params.source).toEqual({ kind: 'script' });
    // The source's text is not repeated in the job's parameters (the post kit's description, made
    // from the narration the video speaks, may quote it).
    expect(JSON.stringify({ ...job, result: { ...job.result, post: undefined } })).not.toContain('The angle of that run');
    const board = await storyboardOf(user, job.id);
    expect(board.scenes).toHaveLength(5);
    expect(board.scenes.map((scene) => scene.narration).join(' ')).toBe(script);
    expect(board.scenes.map((scene) => scene.sourceSentences)).toEqual([
      ['Honeybees dance to share news.'],
      ['A forager runs a straight line on the comb while shaking her body.'],
      ['The angle of that run points to the flowers.'],
      ['The length of the waggle tells how far away they are.'],
      ['Her sisters follow her and then fly out to find the food.'],
    ]);
  });

  it('tells a pasted article with its own sentences and credits its title and link', { timeout: 130_000 }, async () => {
    const user = await registerUser(app, 'article');
    const job = await made(
      user,
      sourceBody({ kind: 'article', text: articleFile, title: ARTICLE_TITLE, url: 'https://magazine.example/bees' }),
    );
    expect(job.params.topic).toBe(ARTICLE_TITLE);
    expect(job.params.source).toEqual({ kind: 'article', title: ARTICLE_TITLE, url: 'https://magazine.example/bees' });
    expect(job.result!.source).toEqual({ kind: 'article', title: ARTICLE_TITLE, url: 'https://magazine.example/bees' });
    const board = await storyboardOf(user, job.id);
    for (const scene of board.scenes) {
      expect(scene.sourceSentences!.length).toBeGreaterThan(0);
      for (const sentence of scene.sourceSentences!) expect(articleFile).toContain(sentence);
    }
  });

  it(
    'fetches a link, tells the article body only (no navigation, cookie banner, ads or footer), and credits the page',
    { timeout: 130_000 },
    async () => {
      const user = await registerUser(app, 'link');
      const job = await made(user, sourceBody({ kind: 'url', url: `${pages.url}/hop1` }));
      // Redirects are followed (three here); the credit names the page the article was read at.
      expect(job.params.source).toEqual({ kind: 'article', title: ARTICLE_TITLE, url: `${pages.url}/article` });
      expect(job.params.topic).toBe(ARTICLE_TITLE);
      const board = await storyboardOf(user, job.id);
      const body = articleParagraphs.join('\n');
      const narration = board.scenes.map((scene) => scene.narration).join(' ');
      expect(narration.length).toBeGreaterThan(200);
      for (const scene of board.scenes) for (const sentence of scene.sourceSentences!) expect(body).toContain(sentence);
      for (const word of CHROME_WORDS) expect(narration.toLowerCase()).not.toContain(word.toLowerCase());
      const parsed = videoJobSchema.parse(job);
      expect(parsed.params.source?.title).toBe(ARTICLE_TITLE);
    },
  );

  it(
    'never narrates the ad, header, navigation, cookie banner or aside beside <main><article> (issue 49)',
    { timeout: 130_000 },
    async () => {
      const user = await registerUser(app, 'ad-page');
      const job = await made(user, sourceBody({ kind: 'url', url: `${pages.url}/ad-beside-article` }));
      const board = await storyboardOf(user, job.id);
      const body = articleParagraphs.join('\n');
      const narration = board.scenes.map((scene) => scene.narration).join(' ');
      expect(narration.length).toBeGreaterThan(200);
      for (const scene of board.scenes) for (const sentence of scene.sourceSentences!) expect(body).toContain(sentence);
      for (const words of ['Advertisement', 'SuperPhone', 'forty percent', 'cookie', 'Nature news', 'Sign in', 'strangest fish'])
        expect(narration.toLowerCase()).not.toContain(words.toLowerCase());
    },
  );

  it(
    'tells or refuses the poison articles of the third security round (200,000 characters without a sentence end, only stop words, only emoji) while /health answers within 1 s',
    { timeout: 240_000 },
    async () => {
      const poison = {
        'no sentence end': Array.from({ length: ARTICLE_MAX_LENGTH / 8 }, (_, index) => `word${index % 50}`)
          .join(' ')
          .slice(0, ARTICLE_MAX_LENGTH),
        'only stop words': 'the and of to '.repeat(Math.floor(ARTICLE_MAX_LENGTH / 14)),
        'only emoji': '😀 🎉 '.repeat(Math.floor(ARTICLE_MAX_LENGTH / 6)),
      };
      for (const [name, text] of Object.entries(poison)) {
        const user = await registerUser(app, 'poison');
        const response = await submit(app, user, sourceBody({ kind: 'article', text, title: `Poison: ${name}` }));
        expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
        const { jobId } = response.json() as { jobId: string };
        let slowest = 0;
        const job = await waitFor(
          async () => {
            const started = Date.now();
            expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
            slowest = Math.max(slowest, Date.now() - started);
            const status = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/status`, headers: bearer(user) });
            const found = videoJobSchema.parse(status.json());
            return found.status === 'completed' || found.status === 'failed' ? found : null;
          },
          `the ${name} article to be told or refused`,
          120_000,
        );
        // The server stayed up and answering; a refusal says why in the creator's words.
        expect(slowest, name).toBeLessThan(1_000);
        if (job.status === 'failed')
          expect(job.error, name).toMatch(/^This text (is too long or too unusual to summarise|has no sentences that can be told)/);
      }
    },
  );

  it('reads a plain-text page and a page in another charset', async () => {
    const user = await registerUser(app, 'charset');
    await subscribe(app, user.id, 'pro_plan');
    const text = await submit(app, user, sourceBody({ kind: 'url', url: `${pages.url}/notes.txt` }));
    expect(text.statusCode, text.body).toBe(200);
    // A German page for German narration: decoded from ISO-8859-1 (the umlauts survive) and accepted.
    const latin = await submit(app, user, sourceBody({ kind: 'url', url: `${pages.url}/latin1` }, { language: 'de', voice: 'de-m1' }));
    expect(latin.statusCode, latin.body).toBe(200);
    const jobs = await jobsOf(app, user);
    expect(jobs.map((job) => job.params.topic).sort()).toEqual([ARTICLE_TITLE, 'Über Bären'].sort());
  });

  it("refuses a script longer than the duration holds, with the storyboard's words message", async () => {
    const script = Array.from({ length: 30 }, (_, index) => `Sentence number ${index + 1} is here.`).join(' ');
    await refused(
      app,
      sourceBody({ kind: 'script', text: script }),
      'source.text',
      STORYBOARD_MESSAGES.narrationTooLongForDuration(150, 99, 30),
    );
  });

  it('refuses a source in another language than the narration when no story model can translate', async () => {
    const german = readFileSync(new URL('../../packages/pipeline/src/story/source-articles/de.txt', import.meta.url), 'utf8');
    await refused(
      app,
      sourceBody({ kind: 'article', text: german }),
      'language',
      'This article is in German; choose German narration, or configure a story model to translate it into English.',
    );
  });

  it('accepts a source in another language when a story model is configured to translate it', async () => {
    const german = readFileSync(new URL('../../packages/pipeline/src/story/source-articles/de.txt', import.meta.url), 'utf8');
    const database = await createTestDatabase('sqlite');
    const withModel = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      // The job is only queued here; the model's translation is the story provider's own test.
      jobs: {
        autoStart: false,
        env: { PATH: process.env.PATH, STORY_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      },
    });
    try {
      const user = await registerUser(withModel, 'translate');
      const response = await submit(
        withModel,
        user,
        sourceBody({ kind: 'article', text: german, title: 'Wie das Fahrrad die Welt veränderte' }),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect((await jobsOf(withModel, user)).map((job) => job.params.source)).toEqual([
        { kind: 'article', title: 'Wie das Fahrrad die Welt veränderte' },
      ]);
    } finally {
      await withModel.close();
      await database.cleanup();
    }
  });

  it('refuses each link it cannot read with its reason, queuing nothing', async () => {
    await refused(
      app,
      sourceBody({ kind: 'url', url: `${pages.url}/gone` }),
      'source.url',
      'The page was not found (the site answered HTTP 404). Check the link.',
    );
    await refused(app, sourceBody({ kind: 'url', url: `${pages.url}/home` }), 'source.url', /^No article could be found on that page/);
    await refused(
      app,
      sourceBody({ kind: 'url', url: `${pages.url}/picture.png` }),
      'source.url',
      'The link is not a web page or text (it is image/png). Give the link of an article, or paste its text.',
    );
    await refused(
      app,
      sourceBody({ kind: 'url', url: `${pages.url}/huge` }),
      'source.url',
      "The page is larger than 2 MB. Paste the article's text instead.",
    );
    await refused(app, sourceBody({ kind: 'url', url: `${pages.url}/slow` }), 'source.url', /^The page did not arrive within/);
    await refused(
      app,
      sourceBody({ kind: 'url', url: `${pages.url}/loop1` }),
      'source.url',
      'The link redirects more than 3 times. Paste the address the page finally opens at.',
    );
    await refused(
      app,
      sourceBody({ kind: 'url', url: 'ftp://files.example/article.txt' }),
      'source.url',
      'The link is not a web address. Paste an address that starts with http:// or https://.',
    );
  });

  it('refuses a link to a private address unless SOURCE_ALLOW_PRIVATE is set, queuing nothing', async () => {
    const message = await refused(
      guarded,
      sourceBody({ kind: 'url', url: `${pages.url}/article` }),
      'source.url',
      /^The address 127\.0\.0\.1 is not allowed/,
    );
    expect(message).toContain('loopback, private, link-local or metadata address');
    await refused(
      guarded,
      sourceBody({ kind: 'url', url: 'http://169.254.169.254/latest/meta-data/' }),
      'source.url',
      /^The address 169\.254\.169\.254 is not allowed/,
    );
    await refused(guarded, sourceBody({ kind: 'url', url: 'http://[::1]:8080/' }), 'source.url', /^The address ::1 is not allowed/);
  });

  it("documents the source in the OpenAPI document: the request's three kinds, topic optional, and the credit", async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>;
    };
    const body = JSON.stringify(document.paths['/api/videos/generate']!.post!.requestBody.content['application/json']!.schema);
    for (const kind of ['"script"', '"article"', '"url"']) expect(body).toContain(kind);
    const text = JSON.stringify(document);
    expect(text).toContain('sourceSentences');
    const schema = document.paths['/api/videos/generate']!.post!.requestBody.content['application/json']!.schema as { required?: string[] };
    expect(schema.required).toContain('style');
    expect(schema.required).not.toContain('topic');
  });

  it('still needs a topic when there is no source', async () => {
    const user = await registerUser(app, 'topicless');
    const response = await submit(app, user, { style: 'educational', language: 'en', duration: 30, voice: 'en-us-m3' });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { field?: string }).field).toBe('topic');
  });
});
