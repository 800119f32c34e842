import { createCanvas } from '@napi-rs/canvas';
import { FAKE_ARTICLES, type FakeArticle } from './fake-wikimedia-articles.js';
import { startFakeHttpServer, type FakeServer, type RecordedRequest, type ScriptedResponse } from './fake-http-server.js';

/**
 * A local stand-in for Wikipedia (every language) and Wikimedia Commons: the MediaWiki Action API at
 * `/<lang>/w/api.php` and `/commons/w/api.php`, answering `format=json&formatversion=2` in the real
 * shapes (`list=search`; `prop=extracts|pageimages|info|pageprops` with `explaintext`; Commons'
 * `generator=search` and `titles=` with `prop=imageinfo`, `iiprop=url|extmetadata|size|mime`), and
 * the picture files at `/media/…` (small real JPEGs). Searches rank non-free, NC, ND, fair-use and
 * unlicensed files first, so a client that does not filter licences shows them.
 */

export interface FakeCommonsFile {
  /** Without "File:", with spaces. */
  name: string;
  keywords: string[];
  width: number;
  height: number;
  colour: string;
  /** extmetadata fields; absent ones are not sent (a file without a licence has none). */
  licenseShortName?: string;
  license?: string;
  licenseUrl?: string;
  usageTerms?: string;
  nonFree?: boolean;
  artist?: string;
}

export const FAKE_COMMONS_FILES: FakeCommonsFile[] = [
  // Offered first for every octopus search: none of these may ever appear in a video.
  {
    name: 'Octopus NC photo.jpg',
    keywords: ['octopus', 'kraken', 'heart', 'ocean'],
    width: 1080,
    height: 1920,
    colour: '#ff00ff',
    licenseShortName: 'CC BY-NC-SA 4.0',
    license: 'cc-by-nc-sa-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
    artist: '<a href="//commons.wikimedia.org/wiki/User:Nc">Nora Noncommercial</a>',
  },
  {
    name: 'Octopus film still.jpg',
    keywords: ['octopus', 'kraken', 'heart'],
    width: 1080,
    height: 1920,
    colour: '#ff0000',
    licenseShortName: 'Fair use',
    nonFree: true,
    artist: 'A Studio',
  },
  {
    name: 'Octopus ND drawing.jpg',
    keywords: ['octopus', 'kraken', 'ocean'],
    width: 1080,
    height: 1920,
    colour: '#ffff00',
    licenseShortName: 'CC BY-ND 2.0',
    license: 'cc-by-nd-2.0',
    artist: 'Dee Noderivs',
  },
  {
    name: 'Octopus unknown licence.jpg',
    keywords: ['octopus', 'kraken', 'lighthouse', 'volcano'],
    width: 1080,
    height: 1920,
    colour: '#00ff00',
    artist: 'Nobody Knows',
  },
  // Free ones, in the order a search ranks them.
  {
    name: 'Common octopus on a reef.jpg',
    keywords: ['octopus', 'kraken', 'reef', 'coral'],
    width: 1200,
    height: 1600,
    colour: '#1d4e89',
    licenseShortName: 'CC BY-SA 4.0',
    license: 'cc-by-sa-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
    artist: '<a href="//commons.wikimedia.org/wiki/User:Ana">Ana <b>Reef</b></a> &amp; friends',
  },
  {
    name: 'Octopus heart diagram.png',
    keywords: ['octopus', 'heart', 'kraken', 'blood'],
    width: 1080,
    height: 1350,
    colour: '#c0392b',
    licenseShortName: 'CC0',
    license: 'cc0',
    artist: 'Ben Diagram',
  },
  {
    name: 'Octopus ink cloud panorama.jpg',
    keywords: ['octopus', 'ink', 'kraken'],
    width: 4000,
    height: 1000,
    colour: '#222222',
    licenseShortName: 'CC BY 2.0',
    license: 'cc-by-2.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/2.0/',
    artist: 'Cara Ink',
  },
  {
    name: 'Octopus camouflage on rocks.jpg',
    keywords: ['octopus', 'camouflage', 'kraken', 'rock'],
    width: 900,
    height: 1600,
    colour: '#8d6e63',
    licenseShortName: 'Public domain',
    license: 'pd',
    artist: 'NOAA',
  },
  {
    name: 'Octopus eggs guarded.jpg',
    keywords: ['octopus', 'egg', 'kraken'],
    width: 1080,
    height: 1920,
    colour: '#f4a261',
    licenseShortName: 'CC BY-SA 3.0 de',
    license: 'cc-by-sa-3.0-de',
    artist: 'Dora Ei',
  },
  {
    name: 'Lighthouse at dusk.jpg',
    keywords: ['lighthouse', 'tower', 'light', 'ship'],
    width: 1080,
    height: 1920,
    colour: '#f1c40f',
    licenseShortName: 'CC BY-SA 4.0',
    license: 'cc-by-sa-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
    artist: 'Eli Keeper',
  },
  {
    name: 'Fresnel lens.jpg',
    keywords: ['lighthouse', 'lens', 'glass', 'fresnel'],
    width: 1200,
    height: 1500,
    colour: '#5dade2',
    licenseShortName: 'CC0',
    license: 'cc0',
    artist: 'Fay Glass',
  },
  {
    name: 'Erupting volcano panorama.jpg',
    keywords: ['volcano', 'lava', 'eruption'],
    width: 5000,
    height: 1200,
    colour: '#b23a1b',
    licenseShortName: 'CC BY 4.0',
    license: 'cc-by-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    artist: 'Gus Magma',
  },
  {
    name: 'Volcano lava flow at night.jpg',
    keywords: ['volcano', 'lava', 'magma', 'mountain'],
    width: 1080,
    height: 1620,
    colour: '#e67e22',
    licenseShortName: 'Public domain',
    license: 'pd',
    artist: 'USGS',
  },
];

