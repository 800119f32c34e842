import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { CancelledError } from '../errors.js';
import type { WikipediaArticle, WikipediaArticleMatch } from '../providers/types.js';
import { freeLicence, isWebUrl, plainText, type ExtMetadata } from './commons-licence.js';

/**
 * Wikipedia and Wikimedia Commons through the MediaWiki Action API (`format=json&formatversion=2`):
 * `list=search` finds articles, `prop=extracts|pageimages|info` reads one as plain text, `prop=images`
 * lists the files an article shows, and on Commons `generator=search` in the File namespace with
 * `prop=imageinfo` finds pictures with their licence metadata. Every answer is size-capped and parsed
 * with zod, and answers are kept 24 h so a topic is asked once.
 *
 * As Wikimedia's rules ask (https://meta.wikimedia.org/wiki/User-Agent_policy,
 * https://www.mediawiki.org/wiki/API:Etiquette, https://www.mediawiki.org/wiki/Manual:Maxlag_parameter):
 * every request names Reelsmith and a way to reach its operator in its User-Agent; API requests carry
 * `maxlag=5` and, when the servers are lagged (`error.code: maxlag`) or answer 429/503, are retried
 * only after the `Retry-After` they send; few requests are in flight at once; and redirects are
 * followed by hand, each hop checked against the hosts the request may go to (the API's own host;
 * RESEARCH_MEDIA_HOSTS for picture files), so an answer can never send the server elsewhere.
 */

export interface WikimediaClientOptions {
  /** `https://{lang}.wikipedia.org/w/api.php`; `{lang}` is replaced by the narration language. */
  wikipediaApiUrl: string;
  commonsApiUrl: string;
  /** Hosts (with an optional port) picture files may be downloaded from; any other URL is ignored. */
  mediaHosts: readonly string[];
  /** "Reelsmith/0.1.0 (https://studio.example; ops@studio.example)". */
  userAgent: string;
  fetch?: typeof fetch;
  /** Longest Retry-After honoured (ms); a longer wait gives up at once (the job's budget is shorter). */
  maxRetryAfterMs?: number;
}

export interface CommonsPicture {
  /** "File:Octopus vulgaris.jpg". */
  fileName: string;
  pageUrl: string;
  /** A rendition about as wide as the video (iiurlwidth), else the original. */
  downloadUrl: string;
  width: number;
  height: number;
  mime: string;
  metadata: ExtMetadata;
}

/** JSON answers larger than this are refused: a search or an article extract is far smaller. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;
/** A picture rendition about 1080 px wide is well under this. */
const MAX_PICTURE_BYTES = 15 * 1024 * 1024;
const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const PICTURE_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** The lag (seconds) beyond which Wikimedia's API refuses a request, as its maxlag manual recommends for bots. */
export const MAXLAG_SECONDS = 5;
/** Retries after a 429, a 503 or a maxlag refusal, each after the Retry-After the server sent. */
const MAX_RETRIES = 2;
const MAX_REDIRECTS = 5;
/** Requests in flight at once per client: the etiquette asks for few, so parallel scenes queue here. */
const MAX_IN_FLIGHT = 4;
/** A file an article shows is a picture a video may use only in these formats (Commons renders a JPEG or PNG of them). */
const BITMAP_FILE = /\.(?:jpe?g|png|webp|tiff?)$/i;

export class WikimediaError extends Error {
  override name = 'WikimediaError';
  /** The HTTP status behind the failure, when an answer came (what the provider-call metrics classify by). */
  readonly status: number | undefined;
  constructor(message: string, options?: ErrorOptions & { status?: number }) {
    super(message, options);
    this.status = options?.status;
  }
}

// ---------- Answers, formatversion=2 ----------
const apiErrorSchema = z.object({ error: z.object({ code: z.string(), info: z.string().optional() }) });

const searchAnswerSchema = z.object({
  query: z.object({
    search: z.array(z.object({ title: z.string(), snippet: z.string().optional() })),
  }),
});

