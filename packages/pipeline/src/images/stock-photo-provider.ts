import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ImageCredit } from '@reelsmith/contracts';
import { createClient as createPexelsClient, type ErrorResponse, type Photos, type Video, type Videos } from 'pexels';
import { createApi as createUnsplashApi } from 'unsplash-js';
import { ProviderError, throwIfAborted } from '../errors.js';
import { requestWithRetry } from '../providers/http.js';
import type { ImageProvider, ImageRequest, ImageResult, ProviderHealthReport } from '../providers/types.js';
import { FLUENT_EMOJI_CREDIT } from './offline-image-artwork.js';
import { renderOfflineScene } from './offline-image-provider.js';

/**
 * Scene pictures from stock libraries, through their official clients: Pexels (`pexels`, video
 * clips and photos) and Unsplash (`unsplash-js`, photos). Each scene searches with its picture
 * prompt (then the video's topic), in the orientation of the video, and takes the first result no
 * earlier scene used: a clip where the library has one (PEXELS_VIDEOS), else a photo. The author is
 * credited (both licences ask for it). A scene nothing matches gets generated art rather than
 * failing the video.
 */

export type StockSource = ImageCredit['source'];
type Orientation = 'portrait' | 'landscape' | 'square';

export interface StockPhoto {
  credit: ImageCredit;
  /** A large rendition, at least the video's size where the library has it. */
  downloadUrl: string;
  /** The rendition cropped to the frame by the library's image service (imgix), where it has one. */
  sizedUrl?: (frame: { width: number; height: number }) => string;
  /** Unsplash: the address its download event must be sent to (`links.download_location`, with its ixid). */
  downloadLocation?: string;
}

/**
 * An imgix address (Pexels and Unsplash both serve through imgix) cropped to the frame: the library
 * scales and crops the original to exactly the frame's pixels, so a portrait frame never gets an
 * upscaled landscape-sized rendition.
 */
export function croppedTo(url: string, frame: { width: number; height: number }, extra: Record<string, string> = {}): string {
  const sized = new URL(url);
  for (const [name, value] of Object.entries({
    ...extra,
    fit: 'crop',
    w: String(Math.round(frame.width)),
    h: String(Math.round(frame.height)),
  }))
    sized.searchParams.set(name, value);
  return sized.toString();
}

/** A stock video: the file to download (the rendition nearest the frame size) and its still. */
export interface StockClip {
  credit: ImageCredit;
  downloadUrl: string;
  posterUrl: string;
  durationSeconds: number;
}

export interface StockPhotoSearch {
  source: StockSource;
  search(query: string, orientation: Orientation, signal?: AbortSignal): Promise<StockPhoto[]>;
  /** Libraries with video (Pexels): clips for the query, tried before photos. */
  searchClips?(
    query: string,
    orientation: Orientation,
    frame: { width: number; height: number },
    signal?: AbortSignal,
  ): Promise<StockClip[]>;
  /** Unsplash asks to be told when a photo is used (its "download" event). */
  markUsed?(photo: StockPhoto): Promise<void>;
  health(): Promise<void>;
}

