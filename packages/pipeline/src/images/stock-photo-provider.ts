import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ImageCredit } from '@reelsmith/contracts';
import { createClient as createPexelsClient, type ErrorResponse, type Photos } from 'pexels';
import { createApi as createUnsplashApi } from 'unsplash-js';
import { ProviderError, throwIfAborted } from '../errors.js';
import { requestWithRetry } from '../providers/http.js';
import type { ImageProvider, ImageRequest, ImageResult, ProviderHealthReport } from '../providers/types.js';
import { renderOfflineImage } from './offline-image-provider.js';

/**
 * Scene pictures from stock photo libraries, through their official clients: Pexels (`pexels`)
 * and Unsplash (`unsplash-js`). Each scene searches with its picture prompt (then the video's
 * topic), in the orientation of the video, and takes the first result no earlier scene used. The
 * photographer is credited (both licences ask for it). A scene nothing matches gets generated art
 * rather than failing the video.
 */

export type StockSource = ImageCredit['source'];
type Orientation = 'portrait' | 'landscape' | 'square';

export interface StockPhoto {
  credit: ImageCredit;
  /** A large rendition, at least the video's size where the library has it. */
  downloadUrl: string;
}

export interface StockPhotoSearch {
  source: StockSource;
  search(query: string, orientation: Orientation, signal?: AbortSignal): Promise<StockPhoto[]>;
  /** Unsplash asks to be told when a photo is used (its "download" event). */
  markUsed?(photo: StockPhoto): Promise<void>;
  health(): Promise<void>;
}

const SOURCE_NAMES: Record<StockSource, string> = { pexels: 'Pexels', unsplash: 'Unsplash' };
const RESULTS_PER_SEARCH = 20;
/** Words a picture prompt carries for a generator, which only blur a library search. */
const PROMPT_NOISE = new Set(
  ('a an the of and or with in on at to for from by is are be as its it this that these those into over under ' +
    'cinematic wide shot close up closeup photo photograph picture image illustration scene view detailed ' +
    'dramatic lighting light golden hour soft warm cool style painting render rendering realistic 4k 8k hd high quality ' +
    'vertical horizontal portrait landscape background foreground composition mood atmosphere atmospheric').split(' '),
);

/** A short library query from a generator prompt: its first distinctive words. */
export function searchQuery(prompt: string, maxWords = 5): string {
  const words = prompt
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\s'-]+/gu, ' ')
    .split(/\s+/)
    .filter((word) => word && !PROMPT_NOISE.has(word.toLocaleLowerCase()));
  return words.slice(0, maxWords).join(' ');
}

const orientationOf = (width: number, height: number): Orientation => (width > height * 1.1 ? 'landscape' : height > width * 1.1 ? 'portrait' : 'square');

function refused(source: StockSource, status: number | undefined, text: string): ProviderError {
  const name = SOURCE_NAMES[source];
  if (status === 401 || status === 403 || /unauthori[sz]ed|forbidden/i.test(text)) {
    return new ProviderError(`The ${name} picture library refused the server's key; ask the operator to check it`, source, false, status);
  }
  if (status === 429 || /too many/i.test(text)) return new ProviderError(`The ${name} picture library is busy (rate limit); try again in a minute`, source, true, status);
  return new ProviderError(`The ${name} picture library could not be searched (${text || `status ${status}`}); try again later`, source, true, status);
}

export function pexelsPhotoSearch(apiKey: string): StockPhotoSearch {
  const client = createPexelsClient(apiKey);
  const toPhotos = (answer: Photos | ErrorResponse): StockPhoto[] => {
    if ('error' in answer) throw refused('pexels', undefined, answer.error);
    return answer.photos.map((photo) => ({
      downloadUrl: photo.src.large2x || photo.src.original,
      credit: { source: 'pexels', sourceId: `pexels:${photo.id}`, author: photo.photographer, authorUrl: photo.photographer_url, pageUrl: photo.url },
    }));
  };
  const search = async (query: string, orientation: Orientation) => {
    try {
      // The client puts parameters into the URL as they are.
      return toPhotos(await client.photos.search({ query: encodeURIComponent(query), orientation, per_page: RESULTS_PER_SEARCH }));
    } catch (error) {
      throw error instanceof ProviderError ? error : refused('pexels', undefined, (error as Error).message);
    }
  };
  return {
    source: 'pexels',
    search,
    async health() {
      await search('nature', 'landscape');
    },
  };
}