const articleAnswerSchema = z.object({
  query: z
    .object({
      pages: z.array(
        z.object({
          title: z.string(),
          missing: z.boolean().optional(),
          invalid: z.boolean().optional(),
          extract: z.string().optional(),
          fullurl: z.string().optional(),
          pageimage: z.string().optional(),
          pageprops: z.record(z.string(), z.unknown()).optional(),
          images: z.array(z.object({ title: z.string() })).optional(),
        }),
      ),
    })
    .optional(),
});

const imageInfoSchema = z.object({
  url: z.string(),
  descriptionurl: z.string(),
  width: z.number(),
  height: z.number(),
  mime: z.string(),
  thumburl: z.string().optional(),
  thumbwidth: z.number().optional(),
  thumbheight: z.number().optional(),
  extmetadata: z.record(z.string(), z.object({ value: z.unknown().optional() }).loose()).optional(),
});

const imagesAnswerSchema = z.object({
  query: z
    .object({
      pages: z.array(
        z.object({
          title: z.string(),
          index: z.number().optional(),
          missing: z.boolean().optional(),
          imageinfo: z.array(imageInfoSchema).optional(),
        }),
      ),
    })
    .optional(),
});

type ImagePage = NonNullable<z.infer<typeof imagesAnswerSchema>['query']>['pages'][number];

export interface WikimediaClient {
  searchArticles(query: string, language: string, limit: number, signal: AbortSignal): Promise<WikipediaArticleMatch[]>;
  readArticle(title: string, language: string, signal: AbortSignal): Promise<WikipediaArticle | null>;
  searchPictures(query: string, width: number, signal: AbortSignal): Promise<CommonsPicture[]>;
  /** One file's picture, by its name (an article's lead image); null when Commons does not hold it. */
  pictureByName(fileName: string, width: number, signal: AbortSignal): Promise<CommonsPicture | null>;
  /** The bitmap files ("File:….jpg") an article shows, in the order the API lists them (`prop=images`). */
  articleImages(title: string, language: string, signal: AbortSignal): Promise<string[]>;
  /** Usable pictures of these files (up to 50), with their licence metadata; the others are left out. */
  picturesByName(fileNames: readonly string[], width: number, signal: AbortSignal): Promise<CommonsPicture[]>;
  /** The picture's bytes, from an allowed media host only, checked to be a JPEG, PNG or WebP. */
  downloadPicture(url: string, signal: AbortSignal): Promise<Buffer>;
  /** The bytes of the API answers kept in the cache now (at most ANSWER_CACHE_MAX_BYTES). */
  cachedAnswerBytes?(): number;
}

/**
 * The API answers kept, by the bytes they arrived as, not only by count: 500 hostile answers of
 * 3.9 MB each would otherwise hold about 2 GB. An answer over a quarter of it is not kept.
 */
export const ANSWER_CACHE_MAX_BYTES = 16 * 1024 * 1024;