const SOURCE_NAMES: Record<StockSource, string> = { pexels: 'Pexels', unsplash: 'Unsplash' };
const RESULTS_PER_SEARCH = 20;
/** Words a picture prompt carries for a generator, which only blur a library search. */
const PROMPT_NOISE = new Set(
  (
    'a an the of and or with in on at to for from by is are be as its it this that these those into over under ' +
    'cinematic wide shot close up closeup photo photograph picture image illustration scene view detailed ' +
    'dramatic lighting light golden hour soft warm cool style painting render rendering realistic 4k 8k hd high quality ' +
    'vertical horizontal portrait landscape background foreground composition mood atmosphere atmospheric'
  ).split(' '),
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

const orientationOf = (width: number, height: number): Orientation =>
  width > height * 1.1 ? 'landscape' : height > width * 1.1 ? 'portrait' : 'square';

function refused(source: StockSource, status: number | undefined, text: string): ProviderError {
  const name = SOURCE_NAMES[source];
  if (status === 401 || status === 403 || /unauthori[sz]ed|forbidden/i.test(text)) {
    return new ProviderError(`The ${name} picture library refused the server's key; ask the operator to check it`, source, false, status);
  }
  if (status === 429 || /too many/i.test(text))
    return new ProviderError(`The ${name} picture library is busy (rate limit); try again in a minute`, source, true, status);
  return new ProviderError(
    `The ${name} picture library could not be searched (${text || `status ${status}`}); try again later`,
    source,
    true,
    status,
  );
}

/**
 * The rendition of a Pexels video to download: the smallest MP4 that still covers the frame's short
 * side (no upscaling, no needless megabytes), else the largest there is.
 */
export function pickVideoFile(video: Pick<Video, 'video_files'>, frame: { width: number; height: number }): string | null {
  const files = video.video_files.filter(
    (file) => file.quality !== 'hls' && /mp4/i.test(String(file.file_type)) && file.width && file.height && file.link,
  );
  if (files.length === 0) return null;
  const shortSide = (file: { width: number | null; height: number | null }) => Math.min(file.width ?? 0, file.height ?? 0);
  const needed = Math.min(frame.width, frame.height);
  const covering = files.filter((file) => shortSide(file) >= needed).sort((a, b) => shortSide(a) - shortSide(b));
  return (covering[0] ?? [...files].sort((a, b) => shortSide(b) - shortSide(a))[0])!.link;
}

export function pexelsPhotoSearch(apiKey: string, options: { videos?: boolean } = {}): StockPhotoSearch {
  const client = createPexelsClient(apiKey);
  const toClips = (answer: Videos | ErrorResponse, frame: { width: number; height: number }): StockClip[] => {
    if ('error' in answer) throw refused('pexels', undefined, answer.error);
    return answer.videos.flatMap((video) => {
      const downloadUrl = pickVideoFile(video, frame);
      return downloadUrl
        ? [
            {
              downloadUrl,
              posterUrl: video.image,
              durationSeconds: video.duration,
              credit: {
                source: 'pexels' as const,
                sourceId: `pexels-video:${video.id}`,
                author: video.user.name,
                authorUrl: video.user.url,
                pageUrl: video.url,
              },
            },
          ]
        : [];
    });
  };
  const toPhotos = (answer: Photos | ErrorResponse): StockPhoto[] => {
    if ('error' in answer) throw refused('pexels', undefined, answer.error);
    return answer.photos.map((photo) => ({
      downloadUrl: photo.src.large2x || photo.src.original,
      // large2x fits inside 1880×1300, so a 1080×1920 frame would be upscaled from 867 px wide. The API
      // documentation: "src.original … you can add your own size parameters" (?auto=compress&cs=tinysrgb&fit=crop&h=…&w=…).
      sizedUrl: (frame: { width: number; height: number }) => croppedTo(photo.src.original, frame, { auto: 'compress', cs: 'tinysrgb' }),
      credit: {
        source: 'pexels',
        sourceId: `pexels:${photo.id}`,
        author: photo.photographer,
        authorUrl: photo.photographer_url,
        pageUrl: photo.url,
      },
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
  const searchClips = async (query: string, orientation: Orientation, frame: { width: number; height: number }) => {
    try {
      return toClips(await client.videos.search({ query: encodeURIComponent(query), orientation, per_page: RESULTS_PER_SEARCH }), frame);
    } catch (error) {
      throw error instanceof ProviderError ? error : refused('pexels', undefined, (error as Error).message);
    }
  };
  return {
    source: 'pexels',
    search,
    ...(options.videos ? { searchClips } : {}),
    async health() {
      await search('nature', 'landscape');
    },
  };
}

export function unsplashPhotoSearch(accessKey: string, options: { baseUrl?: string; fetch?: typeof fetch } = {}): StockPhotoSearch {
  const api = createUnsplashApi({ accessKey, ...options });
  const doFetch = options.fetch ?? globalThis.fetch;
  const search = async (query: string, orientation: Orientation, signal?: AbortSignal): Promise<StockPhoto[]> => {
    const { data, error, response } = await api.GET('/search/photos', {
      params: { query: { query, orientation: orientation === 'square' ? 'squarish' : orientation, per_page: RESULTS_PER_SEARCH } },
      ...(signal ? { signal } : {}),
    });
    if (!data) throw refused('unsplash', response.status, JSON.stringify(error ?? '').slice(0, 120));
    return data.results.map((photo) => ({
      downloadUrl: photo.urls.regular,
      // `urls.raw` takes imgix parameters (Unsplash's "Dynamically resizable images"); `regular` is 1080 px wide only.
      sizedUrl: (frame: { width: number; height: number }) => croppedTo(photo.urls.raw, frame, { q: '80', fm: 'jpg', crop: 'entropy' }),
      downloadLocation: photo.links.download_location,
      credit: {
        source: 'unsplash',
        sourceId: `unsplash:${photo.id}`,
        author: photo.user.name,
        authorUrl: photo.user.links.html,
        pageUrl: photo.links.html,
      },
    }));
  };
  return {
    source: 'unsplash',
    search,
    async markUsed(photo) {
      // Unsplash's API guidelines: "you must send a request to the download endpoint returned under the
      // photo.links.download_location property" (it carries the ixid that counts the download for the
      // photographer). A failure here must not cost the creator their video.
      if (!photo.downloadLocation) return;
      await doFetch(photo.downloadLocation, { headers: { Authorization: `Client-ID ${accessKey}`, 'Accept-Version': 'v1' } })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    },
    async health() {
      await search('nature', 'landscape');
    },
  };
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const WEBP = Buffer.from('RIFF');
/** An MP4 opens with its ftyp box: the type sits 4 bytes in. */
const MP4_BOX = Buffer.from('ftyp');

export function createStockPhotoProvider(library: StockPhotoSearch, options: { fetch?: typeof fetch } = {}): ImageProvider {
  const name = library.source;
  // Scenes of a video (and videos on one topic) ask the same questions: answers are kept a while.
  const answers = new Map<string, { at: number; found: Promise<unknown[]> }>();
  const ANSWER_TTL_MS = 10 * 60_000;
  const searchOnce = <T>(query: string, orientation: Orientation, search: () => Promise<T[]>): Promise<T[]> => {
    const key = `${orientation}\u0000${query.toLocaleLowerCase()}`;
    const kept = answers.get(key);
    if (kept && Date.now() - kept.at < ANSWER_TTL_MS) return kept.found as Promise<T[]>;
    const found = search();
    answers.set(key, { at: Date.now(), found });
    found.catch(() => answers.delete(key));
    if (answers.size > 500) answers.delete(answers.keys().next().value!);
    return found;
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
      const queries = [searchQuery(request.prompt), request.topic ? searchQuery(request.topic, 6) : ''].filter(
        (query, index, all) => query && all.indexOf(query) === index,
      );
      // Scenes with the same query spread over the results instead of all taking the first.
      const pick = <T extends { credit: ImageCredit }>(found: T[]) => {
        const fresh = found.filter((item) => !avoid.has(item.credit.sourceId));
        return fresh[request.sceneIndex % Math.max(1, Math.min(fresh.length, 3))] ?? fresh[0];
      };
      await mkdir(dirname(request.outputPath), { recursive: true });
      const download = async (url: string, what: 'picture' | 'video', magic: Buffer[], offset = 0) => {
        const { body } = await requestWithRetry({
          provider: name,
          service: 'image',
          url,
          ...(signal ? { signal } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
        if (!magic.some((bytes) => body.subarray(offset, offset + bytes.length).equals(bytes))) {
          throw new ProviderError(`The ${SOURCE_NAMES[name]} library sent something that is not a ${what}; try again`, name, true);
        }
        return body;
      };

      // Moving footage first where the library has it; a still where no clip matches.
      if (library.searchClips) {
        const searchClips = library.searchClips.bind(library);
        for (const query of queries) {
          const clips = await searchOnce(`clips\u0000${query}`, orientation, () =>
            searchClips(query, orientation, { width: request.width, height: request.height }, signal),
          );
          // Clips of a few seconds at least, so a scene does not visibly loop a blink of footage.
          const clip = pick(clips.filter((candidate) => candidate.durationSeconds >= 4)) ?? pick(clips);
          if (!clip) continue;
          const videoPath = request.outputPath.replace(/\.[^./]+$/, '') + '.mp4';
          await writeFile(videoPath, await download(clip.downloadUrl, 'video', [MP4_BOX], 4));
          await writeFile(request.outputPath, await download(clip.posterUrl, 'picture', [JPEG, PNG, WEBP]));
          return { imagePath: request.outputPath, videoPath, credit: clip.credit, subject: query };
        }
      }

      let chosen: StockPhoto | undefined;
      let foundBy = '';
      for (const query of queries) {
        chosen = pick(await searchOnce(query, orientation, () => library.search(query, orientation, signal)));
        foundBy = query;
        if (chosen) break;
      }
      if (!chosen) {
        // Nothing in the library for this scene: generated art keeps the video going.
        const painted = await renderOfflineScene(request, request.outputPath.endsWith('.png') ? 'png' : 'jpeg');
        await writeFile(request.outputPath, painted.bytes);
        return {
          imagePath: request.outputPath,
          ...(painted.subject ? { subject: painted.subject } : {}),
          ...(painted.usesArtwork ? { artwork: FLUENT_EMOJI_CREDIT } : {}),
        };
      }
      const frame = { width: request.width, height: request.height };
      await writeFile(request.outputPath, await download(chosen.sizedUrl?.(frame) ?? chosen.downloadUrl, 'picture', [JPEG, PNG, WEBP]));
      await library.markUsed?.(chosen);
      // The search term that found the photo is what it shows.
      return { imagePath: request.outputPath, credit: chosen.credit, subject: foundBy };
    },
  };
}