export type FakeWikimediaMode = 'normal' | 'hang' | 'empty';

export interface FakeWikimediaServer extends FakeServer {
  /** WIKIPEDIA_API_URL ({lang} kept for the client to fill in). */
  wikipediaApiUrl: string;
  commonsApiUrl: string;
  /** RESEARCH_MEDIA_HOSTS: this server's host:port. */
  mediaHost: string;
  /** The environment that points the pipeline at this fake. */
  env: Record<string, string>;
  /** 'hang': never answers (a Wikimedia that stopped answering); 'empty': finds nothing; 'normal'. */
  setMode(mode: FakeWikimediaMode): void;
  /** Requests for pictures served (paths under /media/). */
  mediaRequests(): RecordedRequest[];
}

const fileUrl = (base: string, name: string) => `${base}/media/${encodeURIComponent(name.replaceAll(' ', '_'))}`;
const pageTitle = (name: string) => name.replaceAll('_', ' ');
const jpegs = new Map<string, Buffer>();

function pictureBytes(file: FakeCommonsFile): Buffer {
  let bytes = jpegs.get(file.name);
  if (!bytes) {
    // Small but with the file's shape, so crops are real crops.
    const scale = 360 / Math.min(file.width, file.height);
    const canvas = createCanvas(Math.round(file.width * scale), Math.round(file.height * scale));
    const context = canvas.getContext('2d');
    context.fillStyle = file.colour;
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = '#ffffff';
    context.fillRect(canvas.width * 0.4, canvas.height * 0.4, canvas.width * 0.2, canvas.height * 0.2);
    bytes = canvas.encodeSync('jpeg', 85);
    jpegs.set(file.name, bytes);
  }
  return bytes;
}

function extmetadata(file: FakeCommonsFile): Record<string, { value: string; source: string; hidden?: string }> {
  const fields: Record<string, { value: string; source: string; hidden?: string }> = {
    ObjectName: { value: file.name.replace(/\.[a-z]+$/i, ''), source: 'mediawiki-metadata', hidden: '' },
    DateTime: { value: '2024-05-01 10:00:00', source: 'mediawiki-metadata', hidden: '' },
  };
  if (file.licenseShortName) fields.LicenseShortName = { value: file.licenseShortName, source: 'commons-desc-page', hidden: '' };
  if (file.license) fields.License = { value: file.license, source: 'commons-templates', hidden: '' };
  if (file.licenseUrl) fields.LicenseUrl = { value: file.licenseUrl, source: 'commons-desc-page', hidden: '' };
  if (file.usageTerms) fields.UsageTerms = { value: file.usageTerms, source: 'commons-desc-page', hidden: '' };
  if (file.nonFree) fields.NonFree = { value: 'true', source: 'commons-desc-page', hidden: '' };
  if (file.artist) fields.Artist = { value: file.artist, source: 'commons-desc-page' };
  return fields;
}

