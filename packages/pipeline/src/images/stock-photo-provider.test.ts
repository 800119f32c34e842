import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../errors.js';
import type { ImageRequest } from '../providers/types.js';
import { loadImage } from '@napi-rs/canvas';
import {
  PHOTO_SCALE,
  startFakePexelsServer,
  startFakeUnsplashServer,
  type FakeStockServer,
  type FakeUnsplashServer,
} from '../testing/fake-stock-photo-servers.js';
import { createStockPhotoProvider, pexelsPhotoSearch, pickVideoFile, searchQuery, unsplashPhotoSearch } from './stock-photo-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-stock-'));
let pexels: FakeStockServer;
let unsplash: FakeUnsplashServer;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  pexels = await startFakePexelsServer();
  unsplash = await startFakeUnsplashServer();
});
afterAll(async () => {
  await pexels.close();
  await unsplash.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.unstubAllGlobals());

/** The official Pexels client calls https://api.pexels.com itself: its requests are sent to the fake. */
function routePexelsToFake() {
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) =>
    realFetch(String(input).replace('https://api.pexels.com', pexels.url), init),
  );
}

let counter = 0;
const request = (overrides: Partial<ImageRequest> = {}): ImageRequest => ({
  prompt: 'Cinematic wide shot of a giant octopus in the deep ocean, golden hour',
  visualStyle: 'cinematic',
  width: 1080,
  height: 1920,
  sceneIndex: 0,
  outputPath: join(dir, `scene-${counter++}.jpg`),
  topic: 'Why octopuses have three hearts',
  ...overrides,
});
const isJpeg = (path: string) =>
  readFileSync(path)
    .subarray(0, 3)
    .equals(Buffer.from([0xff, 0xd8, 0xff]));

describe('stock photo search query', () => {
  it('keeps the distinctive words of a generator prompt', () => {
    expect(searchQuery('Cinematic wide shot of a giant octopus in the deep ocean, golden hour')).toBe('giant octopus deep ocean');
    expect(searchQuery('溶岩が流れる火山、夜')).toBe('溶岩が流れる火山 夜');
  });
});

describe('Pexels (official client against a local fake)', () => {
  it("searches the scene in the video's orientation, downloads the photo and credits its photographer", async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch(pexels.key));
    const result = await provider.generateImage(request());
    expect(isJpeg(result.imagePath)).toBe(true);
    expect(result.credit).toEqual({
      source: 'pexels',
      sourceId: 'pexels:101',
      author: 'Ana Reef',
      authorUrl: 'https://www.pexels.com/@ana-reef',
      pageUrl: 'https://www.pexels.com/photo/101/',
    });
    // What the photo shows is the search term that found it.
    expect(result.subject).toBe('giant octopus deep ocean');
    const search = pexels.requests.find((sent) => sent.url.pathname.endsWith('/search'))!;
    expect(search.headers.authorization).toBe(pexels.key);
    expect(search.url.searchParams.get('query')).toBe('giant octopus deep ocean');
    expect(search.url.searchParams.get('orientation')).toBe('portrait');
  });

  it('never repeats a photo in one video, and draws a scene the library has nothing left for', async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch(pexels.key));
    const used: string[] = [];
    for (let scene = 0; scene < 4; scene++) {
      const result = await provider.generateImage(request({ sceneIndex: scene, avoidSourceIds: used }));
      expect(existsSync(result.imagePath)).toBe(true);
      if (result.credit) used.push(result.credit.sourceId);
    }
    expect(used).toHaveLength(3);
    expect(new Set(used).size).toBe(3);
  });

  it('downloads the original cropped to the frame, never the large2x rendition a portrait frame would upscale', async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch(pexels.key));
    const result = await provider.generateImage(request({ prompt: 'an erupting volcano' }));
    const photo = await loadImage(readFileSync(result.imagePath));
    // The fake sizes photos as imgix does (at PHOTO_SCALE): large2x would be 867×1300, narrower than the frame.
    expect([photo.width, photo.height]).toEqual([1080 * PHOTO_SCALE, 1920 * PHOTO_SCALE]);
    const sent = pexels.requests.filter((sent) => sent.url.pathname.startsWith('/photos/201/')).at(-1)!;
    expect(Object.fromEntries(sent.url.searchParams)).toEqual({ auto: 'compress', cs: 'tinysrgb', fit: 'crop', w: '1080', h: '1920' });
  });

  it('answers a refused key with a final error naming the library', async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch('wrong-key'));
    const failure = await provider.generateImage(request()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({
      retryable: false,
      message: "The Pexels picture library refused the server's key; ask the operator to check it",
    });
    expect((await provider.health()).status).toBe('error');
  });
});