export function unsplashPhotoSearch(accessKey: string, options: { baseUrl?: string; fetch?: typeof fetch } = {}): StockPhotoSearch {
  const api = createUnsplashApi({ accessKey, ...options });
  const search = async (query: string, orientation: Orientation, signal?: AbortSignal): Promise<StockPhoto[]> => {
    const { data, error, response } = await api.GET('/search/photos', {
      params: { query: { query, orientation: orientation === 'square' ? 'squarish' : orientation, per_page: RESULTS_PER_SEARCH } },
      ...(signal ? { signal } : {}),
    });
    if (!data) throw refused('unsplash', response.status, JSON.stringify(error ?? '').slice(0, 120));
    return data.results.map((photo) => ({
      downloadUrl: photo.urls.regular,
      credit: { source: 'unsplash', sourceId: `unsplash:${photo.id}`, author: photo.user.name, authorUrl: photo.user.links.html, pageUrl: photo.links.html },
    }));
  };
  return {
    source: 'unsplash',
    search,
    async markUsed(photo) {
      // Counts the use for the photographer; a failure here must not cost the creator their video.
      const id = photo.credit.sourceId.replace(/^unsplash:/, '');
      await api.GET('/photos/{id}/download', { params: { path: { id } } }).catch(() => undefined);
    },
    async health() {
      await search('nature', 'landscape');
    },
  };
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const WEBP = Buffer.from('RIFF');

export function createStockPhotoProvider(library: StockPhotoSearch, options: { fetch?: typeof fetch } = {}): ImageProvider {
  const name = library.source;
  // Scenes of a video (and videos on one topic) ask the same questions: answers are kept a while.
  const answers = new Map<string, { at: number; photos: Promise<StockPhoto[]> }>();
  const ANSWER_TTL_MS = 10 * 60_000;
  const searchOnce = (query: string, orientation: Orientation, signal?: AbortSignal) => {
    const key = `${orientation}\u0000${query.toLocaleLowerCase()}`;
    const kept = answers.get(key);
    if (kept && Date.now() - kept.at < ANSWER_TTL_MS) return kept.photos;
    const photos = library.search(query, orientation, signal);
    answers.set(key, { at: Date.now(), photos });
    photos.catch(() => answers.delete(key));
    if (answers.size > 500) answers.delete(answers.keys().next().value!);
    return photos;
  };

  return {
    name,
    async health(): Promise<ProviderHealthReport> {
      try {
        await library.health();
        return { name, status: 'healthy', details: `${SOURCE_NAMES[name]} photo search answers` };
      } catch (error) {
        return { name, status: 'error', details: (error as Error).message };
      }
    },
    async generateImage(request: ImageRequest, signal?: AbortSignal): Promise<ImageResult> {
      throwIfAborted(signal);
      const orientation = orientationOf(request.width, request.height);
      const avoid = new Set(request.avoidSourceIds ?? []);
      const queries = [searchQuery(request.prompt), request.topic ? searchQuery(request.topic, 6) : ''].filter((query, index, all) => query && all.indexOf(query) === index);
      let chosen: StockPhoto | undefined;
      for (const query of queries) {
        const photos = await searchOnce(query, orientation, signal);
        // Scenes with the same query spread over the results instead of all taking the first.
        const fresh = photos.filter((photo) => !avoid.has(photo.credit.sourceId));
        chosen = fresh[request.sceneIndex % Math.max(1, Math.min(fresh.length, 3))] ?? fresh[0];
        if (chosen) break;
      }
      await mkdir(dirname(request.outputPath), { recursive: true });
      if (!chosen) {
        // Nothing in the library for this scene: generated art keeps the video going.
        await writeFile(request.outputPath, await renderOfflineImage(request, request.outputPath.endsWith('.png') ? 'png' : 'jpeg'));
        return { imagePath: request.outputPath };
      }
      const downloaded = await requestWithRetry({
        provider: name,
        service: 'image',
        url: chosen.downloadUrl,
        ...(signal ? { signal } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      const bytes = downloaded.body;
      if (![JPEG, PNG, WEBP].some((magic) => bytes.subarray(0, magic.length).equals(magic))) {
        throw new ProviderError(`The ${SOURCE_NAMES[name]} picture library sent something that is not a picture; try again`, name, true);
      }
      await writeFile(request.outputPath, bytes);
      await library.markUsed?.(chosen);
      return { imagePath: request.outputPath, credit: chosen.credit };
    },
  };
}