function imagePage(base: string, file: FakeCommonsFile, pageid: number, index: number | undefined, thumbWidth: number) {
  const thumbHeight = Math.round((file.height * thumbWidth) / file.width);
  return {
    pageid,
    ns: 6,
    title: `File:${file.name}`,
    ...(index !== undefined ? { index } : {}),
    imagerepository: 'local',
    imageinfo: [
      {
        size: 123_456,
        width: file.width,
        height: file.height,
        thumburl: fileUrl(base, file.name) + `?width=${thumbWidth}`,
        thumbwidth: thumbWidth,
        thumbheight: thumbHeight,
        responsiveUrls: {},
        url: fileUrl(base, file.name),
        descriptionurl: `https://commons.wikimedia.org/wiki/File:${encodeURIComponent(file.name.replaceAll(' ', '_'))}`,
        descriptionshorturl: `https://commons.wikimedia.org/w/index.php?curid=${pageid}`,
        mime: file.name.endsWith('.png') ? 'image/png' : 'image/jpeg',
        extmetadata: extmetadata(file),
      },
    ],
  };
}

const searchWords = (text: string) =>
  text
    .toLocaleLowerCase()
    .replace(/filetype:\S+/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 2);

/** A word matches a keyword when one starts with the other ("octopuses"/"octopus", "herzen"/"herz"). */
const wordMatches = (word: string, keyword: string) => word.startsWith(keyword) || keyword.startsWith(word);

function answerWikipedia(base: string, language: string, query: URLSearchParams): object {
  const articles = FAKE_ARTICLES.filter((article) => article.language === language);
  if (query.get('list') === 'search') {
    const words = searchWords(query.get('srsearch') ?? '');
    const limit = Number(query.get('srlimit') ?? '10');
    const found = articles.filter((article) =>
      searchWords(`${article.title} ${article.extract}`).some((word) => words.some((w) => wordMatches(w, word) && w.length > 3)),
    );
    // The title's own matches rank first, as CirrusSearch ranks them.
    found.sort(
      (a, b) =>
        Number(words.some((w) => wordMatches(w, b.title.toLowerCase()))) - Number(words.some((w) => wordMatches(w, a.title.toLowerCase()))),
    );
    return {
      batchcomplete: true,
      ...(found.length > limit ? { continue: { sroffset: limit, continue: '-||' } } : {}),
      query: {
        searchinfo: { totalhits: found.length },
        search: found.slice(0, limit).map((article, index) => ({
          ns: 0,
          title: article.title,
          pageid: 1000 + index,
          size: article.extract.length,
          wordcount: article.extract.split(/\s+/).length,
          snippet: `${article.extract.slice(0, 80).replace(new RegExp(`(${article.title})`, 'i'), '<span class="searchmatch">$1</span>')}`,
          timestamp: '2026-01-01T00:00:00Z',
        })),
      },
    };
  }
  const titles = (query.get('titles') ?? '').split('|');
  return {
    batchcomplete: true,
    query: {
      pages: titles.map((title, index) => {
        const article = articles.find((candidate) => candidate.title.toLowerCase() === title.toLowerCase());
        if (!article) return { ns: 0, title, missing: true };
        return answerArticle(base, language, article, 2000 + index);
      }),
    },
  };
}

function answerArticle(base: string, language: string, article: FakeArticle, pageid: number): object {
  const path = `/wiki/${encodeURIComponent(article.title.replaceAll(' ', '_'))}`;
  return {
    pageid,
    ns: 0,
    title: article.title,
    extract: article.extract,
    ...(article.pageimage ? { pageimage: article.pageimage } : {}),
    ...(article.disambiguation ? { pageprops: { disambiguation: '' } } : {}),
    contentmodel: 'wikitext',
    pagelanguage: language,
    pagelanguagehtmlcode: language,
    pagelanguagedir: 'ltr',
    touched: '2026-01-01T00:00:00Z',
    lastrevid: 123,
    length: article.extract.length,
    fullurl: `${base}/${language}${path}`,
    editurl: `${base}/${language}/w/index.php?title=${encodeURIComponent(article.title)}&action=edit`,
    canonicalurl: `${base}/${language}${path}`,
  };
}

