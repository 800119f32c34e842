import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { CancelledError } from '../errors.js';
import type { WikipediaArticle, WikipediaArticleMatch } from '../providers/types.js';
import { freeLicence, plainText, type ExtMetadata } from './commons-licence.js';

/**
 * Wikipedia and Wikimedia Commons through the MediaWiki Action API (`format=json&formatversion=2`):
 * `list=search` finds articles, `prop=extracts|pageimages|info` reads one as plain text, and on
 * Commons `generator=search` in the File namespace with `prop=imageinfo` finds pictures with their
 * licence metadata. Every request names Reelsmith in its User-Agent (Wikimedia's policy), every
 * answer is size-capped and parsed with zod, and answers are kept 24 h so a topic is asked once.
 */

export interface WikimediaClientOptions {
  /** `https://{lang}.wikipedia.org/w/api.php`; `{lang}` is replaced by the narration language. */
  wikipediaApiUrl: string;
  commonsApiUrl: string;
  /** Hosts (with an optional port) picture files may be downloaded from; any other URL is ignored. */
  mediaHosts: readonly string[];
  /** "Reelsmith/0.1.0 (https://studio.example)". */
  userAgent: string;
  fetch?: typeof fetch;
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

export class WikimediaError extends Error {
  override name = 'WikimediaError';
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
  /** The picture's bytes, from an allowed media host only, checked to be a JPEG, PNG or WebP. */
  downloadPicture(url: string, signal: AbortSignal): Promise<Buffer>;
}

export function createWikimediaClient(options: WikimediaClientOptions): WikimediaClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  const answers = new LRUCache<string, object>({ max: 500, ttl: CACHE_TTL_MS });
  const mediaHosts = new Set(options.mediaHosts.map((host) => host.toLowerCase()));

  const wikipediaApi = (language: string) => options.wikipediaApiUrl.replaceAll('{lang}', encodeURIComponent(language));

  async function getJson<T>(base: string, params: Record<string, string>, schema: z.ZodType<T>, signal: AbortSignal): Promise<T> {
    const url = new URL(base);
    for (const [name, value] of Object.entries({ action: 'query', format: 'json', formatversion: '2', ...params })) {
      url.searchParams.set(name, value);
    }
    const key = url.toString();
    const kept = answers.get(key);
    if (kept) return kept as T;
    const body = await fetchCapped(url.toString(), MAX_JSON_BYTES, signal);
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new WikimediaError(`${url.host} answered with something that is not JSON`);
    }
    const refused = apiErrorSchema.safeParse(json);
    if (refused.success) throw new WikimediaError(`${url.host} refused the query: ${refused.data.error.code}`);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new WikimediaError(`${url.host} answered in an unexpected shape`);
    answers.set(key, parsed.data as object);
    return parsed.data;
  }

  async function fetchCapped(url: string, maxBytes: number, signal: AbortSignal, accept?: (type: string) => boolean): Promise<Buffer> {
    let response: Response;
    try {
      response = await doFetch(url, { headers: { 'User-Agent': options.userAgent, 'Api-User-Agent': options.userAgent }, signal });
    } catch (error) {
      if (signal.aborted) throw new CancelledError('The look-up ran out of time');
      throw new WikimediaError(`${new URL(url).host} could not be reached`, { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new WikimediaError(`${new URL(url).host} answered HTTP ${response.status}`);
    }
    if (accept && !accept(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel().catch(() => undefined);
      throw new WikimediaError(`${new URL(url).host} sent ${response.headers.get('content-type') ?? 'no content type'}`);
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new WikimediaError(`${new URL(url).host} sent more than ${maxBytes} bytes`);
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
            throw new WikimediaError(`${new URL(url).host} sent more than ${maxBytes} bytes`);
          }
          chunks.push(Buffer.from(value));
        }
      } catch (error) {
        if (signal.aborted) throw new CancelledError('The look-up ran out of time');
        throw error;
      }
    }
    return Buffer.concat(chunks);
  }

  const toPicture = (page: ImagePage): CommonsPicture | null => {
    const info = page.imageinfo?.[0];
    if (!info || page.missing) return null;
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
    iiextmetadatafilter: 'LicenseShortName|License|LicenseUrl|UsageTerms|Artist|Credit|NonFree|ObjectName|AttributionRequired',
  });

  return {
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
        url: page.fullurl ?? articleUrl(base, page.title),
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

    async downloadPicture(url, signal) {
      if (!allowedMediaUrl(url, mediaHosts)) throw new WikimediaError(`Pictures are not downloaded from ${url}`);
      const bytes = await fetchCapped(url, MAX_PICTURE_BYTES, signal, (type) => type === '' || type.startsWith('image/'));
      if (!isPicture(bytes)) throw new WikimediaError(`${new URL(url).host} sent something that is not a picture`);
      return bytes;
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

/** The extract without "== Heading ==" lines, and nothing from the reference sections on. */
export function articleText(extract: string): string {
  const kept: string[] = [];
  for (const raw of extract.split('\n')) {
    const line = raw.trim();
    const heading = /^=+\s*(.*?)\s*=+$/.exec(line);
    if (heading) {
      if (END_SECTIONS.test(heading[1]!)) break;
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

function isPicture(bytes: Buffer): boolean {
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const webp = bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
  return jpeg || png || webp;
}
