import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPipelineConfig } from '../pipeline-config.js';
import { startFakeHttpServer, type FakeServer } from '../testing/fake-http-server.js';
import { startFakeWikimediaServer, type FakeWikimediaServer } from '../testing/fake-wikimedia-server.js';
import { ANSWER_CACHE_MAX_BYTES, createWikimediaClient, MAXLAG_SECONDS, retryAfterMs, WikimediaError } from './wikimedia-client.js';
import { createWikipediaResearch } from './wikipedia-research.js';

/**
 * The Wikimedia client against a fake as strict as Wikimedia: each rule is shown twice, the fake
 * refusing the request the client used to send, and the client passing.
 */

let fake: FakeWikimediaServer;
/** Another site: nothing of research may ever reach it. */
let foreign: FakeServer;
beforeAll(async () => {
  fake = await startFakeWikimediaServer();
  foreign = await startFakeHttpServer(() => ({ status: 200, headers: { 'content-type': 'image/jpeg' }, body: 'not for you' }));
});
afterAll(async () => {
  await Promise.all([fake.close(), foreign.close()]);
});

const CONTACT = 'Reelsmith/0.1.0 (research-tests@reelsmith.example)';
const client = (options: { mediaHosts?: string[]; userAgent?: string } = {}) =>
  createWikimediaClient({
    wikipediaApiUrl: fake.wikipediaApiUrl,
    commonsApiUrl: fake.commonsApiUrl,
    mediaHosts: options.mediaHosts ?? [fake.mediaHost, fake.thumbHost],
    userAgent: options.userAgent ?? CONTACT,
  });
const signal = () => AbortSignal.timeout(8000);
const apiRequests = () => fake.requests.filter((request) => request.url.pathname.endsWith('/api.php'));

describe("Wikimedia's User-Agent policy: a contact that reaches the operator", () => {
  it('refuses an agent whose contact is localhost, and the configured one passes', async () => {
    // What the server sent before WIKIMEDIA_CONTACT: its own unreachable address.
    const before = fake.refused().length;
    await expect(
      client({ userAgent: 'Reelsmith/0.1.0 (http://localhost:8080)' }).searchArticles('Octopus', 'en', 1, signal()),
    ).rejects.toThrow(/HTTP 403/);
    await expect(client({ userAgent: 'Reelsmith/0.1.0' }).searchArticles('Octopus', 'en', 1, signal())).rejects.toThrow(/HTTP 403/);
    expect(
      fake
        .refused()
        .slice(before)
        .map((refusal) => refusal.status),
    ).toEqual([403, 403]);

    const { PUBLIC_URL: _unset, ...env } = { ...fake.env, PUBLIC_URL: undefined };
    const config = loadPipelineConfig(env).research!;
    expect(config.userAgent).toBe('Reelsmith/0.1.0 (research-tests@reelsmith.example)');
    expect(config.hasContact).toBe(true);
    const found = await createWikimediaClient(config).searchArticles('Octopus', 'en', 1, signal());
    expect(found[0]?.title).toBe('Octopus');
  });

  it('never names localhost: without WIKIMEDIA_CONTACT the public URL, without either no address at all', () => {
    expect(loadPipelineConfig({ PUBLIC_URL: 'https://studio.example' }).research!.userAgent).toBe(
      'Reelsmith/0.1.0 (https://studio.example)',
    );
    const bare = loadPipelineConfig({}).research!;
    expect(bare.userAgent).not.toMatch(/localhost|127\.0\.0\.1/);
    expect(bare.hasContact).toBe(false);
    expect(() => loadPipelineConfig({ WIKIMEDIA_CONTACT: 'call me' })).toThrow(/WIKIMEDIA_CONTACT/);
  });
});