describe('Pexels videos (official client against a local fake)', () => {
  const isMp4 = (path: string) => readFileSync(path).subarray(4, 8).toString('latin1') === 'ftyp';

  it('picks the smallest MP4 rendition that covers the frame, never HLS', () => {
    const video = {
      video_files: [
        { id: 1, quality: 'hls' as const, file_type: 'video/mp4' as const, width: null, height: null, fps: null, link: 'hls' },
        { id: 2, quality: 'hd' as const, file_type: 'video/mp4' as const, width: 1080, height: 1920, fps: 25, link: 'hd' },
        { id: 3, quality: 'sd' as const, file_type: 'video/mp4' as const, width: 540, height: 960, fps: 25, link: 'sd' },
        { id: 4, quality: 'hd' as const, file_type: 'video/mp4' as const, width: 2160, height: 3840, fps: 25, link: 'uhd' },
      ],
    };
    expect(pickVideoFile(video as never, { width: 1080, height: 1920 })).toBe('hd');
    expect(pickVideoFile(video as never, { width: 480, height: 854 })).toBe('sd');
    expect(pickVideoFile({ video_files: video.video_files.slice(0, 3) } as never, { width: 2160, height: 3840 })).toBe('hd');
    expect(pickVideoFile({ video_files: video.video_files.slice(0, 1) } as never, { width: 1080, height: 1920 })).toBeNull();
  });

  it('gives a scene a clip and its still, credits the videographer, and never repeats a clip in one video', async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch(pexels.key, { videos: true }));
    const first = await provider.generateImage(request());
    expect(first.videoPath).toMatch(/\.mp4$/);
    expect(isMp4(first.videoPath!)).toBe(true);
    expect(isJpeg(first.imagePath)).toBe(true);
    // The 6 s clip before the 2 s one: a scene should not loop a blink of footage.
    expect(first.credit).toEqual({
      source: 'pexels',
      sourceId: 'pexels-video:901',
      author: 'Eli Current',
      authorUrl: 'https://www.pexels.com/@eli-current',
      pageUrl: 'https://www.pexels.com/video/901/',
    });
    const search = pexels.requests.find((sent) => sent.url.pathname.replace(/\/+/g, '/') === '/videos/search')!;
    expect(search.headers.authorization).toBe(pexels.key);
    expect(search.url.searchParams.get('orientation')).toBe('portrait');
    const second = await provider.generateImage(request({ sceneIndex: 1, avoidSourceIds: ['pexels-video:901'] }));
    expect(second.credit?.sourceId).toBe('pexels-video:902');
    // No clip left: a photo, still credited.
    const third = await provider.generateImage(request({ sceneIndex: 2, avoidSourceIds: ['pexels-video:901', 'pexels-video:902'] }));
    expect(third.videoPath).toBeUndefined();
    expect(third.credit?.sourceId).toMatch(/^pexels:/);
  });

  it('gives photos only with PEXELS_VIDEOS=false', async () => {
    routePexelsToFake();
    const result = await createStockPhotoProvider(pexelsPhotoSearch(pexels.key, { videos: false })).generateImage(request());
    expect(result.videoPath).toBeUndefined();
    expect(result.credit?.sourceId).toBe('pexels:101');
  });
});

describe('Unsplash (official client against a local fake)', () => {
  const provider = () => createStockPhotoProvider(unsplashPhotoSearch(unsplash.key, { baseUrl: unsplash.url }));

  it('searches squarish for 1:1, credits the photographer and reports the download', async () => {
    const result = await provider().generateImage(request({ width: 1080, height: 1080, prompt: 'an erupting volcano at night' }));
    expect(isJpeg(result.imagePath)).toBe(true);
    expect(result.credit).toMatchObject({
      source: 'unsplash',
      sourceId: 'unsplash:u201',
      author: 'Dev Magma',
      pageUrl: 'https://unsplash.com/photos/u201',
    });
    const search = unsplash.requests.find((sent) => sent.url.pathname === '/search/photos')!;
    expect(search.headers.authorization).toBe(`Client-ID ${unsplash.key}`);
    expect(search.url.searchParams.get('orientation')).toBe('squarish');
    expect(unsplash.requests.some((sent) => sent.url.pathname === '/photos/u201/download')).toBe(true);
  });

  it("counts the download through the photo's download_location, and crops urls.raw to the frame", async () => {
    const result = await provider().generateImage(request({ prompt: 'lava island' }));
    // The download event went to links.download_location (its ixid), the one Unsplash counts for the photographer.
    expect(unsplash.downloadsCounted()).toContain('u201');
    const photo = await loadImage(readFileSync(result.imagePath));
    expect([photo.width, photo.height]).toEqual([1080 * PHOTO_SCALE, 1920 * PHOTO_SCALE]);
  });

  it('falls back from the prompt to the topic, then to drawn art with no credit', async () => {
    const byTopic = await provider().generateImage(request({ prompt: 'three hearts beating', topic: 'The octopus' }));
    expect(byTopic.credit?.source).toBe('unsplash');
    const drawn = await provider().generateImage(request({ prompt: 'a quiet library', topic: 'Books' }));
    expect(drawn.credit).toBeUndefined();
    expect(isJpeg(drawn.imagePath)).toBe(true);
  });
});
