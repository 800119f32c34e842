import { createCanvas } from '@napi-rs/canvas';
import { fakeVideo } from './fake-media.js';
import { startFakeHttpServer, type FakeServer, type ScriptedResponse } from './fake-http-server.js';

/**
 * Local stand-ins for the Pexels and Unsplash APIs: the same paths, auth headers and JSON shapes
 * as the real services (fields the adapters do not read are left out), and the photos themselves
 * served as small real JPEGs so a render can use them.
 *
 * As strict as the services where it matters to a video:
 * - Both serve photos through imgix, and the fakes size them as imgix does, at a tenth of the real
 *   pixels (PHOTO_SCALE): Pexels' `large2x` is `?auto=compress&cs=tinysrgb&dpr=2&h=650&w=940`, which
 *   imgix fits inside 1880×1300, so a portrait photo comes 867 px wide; only `src.original` with
 *   `fit=crop&w=…&h=…` ("you can add your own size parameters", Pexels API documentation) covers a
 *   1080×1920 frame. Unsplash's `urls.regular` is 1080 px wide; `urls.raw` takes the same parameters.
 * - Unsplash counts a download only through `links.download_location` (its API guidelines: "you must
 *   send a request to the download endpoint returned under the photo.links.download_location
 *   property"), which carries the `ixid` that ties it to the search: `downloadsCounted()` lists those,
 *   and a download event without the ixid is not counted.
 */

/** The fakes serve photos at this fraction of the pixels imgix would send, so tests stay fast. */
export const PHOTO_SCALE = 0.1;

/** The size imgix sends for these parameters: `fit=crop` with w and h is exactly w×h; otherwise fit inside w×h (×dpr), never upscaled. */
export function imgixSize(original: { width: number; height: number }, params: URLSearchParams): { width: number; height: number } {
  const dpr = Number(params.get('dpr') ?? '1') || 1;
  const w = params.get('w') ? Number(params.get('w')) * dpr : null;
  const h = params.get('h') ? Number(params.get('h')) * dpr : null;
  if (params.get('fit') === 'crop' && w && h) return { width: w, height: h };
  const scale = Math.min(1, w ? w / original.width : Infinity, h ? h / original.height : Infinity);
  const factor = Number.isFinite(scale) ? scale : 1;
  return { width: Math.round(original.width * factor), height: Math.round(original.height * factor) };
}

export interface FakeStockPhoto {
  id: string;
  author: string;
  /** Words of a query that find this photo (any one matches). */
  keywords: string[];
  colour: string;
}

export const FAKE_STOCK_PHOTOS: FakeStockPhoto[] = [
  { id: '101', author: 'Ana Reef', keywords: ['octopus', 'ocean', 'sea'], colour: '#1d4e89' },
  { id: '102', author: 'Ben Deep', keywords: ['octopus', 'ocean', 'coral'], colour: '#0f7c8c' },
  { id: '103', author: 'Cara Tide', keywords: ['octopus', 'sea', 'hearts'], colour: '#2a9d8f' },
  { id: '201', author: 'Dev Magma', keywords: ['volcano', 'lava', 'island'], colour: '#b23a1b' },
];

/** Pexels videos: found by the same keyword rule; each has an HD and an SD MP4 rendition and a still. */
export const FAKE_STOCK_VIDEOS: (FakeStockPhoto & { seconds: number })[] = [
  { id: '901', author: 'Eli Current', keywords: ['octopus', 'ocean'], colour: '#134074', seconds: 6 },
  { id: '902', author: 'Fay Swell', keywords: ['octopus', 'sea', 'coral'], colour: '#13315c', seconds: 2 },
];

/** A Pexels search answer: the first page of what matched, as many per page as the request asked (15 unless it says). */
function pexelsPage(url: URL, total: number, results: Record<string, unknown>): ScriptedResponse {
  return {
    status: 200,
    body: { page: 1, per_page: Number(url.searchParams.get('per_page') ?? 15), total_results: total, ...results },
  };
}

/** A stock photo's file (its colour, named by its id in the path), at the size the imgix parameters ask of the original. */
function photoFile(url: URL, original: { width: number; height: number }): ScriptedResponse {
  return {
    status: 200,
    headers: { 'content-type': 'image/jpeg' },
    body: jpeg(FAKE_STOCK_PHOTOS.find((photo) => url.pathname.includes(photo.id))?.colour ?? '#777', imgixSize(original, url.searchParams)),
  };
}