function answerCommons(base: string, query: URLSearchParams): object {
  const width = Number(query.get('iiurlwidth') ?? '1080');
  if (query.get('generator') === 'search') {
    if (query.get('gsrnamespace') !== '6') return { batchcomplete: true };
    const words = searchWords(query.get('gsrsearch') ?? '');
    const found = FAKE_COMMONS_FILES.filter((file) => file.keywords.some((keyword) => words.some((word) => wordMatches(word, keyword))));
    // No hits: a generator answers without a query object at all.
    if (found.length === 0) return { batchcomplete: true };
    // A generator lists its pages by page id; `index` is the search rank.
    const pages = found.map((file, rank) => imagePage(base, file, 5000 + FAKE_COMMONS_FILES.indexOf(file), rank + 1, width));
    return { batchcomplete: true, query: { pages: pages.sort((a, b) => b.pageid - a.pageid) } };
  }
  const titles = (query.get('titles') ?? '').split('|');
  return {
    batchcomplete: true,
    query: {
      pages: titles.map((title) => {
        const name = pageTitle(title.replace(/^File:/, ''));
        const file = FAKE_COMMONS_FILES.find((candidate) => candidate.name === name);
        return file
          ? imagePage(base, file, 5000 + FAKE_COMMONS_FILES.indexOf(file), undefined, width)
          : { ns: 6, title: `File:${name}`, missing: true, known: false };
      }),
    },
  };
}

export async function startFakeWikimediaServer(): Promise<FakeWikimediaServer> {
  let base = '';
  let mode: FakeWikimediaMode = 'normal';
  const server = await startFakeHttpServer((request): ScriptedResponse => {
    if (mode === 'hang') return { status: 200, hang: true };
    const { pathname, searchParams } = request.url;
    if (pathname.startsWith('/media/')) {
      const name = pageTitle(decodeURIComponent(pathname.slice('/media/'.length)));
      const file = FAKE_COMMONS_FILES.find((candidate) => candidate.name === name);
      return file
        ? { status: 200, headers: { 'content-type': 'image/jpeg' }, body: pictureBytes(file) }
        : { status: 404, body: 'Not found' };
    }
    const api = /^\/([a-z-]+)\/w\/api\.php$/.exec(pathname);
    if (!api) return { status: 404, body: 'Not found' };
    if (searchParams.get('format') !== 'json' || searchParams.get('formatversion') !== '2' || searchParams.get('action') !== 'query') {
      return {
        status: 200,
        body: { error: { code: 'badvalue', info: 'This fake answers action=query&format=json&formatversion=2 only.' } },
      };
    }
    if (!/Reelsmith\/\S+ \(\S+\)/.test(String(request.headers['user-agent']))) {
      // Wikimedia refuses clients that do not say who they are.
      return { status: 403, body: 'Please set a user-agent and respect our robot policy.' };
    }
    if (mode === 'empty') {
      return {
        status: 200,
        body:
          searchParams.get('list') === 'search'
            ? { batchcomplete: true, query: { searchinfo: { totalhits: 0 }, search: [] } }
            : { batchcomplete: true },
      };
    }
    const site = api[1]!;
    return { status: 200, body: site === 'commons' ? answerCommons(base, searchParams) : answerWikipedia(base, site, searchParams) };
  });
  base = server.url;
  const host = new URL(base).host;
  const wikipediaApiUrl = `${base}/{lang}/w/api.php`;
  const commonsApiUrl = `${base}/commons/w/api.php`;
  return {
    ...server,
    wikipediaApiUrl,
    commonsApiUrl,
    mediaHost: host,
    env: { RESEARCH_PROVIDER: 'wikipedia', WIKIPEDIA_API_URL: wikipediaApiUrl, COMMONS_API_URL: commonsApiUrl, RESEARCH_MEDIA_HOSTS: host },
    setMode: (next) => {
      mode = next;
    },
    mediaRequests: () => server.requests.filter((request) => request.url.pathname.startsWith('/media/')),
  };
}
