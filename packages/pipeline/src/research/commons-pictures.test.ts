import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PictureRequest } from '../providers/types.js';
import { researchOver, startFakeWikimediaServer, type FakeWikimediaServer } from '../testing/fake-wikimedia-server.js';
import { relevance, sceneNouns, sceneQueries } from './commons-pictures.js';

let fake: FakeWikimediaServer;
beforeAll(async () => {
  fake = await startFakeWikimediaServer();
});
afterAll(async () => {
  await fake.close();
});

const research = () => researchOver(fake);
const signal = () => AbortSignal.timeout(5000);
const ask = (sceneText: string, title: string, more: Partial<PictureRequest> = {}): PictureRequest => ({
  sceneText,
  article: { title, language: 'en' },
  width: 1080,
  height: 1920,
  avoidFiles: new Set(),
  ...more,
});
/** What research offers for a scene of the article `title` (see ask), best first. */
const pictures = (sceneText: string, title: string, more?: Partial<PictureRequest>) =>
  research().findPictures(ask(sceneText, title, more), signal());

describe("a scene's own nouns, in the article's language", () => {
  it('searches names first, then the longer words, never the title words or filler', () => {
    expect(
      sceneNouns('In 1822 the French physicist Augustin Fresnel designed a lens made of many rings of glass prisms.', 'Lighthouse'),
    ).toEqual(['Augustin', 'Fresnel', 'French', 'physicist', 'designed', 'prisms', 'rings', 'glass', 'lens']);
    // "se llama" is a verb, not a llama; the words are the Spanish scene's own.
    const spanish = sceneNouns('El magma que sale a la superficie se llama lava y forma coladas.', 'Volcán');
    expect(spanish).toEqual(['superficie', 'coladas', 'magma', 'forma', 'sale', 'lava']);
    expect(spanish).not.toContain('llama');
    expect(sceneQueries('Smeaton built the tower of granite blocks.', 'Eddystone Lighthouse')).toEqual([
      'Smeaton granite Eddystone Lighthouse',
      'Smeaton Eddystone Lighthouse',
      'Eddystone Lighthouse',
    ]);
  });

  it("scores a picture by the scene's words its title and description carry", () => {
    const metadata = (description: string) => ({ ImageDescription: { value: `<p>${description}</p>` } });
    const scene = 'Keepers wound the clockwork that turned the lens.';
    expect(relevance({ fileName: 'File:Keepers at work.jpg', metadata: metadata('winding the clockwork') }, scene, 'Lighthouse')).toBe(2);
    expect(relevance({ fileName: 'File:Lighthouse at dusk.jpg', metadata: metadata('a tower at dusk') }, scene, 'Lighthouse')).toBe(0.5);
    // Accents and case do not hide a match; a name inside a sentence counts double.
    expect(relevance({ fileName: 'File:Coladas de lava.jpg', metadata: {} }, 'Las coladas de lava', 'Volcán')).toBe(2);
    expect(relevance({ fileName: 'File:Volcan Arenal.jpg', metadata: {} }, 'El volcán Arenal', 'Volcán')).toBe(2.5);
  });
});

describe('Commons pictures for a scene against the fake', () => {
  it('ranks relevance above shape: the Fresnel lens for the Fresnel scene, not the portrait lead image', async () => {
    const [best] = await pictures(
      'In 1822 the French physicist Augustin Fresnel designed a lens made of many rings of glass prisms.',
      'Lighthouse',
      {
        article: { title: 'Lighthouse', language: 'en', leadImage: 'Lighthouse_at_dusk.jpg' },
      },
    );
    expect(best?.fileName).toBe('File:Fresnel lens.jpg');
    expect(best?.relevance).toBeGreaterThanOrEqual(2);
    // A landscape that shows the scene beats a 9:16 portrait that does not.
    const [keepers] = await pictures(
      'Lighthouse keepers lived at the towers, trimming wicks and winding the clockwork that turned the lens.',
      'Lighthouse',
    );
    expect(keepers?.fileName).toBe('File:Keepers at the clockwork.jpg');
  });

  it("offers the article's own pictures first and never a restricted, unfree or badly addressed one", async () => {
    const found = await pictures('Lighthouses mark dangerous coastlines.', 'Lighthouse');
    const names = found.map((candidate) => candidate.fileName);
    expect(names.slice(0, 3).sort()).toEqual([
      'File:Alexandria Pharos reconstruction.jpg',
      'File:Fresnel lens.jpg',
      'File:Keepers at the clockwork.jpg',
    ]);
    expect(names).not.toContain('File:Lighthouse brand logo.jpg');
    expect(names).not.toContain('File:Octopus page with a script address.jpg');
    expect(found.every((candidate) => /^https:\/\//.test(candidate.attribution.sourceUrl))).toBe(true);
    const octopus = await pictures('Octopuses squirt ink and hide in coral reefs.', 'Octopus');
    expect(octopus.length).toBeGreaterThan(0);
    for (const candidate of octopus)
      expect(candidate.attribution.license).toMatch(/^(CC0|Public domain|CC BY(-SA)? \d(\.\d)?( [a-z]{2})?)$/);
    expect(octopus.map((candidate) => candidate.fileName)).not.toEqual(
      expect.arrayContaining(['File:Octopus NC photo.jpg', 'File:Octopus film still.jpg', 'File:Octopus ND drawing.jpg']),
    );
  });

  it('prefers the shape that suits the frame among pictures that say as much, and passes over used files', async () => {
    const landscape = await pictures('Volcanoes erupt.', 'Volcano', { width: 1920, height: 1080 });
    expect(landscape[0]?.fileName).toBe('File:Erupting volcano panorama.jpg');
    const portrait = await pictures('Volcanoes erupt.', 'Volcano');
    expect(portrait[0]?.fileName).toBe('File:Volcano lava flow at night.jpg');
    const next = await pictures('Volcanoes erupt.', 'Volcano', { avoidFiles: new Set(['File:Volcano lava flow at night.jpg']) });
    expect(next.map((candidate) => candidate.fileName)).not.toContain('File:Volcano lava flow at night.jpg');
  });
});

describe('a scene that names nothing a picture shows', () => {
  it("gets the article's lead image, the picture that represents the article", async () => {
    const [best] = await pictures('An octopus is a soft-bodied, eight-limbed mollusc of the order Octopoda.', 'Octopus', {
      article: { title: 'Octopus', language: 'en', leadImage: 'Common_octopus_on_a_reef.jpg' },
    });
    // The camouflage photo, also the article's, is exactly 9:16; the lead image still leads.
    expect(best?.fileName).toBe('File:Common octopus on a reef.jpg');
  });
});