function jpeg(colour: string, size = { width: 640, height: 960 }): Buffer {
  const width = Math.max(1, Math.round(size.width * PHOTO_SCALE));
  const height = Math.max(1, Math.round(size.height * PHOTO_SCALE));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = colour;
  context.fillRect(0, 0, width, height);
  return canvas.encodeSync('jpeg', 90);
}

/** What a query finds: items with any of its words among their keywords (photos and videos alike). */
function matches<T extends FakeStockPhoto>(query: string, items: readonly T[]): T[] {
  const words = decodeURIComponent(query)
    .toLocaleLowerCase()
    .split(/[\s+]+/);
  return items.filter((item) => item.keywords.some((keyword) => words.includes(keyword)));
}

export interface FakeStockServer extends FakeServer {
  /** The key the fake accepts; any other answers 401 as the real service does. */
  key: string;
}

export interface FakeUnsplashServer extends FakeStockServer {
  /** Photo ids whose download Unsplash counted (a download event sent to `links.download_location`, with its ixid). */
  downloadsCounted(): string[];
}

/** Pexels: GET /v1/search?query=&orientation=&per_page= with `Authorization: <key>`. */
export async function startFakePexelsServer(key = 'pexels-test-key'): Promise<FakeStockServer> {
  let base = '';
  const server = await startFakeHttpServer(async (request) => {
    if (request.url.pathname.startsWith('/photos/')) return photoFile(request.url, { width: 3000, height: 4500 });
    const file = /^\/video-files\/(\d+)\/(hd|sd)\.mp4$/.exec(request.url.pathname);
    if (file) {
      const video = FAKE_STOCK_VIDEOS.find((candidate) => candidate.id === file[1]);
      return video
        ? {
            status: 200,
            headers: { 'content-type': 'video/mp4' },
            body: await fakeVideo(file[2] === 'hd' ? 192 : 96, file[2] === 'hd' ? 336 : 168, video.seconds),
          }
        : { status: 404, body: '' };
    }
    if (request.url.pathname.startsWith('/videos/pictures/'))
      return {
        status: 200,
        headers: { 'content-type': 'image/jpeg' },
        body: jpeg(FAKE_STOCK_VIDEOS.find((video) => request.url.pathname.includes(video.id))?.colour ?? '#777'),
      };
    if (request.headers.authorization !== key) return { status: 401, body: { error: 'Unauthorized' } };
    if (request.url.pathname.replace(/\/+/g, '/') === '/videos/search') {
      const found = matches(request.url.searchParams.get('query') ?? '', FAKE_STOCK_VIDEOS);
      return pexelsPage(request.url, found.length, {
        url: 'https://api-videos.pexels.com/videos/',
        videos: found.map((video) => ({
          id: Number(video.id),
          width: 1080,
          height: 1920,
          duration: video.seconds,
          full_res: null,
          tags: [],
          url: `https://www.pexels.com/video/${video.id}/`,
          image: `${base}/videos/pictures/${video.id}/poster.jpeg`,
          avg_color: null,
          user: {
            id: Number(video.id) * 3,
            name: video.author,
            url: `https://www.pexels.com/@${video.author.toLowerCase().replace(' ', '-')}`,
          },
          // The real API lists renditions in no particular order, HLS among them.
          video_files: [
            videoFile(video.id, 0, 'hls', null, `${base}/video-files/${video.id}/playlist.m3u8`),
            videoFile(video.id, 1, 'hd', { width: 1080, height: 1920, fps: 25 }, `${base}/video-files/${video.id}/hd.mp4`),
            videoFile(video.id, 2, 'sd', { width: 540, height: 960, fps: 25 }, `${base}/video-files/${video.id}/sd.mp4`),
          ],
          video_pictures: [{ id: Number(video.id) * 100, nr: 0, picture: `${base}/videos/pictures/${video.id}/poster.jpeg` }],
        })),
      });
    }
    // The official client asks for /v1//search; the real service treats it as /v1/search.
    if (request.url.pathname.replace(/\/+/g, '/') !== '/v1/search') return { status: 404, body: { error: 'Not Found' } };
    const found = matches(request.url.searchParams.get('query') ?? '', FAKE_STOCK_PHOTOS);
    return pexelsPage(request.url, found.length, {
      photos: found.map((photo) => ({
        id: Number(photo.id),
        width: 3000,
        height: 4500,
        url: `https://www.pexels.com/photo/${photo.id}/`,
        photographer: photo.author,
        photographer_url: `https://www.pexels.com/@${photo.author.toLowerCase().replace(' ', '-')}`,
        photographer_id: Number(photo.id) * 7,
        avg_color: photo.colour,
        src: {
          original: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg`,
          large2x: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?auto=compress&cs=tinysrgb&dpr=2&h=650&w=940`,
          large: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?h=650&w=940`,
          medium: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?h=350`,
          small: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?h=130`,
          portrait: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?fit=crop&h=1200&w=800`,
          landscape: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?fit=crop&h=627&w=1200`,
          tiny: `${base}/photos/${photo.id}/pexels-photo-${photo.id}.jpeg?h=200&w=280`,
        },
        liked: false,
        alt: photo.keywords.join(' '),
      })),
    });
  });
  base = server.url;
  return Object.assign(server, { key });
}

/** Unsplash: GET /search/photos?query=&orientation=&per_page= with `Authorization: Client-ID <key>`, and the download event. */
export async function startFakeUnsplashServer(key = 'unsplash-test-key'): Promise<FakeUnsplashServer> {
  let base = '';
  const counted: string[] = [];
  const server = await startFakeHttpServer((request) => {
    if (request.url.pathname.startsWith('/images/')) return photoFile(request.url, { width: 4000, height: 6000 });
    if (request.headers.authorization !== `Client-ID ${key}`)
      return { status: 401, body: { errors: ['OAuth error: The access token is invalid'] } };
    const download = /^\/photos\/([^/]+)\/download$/.exec(request.url.pathname);
    if (download) {
      // Only the download_location (with the ixid of the search that found the photo) counts.
      if (request.url.searchParams.get('ixid')) counted.push(download[1]!);
      return { status: 200, body: { url: `${base}/images/photo-${download[1]}?ixid=${request.url.searchParams.get('ixid') ?? ''}` } };
    }
    if (request.url.pathname !== '/search/photos') return { status: 404, body: { errors: ["Couldn't find Photo"] } };
    const found = matches(request.url.searchParams.get('query') ?? '', FAKE_STOCK_PHOTOS);
    return {
      status: 200,
      body: {
        total: found.length,
        total_pages: 1,
        results: found.map((photo) => ({
          id: `u${photo.id}`,
          width: 4000,
          height: 6000,
          color: photo.colour,
          alt_description: photo.keywords.join(' '),
          urls: {
            raw: `${base}/images/photo-u${photo.id}?ixid=raw`,
            full: `${base}/images/photo-u${photo.id}?q=85`,
            regular: `${base}/images/photo-u${photo.id}?w=1080`,
            small: `${base}/images/photo-u${photo.id}?w=400`,
            thumb: `${base}/images/photo-u${photo.id}?w=200`,
          },
          links: {
            self: `${base}/photos/u${photo.id}`,
            html: `https://unsplash.com/photos/u${photo.id}`,
            download: `https://unsplash.com/photos/u${photo.id}/download`,
            download_location: `${base}/photos/u${photo.id}/download?ixid=abc`,
          },
          user: {
            id: `user-${photo.id}`,
            username: photo.author.toLowerCase().replace(' ', ''),
            name: photo.author,
            links: { self: `${base}/users/x`, html: `https://unsplash.com/@${photo.author.toLowerCase().replace(' ', '')}` },
          },
        })),
      },
    };
  });
  base = server.url;
  return Object.assign(server, { key, downloadsCounted: () => [...counted] });
}

/** One rendition in a Pexels video's `video_files`, as the API spells it (an HLS playlist has no size or frame rate). */
function videoFile(
  videoId: string,
  index: number,
  quality: string,
  frame: { width: number; height: number; fps: number } | null,
  link: string,
): Record<string, unknown> {
  return {
    id: Number(videoId) * 10 + index,
    quality,
    file_type: 'video/mp4',
    width: frame?.width ?? null,
    height: frame?.height ?? null,
    fps: frame?.fps ?? null,
    link,
  };
}
