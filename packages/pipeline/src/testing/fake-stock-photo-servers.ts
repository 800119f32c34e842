import { createCanvas } from '@napi-rs/canvas';
import { startFakeHttpServer, type FakeServer } from './fake-http-server.js';

/**
 * Local stand-ins for the Pexels and Unsplash APIs: the same paths, auth headers and JSON shapes
 * as the real services (fields the adapters do not read are left out), and the photos themselves
 * served as small real JPEGs so a render can use them.
 */

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

function jpeg(colour: string): Buffer {
  const canvas = createCanvas(64, 96);
  const context = canvas.getContext('2d');
  context.fillStyle = colour;
  context.fillRect(0, 0, 64, 96);
  return canvas.encodeSync('jpeg', 90);
}

const matches = (query: string) => {
  const words = decodeURIComponent(query).toLocaleLowerCase().split(/[\s+]+/);
  return FAKE_STOCK_PHOTOS.filter((photo) => photo.keywords.some((keyword) => words.includes(keyword)));
};

export interface FakeStockServer extends FakeServer {
  /** The key the fake accepts; any other answers 401 as the real service does. */
  key: string;
}

/** Pexels: GET /v1/search?query=&orientation=&per_page= with `Authorization: <key>`. */
export async function startFakePexelsServer(key = 'pexels-test-key'): Promise<FakeStockServer> {
  let base = '';
  const server = await startFakeHttpServer((request) => {
    if (request.url.pathname.startsWith('/photos/')) return { status: 200, headers: { 'content-type': 'image/jpeg' }, body: jpeg(FAKE_STOCK_PHOTOS.find((photo) => request.url.pathname.includes(photo.id))?.colour ?? '#777') };
    if (request.headers.authorization !== key) return { status: 401, body: { error: 'Unauthorized' } };
    // The official client asks for /v1//search; the real service treats it as /v1/search.
    if (request.url.pathname.replace(/\/+/g, '/') !== '/v1/search') return { status: 404, body: { error: 'Not Found' } };
    const found = matches(request.url.searchParams.get('query') ?? '');
    return {
      status: 200,
      body: {
        page: 1,
        per_page: Number(request.url.searchParams.get('per_page') ?? 15),
        total_results: found.length,
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
      },
    };
  });
  base = server.url;
  return Object.assign(server, { key });
}

/** Unsplash: GET /search/photos?query=&orientation=&per_page= with `Authorization: Client-ID <key>`, and the download event. */
export async function startFakeUnsplashServer(key = 'unsplash-test-key'): Promise<FakeStockServer> {
  let base = '';
  const server = await startFakeHttpServer((request) => {
    if (request.url.pathname.startsWith('/images/')) return { status: 200, headers: { 'content-type': 'image/jpeg' }, body: jpeg(FAKE_STOCK_PHOTOS.find((photo) => request.url.pathname.includes(photo.id))?.colour ?? '#777') };
    if (request.headers.authorization !== `Client-ID ${key}`) return { status: 401, body: { errors: ['OAuth error: The access token is invalid'] } };
    const download = /^\/photos\/([^/]+)\/download$/.exec(request.url.pathname);
    if (download) return { status: 200, body: { url: `${base}/images/photo-${download[1]}` } };
    if (request.url.pathname !== '/search/photos') return { status: 404, body: { errors: ["Couldn't find Photo"] } };
    const found = matches(request.url.searchParams.get('query') ?? '');
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
          user: { id: `user-${photo.id}`, username: photo.author.toLowerCase().replace(' ', ''), name: photo.author, links: { self: `${base}/users/x`, html: `https://unsplash.com/@${photo.author.toLowerCase().replace(' ', '')}` } },
        })),
      },
    };
  });
  base = server.url;
  return Object.assign(server, { key });
}
