import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImageRequest } from '../providers/types.js';
import { researchOver, startFakeWikimediaServer, type FakeWikimediaServer } from '../testing/fake-wikimedia-server.js';
import { findScenePictures, type ResearchedArticle } from './research.js';

/**
 * A researched video's pictures: every scene gets a picture of what it says, looked up for all
 * scenes at once, each within its own time, also when Wikimedia answers slowly.
 */

let fake: FakeWikimediaServer;
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-scene-pictures-'));
beforeAll(async () => {
  fake = await startFakeWikimediaServer();
});
afterEach(() => {
  fake.setDelay(0);
  fake.setMode('normal');
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

// A fresh client per video: nothing answered from an earlier test's cache.
const research = () => researchOver(fake);

const article: ResearchedArticle = {
  title: 'Lighthouse',
  url: 'https://en.wikipedia.org/wiki/Lighthouse',
  text: '…',
  leadImage: 'Lighthouse_at_dusk.jpg',
  language: 'en',
};
const SCENES = [
  'A lighthouse is a tower built to send out light to guide ships at sea.',
  'The Lighthouse of Alexandria, built in the third century BC, was one of the Seven Wonders of the Ancient World.',
  'In 1822 the French physicist Augustin Fresnel designed a lens made of many rings of glass prisms.',
  'For centuries lighthouse keepers lived at the towers, trimming wicks and winding the clockwork that turned the lens.',
];
let counter = 0;
const needs = () =>
  SCENES.map((narration, index) => ({
    index,
    request: {
      // The painter's English subject words, which Commons must never be searched with.
      prompt: 'ringed planet, seal, llama',
      visualStyle: 'cinematic',
      width: 1080,
      height: 1920,
      sceneIndex: index,
      outputPath: join(dir, `scene-${counter++}.jpg`),
      narration,
      language: 'en',
    } satisfies ImageRequest,
  }));

async function pictures(options: { budgetMs?: number } = {}) {
  const giveUps: string[] = [];
  const found = findScenePictures(needs(), article, research(), new Set(), {
    ...options,
    onGiveUp: (scene, what, error) => giveUps.push(`${scene}: ${what}: ${(error as Error).message}`),
  });
  const results = await Promise.all(SCENES.map((_, index) => found.get(index)!));
  return { results, giveUps };
}

const EXPECTED = [
  'File:Lighthouse at dusk.jpg',
  'File:Alexandria Pharos reconstruction.jpg',
  'File:Fresnel lens.jpg',
  'File:Keepers at the clockwork.jpg',
];

describe("a researched video's scene pictures", () => {
  it("gives each scene a different picture of what it says, searched with the scene's own words", async () => {
    const before = fake.requests.length;
    const { results, giveUps } = await pictures();
    expect(results.map((result) => result && `File:${result.subject}.jpg`)).toEqual(EXPECTED);
    for (const result of results) expect(readFileSync(result!.imagePath).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(results[3]!.attribution?.author).toBe('Photo: Gil Winder / Lighthouse Museum');
    expect(giveUps).toEqual([]);
    const searches = fake.requests
      .slice(before)
      .map((request) => request.url.searchParams.get('gsrsearch'))
      .filter(Boolean);
    expect(searches).toContain('filetype:bitmap Augustin Fresnel Lighthouse');
    expect(searches.join(' ')).not.toMatch(/planet|seal|llama/);
  });

  it('still gives every scene its picture when each answer takes 400 ms, the scenes looked up at once', async () => {
    fake.setDelay(400);
    const started = performance.now();
    const { results, giveUps } = await pictures();
    const seconds = (performance.now() - started) / 1000;
    expect(results.map((result) => result && `File:${result.subject}.jpg`)).toEqual(EXPECTED);
    expect(giveUps).toEqual([]);
    // One after another this is 4 scenes × (article pictures, searches, download) ≈ 8 s: the old shared budget's whole.
    expect(seconds).toBeLessThan(6);
  });

  it('says when it gives up on a scene: a Wikimedia that stops answering costs each scene its own budget only', async () => {
    fake.setMode('hang');
    const started = performance.now();
    const { results, giveUps } = await pictures({ budgetMs: 300 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(results).toEqual([null, null, null, null]);
    expect(giveUps).toHaveLength(4);
    expect(giveUps[0]).toMatch(/^0: picture search: no answer within 300 ms/);
  });
});
