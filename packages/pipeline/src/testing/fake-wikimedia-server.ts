import { createCanvas } from '@napi-rs/canvas';
import { FAKE_ARTICLES, type FakeArticle } from './fake-wikimedia-articles.js';
import type { ResearchProvider } from '../providers/types.js';
import { createWikimediaClient } from '../research/wikimedia-client.js';
import { createWikipediaResearch } from '../research/wikipedia-research.js';
import { startFakeHttpServer, type FakeServer, type RecordedRequest, type ScriptedResponse } from './fake-http-server.js';

/**
 * A local stand-in for Wikipedia (every language) and Wikimedia Commons: the MediaWiki Action API at
 * `/<lang>/w/api.php` and `/commons/w/api.php`, answering `format=json&formatversion=2` in the real
 * shapes (`list=search`; `prop=extracts|pageimages|info|pageprops` with `explaintext`; `prop=images`;
 * Commons' `generator=search` and `titles=` with `prop=imageinfo`, `iiprop=url|extmetadata|size|mime`),
 * the original files at `/media/…` and their thumbnails on a second host (small real JPEGs). Searches
 * rank non-free, NC, ND, fair-use, unlicensed and restricted files first, so a client that does not
 * filter them shows them.
 *
 * As strict as Wikimedia where the real service refuses (each rule quotes its documentation):
 * - User-Agent policy (https://meta.wikimedia.org/wiki/User-Agent_policy): "Scripts should use an
 *   informative User-Agent string with contact information, or they may be IP-blocked without
 *   notice" — a request whose User-Agent names no reachable contact (none, or localhost) gets 403.
 * - Thumbnails (https://phabricator.wikimedia.org/T427465, "Move thumbnail caching from upload cluster to text"): `thumburl`
 *   names the thumbnail host (`thumb.wikimedia.org` in production, a second port here), and the
 *   upload host's thumbnail paths redirect there; only a client that allows both hosts shows them.
 * - Rate limits (https://www.mediawiki.org/wiki/API:Etiquette, RFC 9110 §10.2.3): `throttle()`
 *   answers 429 with `Retry-After`, and a request that comes back before that time gets 429 again.
 * - maxlag (https://www.mediawiki.org/wiki/Manual:Maxlag_parameter): "If the lag is greater than
 *   maxlag, the API returns an error with code `maxlag`" and a Retry-After header; `setLag()`
 *   simulates lagged replicas for requests that send maxlag.
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
  /** Where the file came from ("Own work"): never the author. */
  credit?: string;
  /** The licence's own attribution text, and whether the licence requires it. */
  attribution?: string;
  attributionRequired?: boolean;
  /** Non-copyright restrictions ("trademarked", "personality", "insignia"). */
  restrictions?: string;
  /** The file page's description (ImageDescription), in English. */
  description?: string;
  /** The file page's address, when the fake sends a hostile one. */
  descriptionUrl?: string;
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
  // The honey bee article's own pictures (`prop=images`), free: what a researched bee video shows.
  {
    name: 'Honey bee waggle dance on the comb.jpg',
    keywords: ['bee', 'bees', 'honeybee', 'honey', 'dance', 'waggle', 'comb', 'hive', 'forager'],
    width: 1080,
    height: 1350,
    colour: '#d4a017',
    licenseShortName: 'CC BY-SA 4.0',
    license: 'cc-by-sa-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
    artist: 'Wen Comb',
    description: 'A forager honey bee performs the waggle dance on a vertical comb.',
  },
  {
    name: 'Bees on flowers.jpg',
    keywords: ['bee', 'bees', 'honeybee', 'flowers', 'nectar', 'pollen', 'sun'],
    width: 1600,
    height: 1200,
    colour: '#7cb342',
    licenseShortName: 'CC0',
    license: 'cc0',
    artist: 'Flo Meadow',
    description: 'Honey bees collecting nectar from flowers in the sun.',
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
  // Free by its licence, but a trademark (and one with a hostile page address): never shown either.
  {
    name: 'Lighthouse brand logo.jpg',
    keywords: ['lighthouse', 'tower', 'light', 'keeper', 'lens', 'fresnel', 'octopus'],
    width: 1080,
    height: 1920,
    colour: '#00ffff',
    licenseShortName: 'CC BY-SA 4.0',
    license: 'cc-by-sa-4.0',
    restrictions: 'trademarked',
    artist: 'A Brand',
  },
  {
    name: 'Octopus page with a script address.jpg',
    keywords: ['octopus', 'kraken', 'lighthouse', 'tower'],
    width: 1080,
    height: 1920,
    colour: '#0000ff',
    licenseShortName: 'CC0',
    license: 'cc0',
    artist: 'Mallory',
    descriptionUrl: 'javascript:alert(document.cookie)',
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
    credit: 'Own work',
    description: 'A lighthouse tower at dusk, its lamp lit',
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
    credit: 'Own work',
    description: 'A first-order Fresnel lens: rings of glass prisms designed by Augustin Fresnel',
  },
  {
    name: 'Keepers at the clockwork.jpg',
    keywords: ['lighthouse', 'keeper', 'clockwork', 'museum'],
    width: 1600,
    height: 1000,
    colour: '#6c3483',
    licenseShortName: 'CC BY 4.0',
    license: 'cc-by-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    credit: 'Own work',
    attribution: 'Photo: Gil Winder / Lighthouse Museum',
    attributionRequired: true,
    description: 'Lighthouse keepers winding the clockwork that turns the lens; the tower is now a museum',
  },
  {
    name: 'Alexandria Pharos reconstruction.jpg',
    keywords: ['lighthouse', 'alexandria', 'wonder', 'pharos'],
    width: 1000,
    height: 1400,
    colour: '#d4ac0d',
    licenseShortName: 'CC BY-SA 3.0',
    license: 'cc-by-sa-3.0',
    artist: '<span class="fn">Hal <i>Pharos</i></span>',
    credit: 'Own work',
    description: 'A reconstruction of the Lighthouse of Alexandria, one of the Seven Wonders of the Ancient World',
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

/** The files each article shows (`prop=images`), by "language:title"; SVG maps and icons among them, as real articles have. */
export const FAKE_ARTICLE_IMAGES: Record<string, string[]> = {
  'en:Octopus': ['File:Octopus heart diagram.png', 'File:Octopus distribution map.svg', 'File:Octopus camouflage on rocks.jpg'],
  'de:Kraken': ['File:Octopus heart diagram.png', 'File:Octopus eggs guarded.jpg'],
  'en:Lighthouse': [
    'File:Alexandria Pharos reconstruction.jpg',
    'File:Commons-logo.svg',
    'File:Fresnel lens.jpg',
    'File:Keepers at the clockwork.jpg',
    'File:Lighthouse brand logo.jpg',
  ],
  'en:Volcano': ['File:Volcano lava flow at night.jpg'],
  'en:Honey bee': ['File:Honey bee waggle dance on the comb.jpg', 'File:Commons-logo.svg', 'File:Bees on flowers.jpg'],
};

export interface FakeWikimediaServer extends FakeServer {
  /** WIKIPEDIA_API_URL ({lang} kept for the client to fill in). */
  wikipediaApiUrl: string;
  commonsApiUrl: string;
  /** This server's host:port: the API and the original files (upload.wikimedia.org). */
  mediaHost: string;
  /** The thumbnail host's host:port (thumb.wikimedia.org): every `thumburl` names it. */
  thumbHost: string;
  /** The environment that points the pipeline at this fake (RESEARCH_MEDIA_HOSTS: both hosts; a contact). */
  env: Record<string, string>;
  /** 'hang': never answers (a Wikimedia that stopped answering); 'empty': finds nothing; 'normal'. */
  setMode(mode: FakeWikimediaMode): void;
  /** Every answer (API and files) waits this long: a slow Wikimedia, or one far away under load. */
  setDelay(ms: number): void;
  /** The next `count` API requests get 429 with `Retry-After: seconds`; one back before that time gets 429 again (`throttle(0, 0)` lifts it). */
  throttle(count: number, retryAfterSeconds: number): void;
  /** The next `count` API requests that send maxlag below `lagSeconds` get the maxlag error (Retry-After: 1). */
  setLag(lagSeconds: number, count: number): void;
  /** Picture files redirect (302) to this address instead of being served (a hop to a foreign host). */
  redirectMediaTo(url: string | null): void;
  /** Requests for pictures served (original files and thumbnails). */
  mediaRequests(): RecordedRequest[];
  /** Requests the fake refused (403 User-Agent, 429, maxlag), for tests that show it refusing. */
  refused(): { path: string; status: number; reason: string }[];
}

const fileUrl = (base: string, name: string) => `${base}/media/${encodeURIComponent(name.replaceAll(' ', '_'))}`;
const thumbUrl = (thumbBase: string, name: string, width: number) =>
  `${thumbBase}/media/thumb/${encodeURIComponent(name.replaceAll(' ', '_'))}/${width}px-${encodeURIComponent(name.replaceAll(' ', '_'))}`;

/**
 * "Scripts should use an informative User-Agent string with contact information" (User-Agent
 * policy): "<client>/<version> (<contact information>)", the contact an e-mail address or a URL that
 * reaches the operator; a localhost address reaches nobody.
 */
export function userAgentRefusal(userAgent: string | undefined): string | null {
  const match = /^Reelsmith\/\S+ \(([^)]*)\)/.exec(userAgent ?? '');
  if (!match) return 'no client name and version with a contact in parentheses';
  const contacts = match[1]!.split(/;\s*/);
  const reachable = contacts.some((contact) => {
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact)) return true;
    try {
      const url = new URL(contact);
      return /^https?:$/.test(url.protocol) && !/^(?:localhost|127\.|\[::1\]|0\.0\.0\.0)/.test(url.host);
    } catch {
      return false;
    }
  });
  return reachable ? null : `no reachable contact in "${match[1]}"`;
}
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
  fields.Credit = { value: file.credit ?? '<span class="int-own-work" lang="en">Own work</span>', source: 'commons-desc-page', hidden: '' };
  if (file.attribution) fields.Attribution = { value: file.attribution, source: 'commons-desc-page', hidden: '' };
  // Commons sends AttributionRequired for every licensed file: "true" for CC BY(-SA), "false" for CC0 and PD.
  if (file.license)
    fields.AttributionRequired = {
      value: String(file.attributionRequired ?? /^cc-by/.test(file.license)),
      source: 'commons-desc-page',
      hidden: '',
    };
  if (file.restrictions) fields.Restrictions = { value: file.restrictions, source: 'commons-desc-page', hidden: '' };
  if (file.description) fields.ImageDescription = { value: `<p>${file.description}</p>`, source: 'commons-desc-page' };
  return fields;
}