export function createWikimediaClient(options: WikimediaClientOptions): WikimediaClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  const answers = new LRUCache<string, object>({
    max: 500,
    maxSize: ANSWER_CACHE_MAX_BYTES,
    maxEntrySize: ANSWER_CACHE_MAX_BYTES / 4,
    ttl: CACHE_TTL_MS,
  });
  const mediaHosts = new Set(options.mediaHosts.map((host) => host.toLowerCase()));
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const slots = new Slots(MAX_IN_FLIGHT);
  const inFlight = new Map<string, InFlight>();

  const wikipediaApi = (language: string) => options.wikipediaApiUrl.replaceAll('{lang}', encodeURIComponent(language));

  async function getJson<T>(base: string, params: Record<string, string>, schema: z.ZodType<T>, signal: AbortSignal): Promise<T> {
    const url = new URL(base);
    for (const [name, value] of Object.entries({
      action: 'query',
      format: 'json',
      formatversion: '2',
      maxlag: String(MAXLAG_SECONDS),
      ...params,
    })) {
      url.searchParams.set(name, value);
    }
    const key = url.toString();
    const kept = answers.get(key);
    if (kept) return kept as T;
    // Scenes looked up at once ask some questions together (the article's pictures): asked once.
    return shared(key, (own) => askApi(url, schema, own), signal) as Promise<T>;
  }

  /** One in-flight request per question: each caller waits on it; it is aborted only when every caller gave up. */
  function shared<T>(key: string, run: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    let entry = inFlight.get(key);
    if (!entry || entry.controller.signal.aborted) {
      const controller = new AbortController();
      const created: InFlight = { controller, waiters: 0, promise: run(controller.signal) };
      created.promise.then(
        () => inFlight.delete(key),
        () => {
          if (inFlight.get(key) === created) inFlight.delete(key);
        },
      );
      inFlight.set(key, created);
      entry = created;
    }
    const joined = entry;
    joined.waiters += 1;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        joined.waiters -= 1;
        if (joined.waiters === 0) joined.controller.abort();
        reject(new CancelledError('The look-up ran out of time'));
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      joined.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value as T);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error instanceof Error ? error : new WikimediaError(String(error)));
        },
      );
    });
  }

  async function askApi<T>(url: URL, schema: z.ZodType<T>, signal: AbortSignal): Promise<T> {
    const key = url.toString();
    // An API answer comes from the API's own host: a redirect elsewhere is refused.
    const apiHost = new Set([url.host.toLowerCase()]);
    for (let attempt = 0; ; attempt += 1) {
      const { body, retryAfterMs } = await fetchCapped(url.toString(), apiHost, MAX_JSON_BYTES, signal);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new WikimediaError(`${url.host} answered with something that is not JSON`);
      }
      const refused = apiErrorSchema.safeParse(json);
      if (refused.success) {
        // Replication lag above maxlag: the API asks the client to come back after Retry-After.
        if (refused.data.error.code === 'maxlag' && attempt < MAX_RETRIES) {
          await waitBeforeRetry(url.host, retryAfterMs ?? 5_000, signal);
          continue;
        }
        throw new WikimediaError(`${url.host} refused the query: ${refused.data.error.code}`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new WikimediaError(`${url.host} answered in an unexpected shape`);
      answers.set(key, parsed.data as object, { size: Math.max(1, body.length) });
      return parsed.data;
    }
  }

  async function waitBeforeRetry(host: string, ms: number, signal: AbortSignal): Promise<void> {
    if (ms > maxRetryAfterMs)
      throw new WikimediaError(`${host} asked to wait ${Math.round(ms / 1000)} s before asking again`, { status: 429 });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', stop);
        resolve();
      }, ms);
      const stop = () => {
        clearTimeout(timer);
        reject(new CancelledError('The look-up ran out of time'));
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }

  /** One GET, following at most MAX_REDIRECTS redirects by hand (each hop's host checked), retried after 429/503 as Retry-After says. */
  async function fetchCapped(
    url: string,
    allowedHosts: ReadonlySet<string>,
    maxBytes: number,
    signal: AbortSignal,
    accept?: (type: string) => boolean,
  ): Promise<{ body: Buffer; retryAfterMs: number | null }> {
    let response: Response | undefined;
    let current = url;
    for (let attempt = 0, hops = 0; ;) {
      if (!allowedMediaUrl(current, allowedHosts)) throw new WikimediaError(`Research does not follow a link to ${hostOf(current)}`);
      try {
        response = await slots.run(
          () =>
            doFetch(current, {
              headers: { 'User-Agent': options.userAgent, 'Api-User-Agent': options.userAgent },
              redirect: 'manual',
              signal,
            }),
          signal,
        );
      } catch (error) {
        if (signal.aborted) throw new CancelledError('The look-up ran out of time');
        throw new WikimediaError(`${hostOf(current)} could not be reached`, { cause: error });
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => undefined);
        hops += 1;
        if (hops > MAX_REDIRECTS) throw new WikimediaError(`${hostOf(current)} redirected too many times`);
        current = new URL(location, current).toString();
        continue;
      }
      if ((response.status === 429 || response.status === 503) && attempt < MAX_RETRIES) {
        await response.body?.cancel().catch(() => undefined);
        attempt += 1;
        // Without a Retry-After, a short pause: never straight back.
        await waitBeforeRetry(hostOf(current), retryAfterMs(response.headers.get('retry-after')) ?? 1_000, signal);
        continue;
      }
      break;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new WikimediaError(`${hostOf(current)} answered HTTP ${response.status}`, { status: response.status });
    }
    if (accept && !accept(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel().catch(() => undefined);
      throw new WikimediaError(`${hostOf(current)} sent ${response.headers.get('content-type') ?? 'no content type'}`);
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new WikimediaError(`${hostOf(current)} sent more than ${maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel().catch(() => undefined);
            throw new WikimediaError(`${hostOf(current)} sent more than ${maxBytes} bytes`);
          }
          chunks.push(Buffer.from(value));
        }
      } catch (error) {
        if (signal.aborted) throw new CancelledError('The look-up ran out of time');
        throw error;
      }
    }
    return { body: Buffer.concat(chunks), retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
  }

  const toPicture = (page: ImagePage): CommonsPicture | null => {
    const info = page.imageinfo?.[0];
    // The credit links to the file page: only a web address may (a `javascript:` one never reaches a credit).
    if (!info || page.missing || !isWebUrl(info.descriptionurl)) return null;
    const downloadUrl = info.thumburl ?? info.url;
    return {
      fileName: page.title,
      pageUrl: info.descriptionurl,
      downloadUrl,
      width: info.thumburl && info.thumbwidth ? info.thumbwidth : info.width,
      height: info.thumburl && info.thumbheight ? info.thumbheight : info.height,
      mime: info.mime,
      metadata: (info.extmetadata ?? {}) as ExtMetadata,
    };
  };

  const isDownloadable = (picture: CommonsPicture): boolean =>
    PICTURE_MIMES.has(picture.mime) && allowedMediaUrl(picture.downloadUrl, mediaHosts) && freeLicence(picture.metadata) !== null;

  const imageInfoParams = (width: number) => ({
    prop: 'imageinfo',
    iiprop: 'url|extmetadata|size|mime',
    iiurlwidth: String(Math.round(width)),
    iiextmetadatafilter:
      'LicenseShortName|License|LicenseUrl|UsageTerms|Artist|NonFree|ObjectName|ImageDescription|Categories|AttributionRequired|Attribution|Restrictions',
  });

  return {
    cachedAnswerBytes: () => answers.calculatedSize,
    async searchArticles(query, language, limit, signal) {
      const base = wikipediaApi(language);
      const answer = await getJson(
        base,
        { list: 'search', srsearch: query, srlimit: String(limit), srnamespace: '0', srprop: 'snippet' },
        searchAnswerSchema,
        signal,
      );
      return answer.query.search.map((hit) => {
        const description = hit.snippet ? plainText(hit.snippet) : '';
        return { title: hit.title, url: articleUrl(base, hit.title), ...(description ? { description } : {}) };
      });
    },

    async readArticle(title, language, signal) {
      const base = wikipediaApi(language);
      const answer = await getJson(
        base,
        {
          prop: 'extracts|pageimages|info|pageprops',
          titles: title,
          redirects: '1',
          explaintext: '1',
          exsectionformat: 'wiki',
          inprop: 'url',
          piprop: 'name',
          ppprop: 'disambiguation',
        },
        articleAnswerSchema,
        signal,
      );
      const page = answer.query?.pages[0];
      if (!page || page.missing || page.invalid || !page.extract) return null;
      return {
        title: page.title,
        url: page.fullurl && isWebUrl(page.fullurl) ? page.fullurl : articleUrl(base, page.title),
        text: articleText(page.extract),
        ...(page.pageimage ? { leadImage: page.pageimage } : {}),
        disambiguation: page.pageprops?.disambiguation !== undefined,
      };
    },

    async searchPictures(query, width, signal) {
      const answer = await getJson(
        options.commonsApiUrl,
        {
          generator: 'search',
          gsrsearch: `filetype:bitmap ${query}`,
          gsrnamespace: '6',
          gsrlimit: '20',
          ...imageInfoParams(width),
        },
        imagesAnswerSchema,
        signal,
      );
      // A generator's pages come in page-id order; `index` is the search rank.
      const pages = [...(answer.query?.pages ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return pages.map(toPicture).filter((picture): picture is CommonsPicture => picture !== null && isDownloadable(picture));
    },

    async pictureByName(fileName, width, signal) {
      const answer = await getJson(
        options.commonsApiUrl,
        { titles: `File:${fileName.replace(/^File:/i, '')}`, ...imageInfoParams(width) },
        imagesAnswerSchema,
        signal,
      );
      const page = answer.query?.pages[0];
      const picture = page ? toPicture(page) : null;
      return picture && isDownloadable(picture) ? picture : null;
    },

    async articleImages(title, language, signal) {
      const answer = await getJson(
        wikipediaApi(language),
        { prop: 'images', titles: title, redirects: '1', imlimit: 'max' },
        articleAnswerSchema,
        signal,
      );
      const images = answer.query?.pages[0]?.images ?? [];
      return images.map((image) => image.title).filter((name) => BITMAP_FILE.test(name));
    },

    async picturesByName(fileNames, width, signal) {
      const titles = [...new Set(fileNames.map((name) => `File:${name.replace(/^[^:]+:/, '')}`))].slice(0, 50);
      if (titles.length === 0) return [];
      const answer = await getJson(
        options.commonsApiUrl,
        { titles: titles.join('|'), ...imageInfoParams(width) },
        imagesAnswerSchema,
        signal,
      );
      const byTitle = new Map((answer.query?.pages ?? []).map((page) => [page.title, page]));
      return titles
        .map((title) => byTitle.get(title))
        .map((page) => (page ? toPicture(page) : null))
        .filter((picture): picture is CommonsPicture => picture !== null && isDownloadable(picture));
    },

    async downloadPicture(url, signal) {
      if (!allowedMediaUrl(url, mediaHosts)) throw new WikimediaError(`Pictures are not downloaded from ${url}`);
      const { body } = await fetchCapped(url, mediaHosts, MAX_PICTURE_BYTES, signal, (type) => type === '' || type.startsWith('image/'));
      if (!isPicture(body)) throw new WikimediaError(`${hostOf(url)} sent something that is not a picture`);
      return body;
    },
  };
}

/** An article's address from its API's (`…/w/api.php` → `…/wiki/Title`), MediaWiki's default article path. */
function articleUrl(apiUrl: string, title: string): string {
  return new URL(`../wiki/${encodeURIComponent(title.replaceAll(' ', '_')).replaceAll('%2F', '/')}`, apiUrl).toString();
}

/** Sections that hold no prose worth telling once the markup is gone. */
const END_SECTIONS =
  /^(?:see also|references|notes|external links|further reading|sources|bibliography|siehe auch|literatur|weblinks|einzelnachweise|anmerkungen|véase también|referencias|enlaces externos|voir aussi|références|liens externes|notes et références|ver também|referências|ligações externas|関連項目|脚注|参考文献|外部リンク|इन्हें भी देखें|सन्दर्भ|बाहरी कड़ियाँ)$/i;

/**
 * The extract with each "== Heading ==" written as the heading alone on its own line, and nothing
 * from the reference sections on. The headings stay because they say where the answer is ("Waggle
 * dance", "Circulatory system"): the telling scores a section by its heading, and a line without a
 * full stop is never narrated itself (splitSentences marks it a fragment).
 */
export function articleText(extract: string): string {
  const kept: string[] = [];
  for (const raw of extract.split('\n')) {
    const line = raw.trim();
    const heading = /^=+\s*(.*?)\s*=+$/.exec(line);
    if (heading) {
      if (END_SECTIONS.test(heading[1]!)) break;
      if (heading[1]) kept.push(heading[1]);
      continue;
    }
    if (line) kept.push(line);
  }
  return kept.join('\n');
}

export function allowedMediaUrl(url: string, hosts: ReadonlySet<string>): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
    // `host` carries the port only when it is not the scheme's default, as the setting writes it.
    return hosts.has(parsed.host.toLowerCase());
  } catch {
    return false;
  }
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
};

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3), in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

interface InFlight {
  controller: AbortController;
  waiters: number;
  promise: Promise<unknown>;
}

/** At most `size` tasks at once; the others wait their turn (or their signal). */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    if (this.active >= this.size) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', stop);
          resolve();
        };
        const stop = () => {
          const index = this.waiting.indexOf(go);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        this.waiting.push(go);
        signal.addEventListener('abort', stop, { once: true });
      });
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

function isPicture(bytes: Buffer): boolean {
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const webp = bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
  return jpeg || png || webp;
}
