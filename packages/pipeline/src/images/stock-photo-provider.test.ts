import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../errors.js';
import type { ImageRequest } from '../providers/types.js';
import { startFakePexelsServer, startFakeUnsplashServer, type FakeStockServer } from '../testing/fake-stock-photo-servers.js';
import { createStockPhotoProvider, pexelsPhotoSearch, searchQuery, unsplashPhotoSearch } from './stock-photo-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-stock-'));
let pexels: FakeStockServer;
let unsplash: FakeStockServer;
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
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => realFetch(String(input).replace('https://api.pexels.com', pexels.url), init));
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
const isJpeg = (path: string) => readFileSync(path).subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));

describe('stock photo search query', () => {
  it('keeps the distinctive words of a generator prompt', () => {
    expect(searchQuery('Cinematic wide shot of a giant octopus in the deep ocean, golden hour')).toBe('giant octopus deep ocean');
    expect(searchQuery('溶岩が流れる火山、夜')).toBe('溶岩が流れる火山 夜');
  });
});

describe('Pexels (official client against a local fake)', () => {
  it('searches the scene in the video\'s orientation, downloads the photo and credits its photographer', async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch(pexels.key));
    const result = await provider.generateImage(request());
    expect(isJpeg(result.imagePath)).toBe(true);
    expect(result.credit).toEqual({ source: 'pexels', sourceId: 'pexels:101', author: 'Ana Reef', authorUrl: 'https://www.pexels.com/@ana-reef', pageUrl: 'https://www.pexels.com/photo/101/' });
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

  it('answers a refused key with a final error naming the library', async () => {
    routePexelsToFake();
    const provider = createStockPhotoProvider(pexelsPhotoSearch('wrong-key'));
    const failure = await provider.generateImage(request()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ retryable: false, message: "The Pexels picture library refused the server's key; ask the operator to check it" });
    expect((await provider.health()).status).toBe('error');
  });
});

describe('Unsplash (official client against a local fake)', () => {
  const provider = () => createStockPhotoProvider(unsplashPhotoSearch(unsplash.key, { baseUrl: unsplash.url }));

  it('searches squarish for 1:1, credits the photographer and reports the download', async () => {
    const result = await provider().generateImage(request({ width: 1080, height: 1080, prompt: 'an erupting volcano at night' }));
    expect(isJpeg(result.imagePath)).toBe(true);
    expect(result.credit).toMatchObject({ source: 'unsplash', sourceId: 'unsplash:u201', author: 'Dev Magma', pageUrl: 'https://unsplash.com/photos/u201' });
    const search = unsplash.requests.find((sent) => sent.url.pathname === '/search/photos')!;
    expect(search.headers.authorization).toBe(`Client-ID ${unsplash.key}`);
    expect(search.url.searchParams.get('orientation')).toBe('squarish');
    expect(unsplash.requests.some((sent) => sent.url.pathname === '/photos/u201/download')).toBe(true);
  });

  it('falls back from the prompt to the topic, then to drawn art with no credit', async () => {
    const byTopic = await provider().generateImage(request({ prompt: 'three hearts beating', topic: 'The octopus' }));
    expect(byTopic.credit?.source).toBe('unsplash');
    const drawn = await provider().generateImage(request({ prompt: 'a quiet library', topic: 'Books' }));
    expect(drawn.credit).toBeUndefined();
    expect(isJpeg(drawn.imagePath)).toBe(true);
  });
});