function imagePage(base: string, thumbBase: string, file: FakeCommonsFile, pageid: number, index: number | undefined, thumbWidth: number) {
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
        thumburl: thumbUrl(thumbBase, file.name, thumbWidth),
        thumbwidth: thumbWidth,
        thumbheight: thumbHeight,
        responsiveUrls: {},
        url: fileUrl(base, file.name),
        descriptionurl:
          file.descriptionUrl ?? `https://commons.wikimedia.org/wiki/File:${encodeURIComponent(file.name.replaceAll(' ', '_'))}`,
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
  // Each asked title in order, as a missing page when the fake does not hold it.
  const pages = (page: (article: FakeArticle, pageid: number) => unknown) => ({
    batchcomplete: true,
    query: {
      pages: titles.map((title, index) => {
        const article = articles.find((candidate) => candidate.title.toLowerCase() === title.toLowerCase());
        return article ? page(article, 2000 + index) : { ns: 0, title, missing: true };
      }),
    },
  });
  if (query.get('prop') === 'images') {
    return pages((article, pageid) => {
      const images = FAKE_ARTICLE_IMAGES[`${language}:${article.title}`] ?? [];
      return {
        pageid,
        ns: 0,
        title: article.title,
        ...(images.length ? { images: images.map((image) => ({ ns: 6, title: image })) } : {}),
      };
    });
  }
  return pages((article, pageid) => answerArticle(base, language, article, pageid));
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

function answerCommons(base: string, thumbBase: string, query: URLSearchParams): object {
  const width = Number(query.get('iiurlwidth') ?? '1080');
  if (query.get('generator') === 'search') {
    if (query.get('gsrnamespace') !== '6') return { batchcomplete: true };
    const words = searchWords(query.get('gsrsearch') ?? '');
    // CirrusSearch finds the pages that carry every word of the query (in the title, description or categories).
    const found = FAKE_COMMONS_FILES.filter((file) => {
      const text = [...file.keywords, ...searchWords(`${file.name} ${file.description ?? ''}`)];
      return words.length > 0 && words.every((word) => text.some((keyword) => wordMatches(word, keyword)));
    });
    // No hits: a generator answers without a query object at all.
    if (found.length === 0) return { batchcomplete: true };
    // A generator lists its pages by page id; `index` is the search rank.
    const pages = found.map((file, rank) => imagePage(base, thumbBase, file, 5000 + FAKE_COMMONS_FILES.indexOf(file), rank + 1, width));
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
          ? imagePage(base, thumbBase, file, 5000 + FAKE_COMMONS_FILES.indexOf(file), undefined, width)
          : { ns: 6, title: `File:${name}`, missing: true, known: false };
      }),
    },
  };
}

