import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { researchOver, startFakeWikimediaServer, type FakeWikimediaServer } from '../testing/fake-wikimedia-server.js';
import { ResearchBudget } from './research-budget.js';

let fake: FakeWikimediaServer;
beforeAll(async () => {
  fake = await startFakeWikimediaServer();
});
afterAll(async () => {
  await fake.close();
});

const research = (mediaHosts?: string[]) => researchOver(fake, mediaHosts);
const signal = () => AbortSignal.timeout(5000);

describe('Wikipedia research against the fake (formatversion=2)', () => {
  it('finds the matching article in the narration language, as plain text: each heading a line of its own, no markup, nothing from the references on', async () => {
    const article = await research().findArticle('Why octopuses have three hearts', 'en', signal());
    expect(article).toMatchObject({ title: 'Octopus', leadImage: 'Common_octopus_on_a_reef.jpg', disambiguation: false });
    expect(article!.url).toBe(`${fake.url}/en/wiki/Octopus`);
    expect(article!.text).toContain('An octopus has three hearts.');
    expect(article!.text).not.toMatch(/==|See also|References/);
    // The telling scores a section by its heading, so the heading stays, as a line without a full stop.
    expect(article!.text).toMatch(/^Anatomy$/m);
    const german = await research().findArticle('Warum Kraken drei Herzen haben', 'de', signal());
    expect(german?.title).toBe('Kraken');
    const sent = fake.requests.filter((request) => request.url.pathname.endsWith('/api.php'));
    expect(sent.every((request) => request.url.searchParams.get('formatversion') === '2')).toBe(true);
    expect(String(sent[0]!.headers['user-agent'])).toBe('Reelsmith/0.1.0 (research-tests@reelsmith.example)');
  });

  it('finds nothing for a topic no article matches, and passes over a disambiguation page', async () => {
    expect(await research().findArticle('Why cats purr', 'en', signal())).toBeNull();
    expect(await research().readArticle('Mercury', 'en', signal())).toBeNull();
    expect(await research().readArticle('No such article', 'en', signal())).toBeNull();
  });

  it('answers a topic asked twice from its cache', async () => {
    const researcher = research();
    await researcher.findArticles('Lighthouse keepers', 'en', signal());
    const before = fake.requests.length;
    expect((await researcher.findArticles('Lighthouse keepers', 'en', signal())).map((match) => match.title)).toEqual(['Lighthouse']);
    expect(fake.requests.length).toBe(before);
  });

  it('gives up within its budget when Wikimedia stops answering, and the job goes on', async () => {
    fake.setMode('hang');
    try {
      const budget = new ResearchBudget(400);
      const started = performance.now();
      expect(await budget.spend('article', (lookup) => research().findArticle('Why volcanoes erupt', 'en', lookup))).toBeNull();
      expect(await budget.spend('pictures', (lookup) => research().findArticle('Why volcanoes erupt', 'en', lookup))).toBeNull();
      expect(performance.now() - started).toBeLessThan(1500);
      expect(budget.remainingMs).toBe(0);
    } finally {
      fake.setMode('normal');
    }
  });
});