describe('thumbnails on thumb.wikimedia.org, and redirects checked hop by hop', () => {
  it('allows both Wikimedia media hosts by default', () => {
    expect(loadPipelineConfig({}).research!.mediaHosts).toEqual(['upload.wikimedia.org', 'thumb.wikimedia.org']);
  });

  it('downloads a thumbnail the API names on the thumbnail host, and none with the upload host alone', async () => {
    const picture = await client().pictureByName('Fresnel lens.jpg', 1080, signal());
    expect(new URL(picture!.downloadUrl).host).toBe(fake.thumbHost);
    const bytes = await client().downloadPicture(picture!.downloadUrl, signal());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // The setting as it was: the thumbnail host is not allowed, so Commons pictures stop appearing.
    expect(await client({ mediaHosts: [fake.mediaHost] }).pictureByName('Fresnel lens.jpg', 1080, signal())).toBeNull();
  });

  it('follows the upload host redirecting to the thumbnail host, and refuses a hop to any other host', async () => {
    const onUpload = `http://${fake.mediaHost}/media/thumb/Fresnel_lens.jpg/1080px-Fresnel_lens.jpg`;
    expect((await client().downloadPicture(onUpload, signal())).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    fake.redirectMediaTo(`${foreign.url}/elsewhere.jpg`);
    try {
      const picture = await client().pictureByName('Fresnel lens.jpg', 1080, signal());
      await expect(client().downloadPicture(picture!.downloadUrl, signal())).rejects.toThrow(/does not follow a link to/);
    } finally {
      fake.redirectMediaTo(null);
    }
    // An API answer redirected elsewhere is refused the same way.
    fake.setNext({ status: 302, headers: { location: `${foreign.url}/w/api.php` }, pathEndsWith: '/api.php' });
    await expect(client().searchArticles('Lighthouse redirect', 'en', 1, signal())).rejects.toBeInstanceOf(WikimediaError);
    expect(foreign.requests).toHaveLength(0);
  });
});

describe('rate limits: 429 with Retry-After, and maxlag', () => {
  it('waits the Retry-After a 429 asks for before asking again (the fake refuses a request that comes back sooner)', async () => {
    fake.throttle(1, 1);
    const before = apiRequests().length;
    const found = await client().searchArticles('Volcano throttled', 'en', 1, signal());
    expect(found[0]?.title).toBe('Volcano');
    const sent = apiRequests().slice(before);
    expect(sent).toHaveLength(2);
    expect(fake.refused().at(-1)).toMatchObject({ status: 429, reason: 'throttled' });
  });

  it('sends maxlag on every API request and retries a lagged answer after its Retry-After', async () => {
    fake.setLag(10, 1);
    const before = apiRequests().length;
    expect((await client().readArticle('Octopus', 'en', signal()))?.title).toBe('Octopus');
    const sent = apiRequests().slice(before);
    expect(sent.map((request) => request.url.searchParams.get('maxlag'))).toEqual([String(MAXLAG_SECONDS), String(MAXLAG_SECONDS)]);
    expect(fake.refused().at(-1)).toMatchObject({ reason: 'maxlag' });
  });

  it('gives up at once when the wait asked for is longer than research may take', async () => {
    fake.throttle(1, 30);
    await expect(client().searchArticles('Octopus too long', 'en', 1, signal())).rejects.toThrow(/asked to wait 30 s/);
    fake.throttle(0, 0);
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('credits from Artist and Attribution; restricted and badly addressed files skipped', () => {
  it('credits the author, never the source, and the attribution the licence asks for', async () => {
    const found = await createWikipediaResearch(client()).findPictures(
      {
        sceneText: 'Keepers wound the clockwork; Fresnel designed the lens; the Lighthouse of Alexandria was a wonder.',
        article: { title: 'Lighthouse', language: 'en' },
        width: 1080,
        height: 1920,
        avoidFiles: new Set(),
      },
      signal(),
    );
    const credit = (file: string) => found.find((candidate) => candidate.fileName === file)?.attribution;
    // CC BY with AttributionRequired and an Attribution text: that text (there is no Artist; Credit says "Own work").
    expect(credit('File:Keepers at the clockwork.jpg')?.author).toBe('Photo: Gil Winder / Lighthouse Museum');
    // Artist as text, its markup dropped.
    expect(credit('File:Alexandria Pharos reconstruction.jpg')?.author).toBe('Hal Pharos');
    expect(credit('File:Fresnel lens.jpg')?.author).toBe('Fay Glass');
    expect(found.every((candidate) => candidate.attribution.author !== 'Own work')).toBe(true);
    // Free by its licence, but trademarked; and a file page with a script for an address.
    expect(found.map((candidate) => candidate.fileName)).not.toContain('File:Lighthouse brand logo.jpg');
    expect(found.map((candidate) => candidate.fileName)).not.toContain('File:Octopus page with a script address.jpg');
  });

  it("keeps an article's address only when it is a web address", async () => {
    fake.setNext({
      status: 200,
      pathEndsWith: '/api.php',
      body: {
        batchcomplete: true,
        query: { pages: [{ pageid: 1, ns: 0, title: 'Hostile', extract: 'A page. '.repeat(60), fullurl: 'javascript:alert(1)' }] },
      },
    });
    const article = await client().readArticle('Hostile', 'en', signal());
    expect(article?.url).toBe(`${fake.url}/en/wiki/Hostile`);
  });
});

describe('the answer cache', () => {
  it('is capped in bytes: 40 hostile answers of 3.9 MB keep at most ANSWER_CACHE_MAX_BYTES', async () => {
    const padding = 'x'.repeat(3_900_000);
    const hostile = await startFakeHttpServer(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { search: [{ title: 'Octopus' }] }, padding }),
    }));
    try {
      const wikimedia = createWikimediaClient({
        wikipediaApiUrl: `${hostile.url}/w/api.php`,
        commonsApiUrl: `${hostile.url}/c/api.php`,
        mediaHosts: [],
        userAgent: CONTACT,
      });
      for (let index = 0; index < 40; index++) await wikimedia.searchArticles(`Octopus ${index}`, 'en', 1, signal());
      // Before: capped by count only (500), the 40 answers were all kept (about 160 MB as text, more parsed).
      expect(wikimedia.cachedAnswerBytes!()).toBeLessThanOrEqual(ANSWER_CACHE_MAX_BYTES);
      // A small answer is still kept and served from the cache.
      await wikimedia.searchArticles('Octopus 39', 'en', 1, signal());
    } finally {
      await hostile.close();
    }
  }, 60_000);
});