export async function startFakeWikimediaServer(): Promise<FakeWikimediaServer> {
  let base = '';
  let thumbBase = '';
  let mode: FakeWikimediaMode = 'normal';
  let delayMs = 0;
  let throttleLeft = 0;
  let retryAfterSeconds = 0;
  let throttledUntil = 0;
  let lag = { seconds: 0, left: 0 };
  let mediaRedirect: string | null = null;
  const refusals: { path: string; status: number; reason: string }[] = [];
  const refuse = (request: RecordedRequest, response: ScriptedResponse, reason: string): ScriptedResponse => {
    refusals.push({ path: request.url.pathname, status: response.status, reason });
    return { ...response, delayMs };
  };
  const serveFile = (request: RecordedRequest, name: string): ScriptedResponse => {
    const refusal = userAgentRefusal(request.headers['user-agent']);
    // The media servers apply the same User-Agent policy as the API.
    if (refusal) return refuse(request, { status: 403, body: 'Please set a user-agent and respect our robot policy.' }, refusal);
    if (mediaRedirect) return { status: 302, headers: { location: mediaRedirect }, delayMs };
    const file = FAKE_COMMONS_FILES.find((candidate) => candidate.name === name);
    return file
      ? { status: 200, headers: { 'content-type': 'image/jpeg' }, body: pictureBytes(file), delayMs }
      : { status: 404, body: 'Not found', delayMs };
  };

  // thumb.wikimedia.org: /media/thumb/<file>/<width>px-<file>.
  const thumbs = await startFakeHttpServer((request): ScriptedResponse => {
    if (mode === 'hang') return { status: 200, hang: true };
    const thumb = /^\/media\/thumb\/([^/]+)\/\d+px-/.exec(request.url.pathname);
    return thumb ? serveFile(request, pageTitle(decodeURIComponent(thumb[1]!))) : { status: 404, body: 'Not found' };
  });
  thumbBase = thumbs.url;

  const server = await startFakeHttpServer((request): ScriptedResponse => {
    if (mode === 'hang') return { status: 200, hang: true };
    const { pathname, searchParams } = request.url;
    if (pathname.startsWith('/media/thumb/')) {
      // The upload host's thumbnail paths now live on the thumbnail host.
      return { status: 301, headers: { location: `${thumbBase}${pathname}` }, delayMs };
    }
    if (pathname.startsWith('/media/')) return serveFile(request, pageTitle(decodeURIComponent(pathname.slice('/media/'.length))));
    const api = /^\/([a-z-]+)\/w\/api\.php$/.exec(pathname);
    if (!api) return { status: 404, body: 'Not found' };
    if (searchParams.get('format') !== 'json' || searchParams.get('formatversion') !== '2' || searchParams.get('action') !== 'query') {
      return {
        status: 200,
        body: { error: { code: 'badvalue', info: 'This fake answers action=query&format=json&formatversion=2 only.' } },
      };
    }
    const refusal = userAgentRefusal(request.headers['user-agent']);
    if (refusal) {
      // "Requests from disallowed user agents may instead encounter a less helpful error message":
      // Wikimedia refuses clients that do not say who they are and how to reach them.
      return refuse(request, { status: 403, body: 'Please set a user-agent and respect our robot policy.' }, refusal);
    }
    const now = Date.now();
    if (now < throttledUntil || throttleLeft > 0) {
      // Too many requests: come back after Retry-After, not before.
      if (now >= throttledUntil) {
        throttleLeft -= 1;
        throttledUntil = now + retryAfterSeconds * 1000;
      }
      return refuse(
        request,
        {
          status: 429,
          headers: { 'retry-after': String(Math.max(1, Math.ceil((throttledUntil - now) / 1000))) },
          body: 'Too many requests. Please respect our robot policy.',
        },
        'throttled',
      );
    }
    const maxlag = searchParams.get('maxlag');
    if (lag.left > 0 && maxlag !== null && Number(maxlag) < lag.seconds) {
      lag.left -= 1;
      return refuse(
        request,
        {
          status: 200,
          headers: { 'retry-after': '1', 'x-database-lag': String(lag.seconds) },
          body: {
            error: { code: 'maxlag', info: `Waiting for 10.64.0.1: ${lag.seconds} seconds lagged.`, host: '10.64.0.1', lag: lag.seconds },
          },
        },
        'maxlag',
      );
    }
    if (mode === 'empty') {
      return {
        status: 200,
        delayMs,
        body:
          searchParams.get('list') === 'search'
            ? { batchcomplete: true, query: { searchinfo: { totalhits: 0 }, search: [] } }
            : { batchcomplete: true },
      };
    }
    const site = api[1]!;
    return {
      status: 200,
      delayMs,
      body: site === 'commons' ? answerCommons(base, thumbBase, searchParams) : answerWikipedia(base, site, searchParams),
    };
  });
  base = server.url;
  const host = new URL(base).host;
  const thumbHost = new URL(thumbBase).host;
  const wikipediaApiUrl = `${base}/{lang}/w/api.php`;
  const commonsApiUrl = `${base}/commons/w/api.php`;
  return {
    ...server,
    wikipediaApiUrl,
    commonsApiUrl,
    mediaHost: host,
    thumbHost,
    env: {
      RESEARCH_PROVIDER: 'wikipedia',
      WIKIPEDIA_API_URL: wikipediaApiUrl,
      COMMONS_API_URL: commonsApiUrl,
      RESEARCH_MEDIA_HOSTS: `${host},${thumbHost}`,
      WIKIMEDIA_CONTACT: 'research-tests@reelsmith.example',
    },
    setMode: (next) => {
      mode = next;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    throttle: (count, seconds) => {
      throttleLeft = count;
      retryAfterSeconds = seconds;
      // A new rule starts now: a throttle(0, 0) lifts the one before.
      throttledUntil = 0;
    },
    setLag: (seconds, count) => {
      lag = { seconds, left: count };
    },
    redirectMediaTo: (url) => {
      mediaRedirect = url;
    },
    mediaRequests: () => [...server.requests, ...thumbs.requests].filter((request) => request.url.pathname.startsWith('/media/')),
    refused: () => [...refusals],
    close: async () => {
      await Promise.all([server.close(), thumbs.close()]);
    },
  };
}

/** Wikipedia research against the fake, through a fresh client (nothing answered from an earlier test's cache). */
export function researchOver(fake: FakeWikimediaServer, mediaHosts = [fake.mediaHost, fake.thumbHost]): ResearchProvider {
  return createWikipediaResearch(
    createWikimediaClient({
      wikipediaApiUrl: fake.wikipediaApiUrl,
      commonsApiUrl: fake.commonsApiUrl,
      mediaHosts,
      userAgent: 'Reelsmith/0.1.0 (research-tests@reelsmith.example)',
    }),
  );
}
