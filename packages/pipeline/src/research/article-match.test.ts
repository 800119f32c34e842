import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWikimediaServer, type FakeWikimediaServer } from '../testing/fake-wikimedia-server.js';
import { leadDefinesTopic, titleMatchesTopic } from './article-match.js';
import { createWikimediaClient, type WikimediaClient } from './wikimedia-client.js';
import { createWikipediaResearch } from './wikipedia-research.js';

describe('titleMatchesTopic: accents, case, plurals and compounds', () => {
  it.each([
    ['Honey bee', 'How honeybees talk by dancing', true],
    ['Honeybee', 'How honey bees talk by dancing', true],
    ['Volcán', 'Cómo se forman los volcanes', true],
    ['Volcan', 'Cómo se forman los VOLCANES', true],
    ['Tour Eiffel', "L'histoire de la tour Eiffel", true],
    ['Fahrrad', 'Wie Fahrräder gebaut werden', true],
    ['Tea', 'How tea is made', true],
    ['Bee', 'How honeybees talk by dancing', false],
    ['Bee', 'Why bees dance', true],
    ['Bee', 'Beer brewing', false],
    ['Honey', 'How honeybees talk by dancing', false],
    ['Honey bee', 'How bumblebees fly', false],
    ['Volcán de Fuego', 'Cómo se forman los volcanes', false],
    ['Heart and Soul', 'Why octopuses have three hearts', false],
    ['Octopus', 'Why octopuses have three hearts', true],
    ['Kraken', 'Warum Kraken drei Herzen haben', true],
    ['Honey bee', 'How the honey bee dances', true],
    ['Heart', 'Why octopuses have three hearts', true],
    ['Octopus (band)', 'Why octopuses have three hearts', true],
    ['Three Hearts and Three Lions', 'Why octopuses have three hearts', false],
    ['Lighthouse', 'Why octopuses have three hearts', false],
    ['東京', '東京の歴史', true],
  ])('%s for "%s": %s', (title, topic, expected) => {
    expect(titleMatchesTopic(title, topic)).toBe(expected);
  });
});

describe('leadDefinesTopic: a top hit whose title the topic does not name', () => {
  it('accepts a lead sentence that defines the topic subject, in any inflection or compound', () => {
    expect(
      leadDefinesTopic(
        'The western honey bee or European honey bee (Apis mellifera) is the most common of the honey bees. It is kept worldwide.',
        'How honeybees talk by dancing',
        'en',
      ),
    ).toBe(true);
    expect(leadDefinesTopic('Un volcán es una abertura en la corteza terrestre.', 'Cómo se forman los volcanes', 'es')).toBe(true);
  });

  it('refuses a lead that only mentions the subject later, or defines something else', () => {
    expect(
      leadDefinesTopic('Karl von Frisch was an ethologist who studied how honeybees dance.', 'How honeybees talk by dancing', 'en'),
    ).toBe(false);
    expect(leadDefinesTopic('Dancing is a performing art.', 'Why cats purr', 'en')).toBe(false);
  });
});

let fake: FakeWikimediaServer;
let client: WikimediaClient;
beforeAll(async () => {
  fake = await startFakeWikimediaServer();
  client = createWikimediaClient({
    wikipediaApiUrl: fake.wikipediaApiUrl,
    commonsApiUrl: fake.commonsApiUrl,
    mediaHosts: [fake.mediaHost],
    userAgent: 'Reelsmith/0.1.0 (research-tests@reelsmith.example)',
  });
});
afterAll(async () => {
  await fake.close();
});
const signal = () => AbortSignal.timeout(5000);

describe('findArticle against the fake Wikipedia', () => {
  it('finds "Honey bee" for "How honeybees talk by dancing" and "Volcán" for "Cómo se forman los volcanes"', async () => {
    const research = createWikipediaResearch(client);
    expect((await research.findArticle('How honeybees talk by dancing', 'en', signal()))?.title).toBe('Honey bee');
    expect((await research.findArticle('Cómo se forman los volcanes', 'es', signal()))?.title).toBe('Volcán');
  });

  it('trusts the top hit whose lead defines the subject, never a disambiguation page, and nothing that only mentions the topic', async () => {
    const research = createWikipediaResearch(client);
    // The topic does not name "Honey bee", but the search's top hit defines bees in its lead sentence.
    expect(titleMatchesTopic('Honey bee', 'Why bees dance')).toBe(false);
    expect((await research.findArticle('Why bees dance', 'en', signal()))?.title).toBe('Honey bee');
    // "Mercury" is a disambiguation page: named by the topic, still never told.
    expect(await research.findArticle('Mercury facts', 'en', signal())).toBeNull();
    // The octopus article mentions coral reefs in its lead, but it defines octopuses.
    expect(await research.findArticle('Coral reefs', 'en', signal())).toBeNull();
  });
});
