import { VIDEO_LANGUAGES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { buildPostKit, cutAtWord, POST_HASHTAGS_MAX, POST_HASHTAGS_MIN, POST_TITLE_MAX, postCreditLines } from './post-kit.js';

const STORIES: Record<(typeof VIDEO_LANGUAGES)[number], { topic: string; title: string; narration: string[] }> = {
  en: {
    topic: 'Why octopuses have three hearts',
    title: 'Why Octopuses Have Three Hearts',
    narration: [
      'An octopus has three hearts. Two of them pump blood through the gills.',
      'The third heart sends blood to the rest of the body. It stops beating while the octopus swims.',
      'That is why octopuses prefer crawling to swimming.',
    ],
  },
  de: {
    topic: 'Warum Kraken drei Herzen haben',
    title: 'Warum Kraken drei Herzen haben',
    narration: [
      'Ein Krake hat drei Herzen. Zwei pumpen Blut durch die Kiemen.',
      'Das dritte Herz versorgt den Körper. Beim Schwimmen setzt es aus.',
    ],
  },
  es: {
    topic: 'Por qué los pulpos tienen tres corazones',
    title: 'Por qué los pulpos tienen tres corazones',
    narration: [
      'El pulpo tiene tres corazones. Dos bombean sangre a las branquias.',
      'El tercero alimenta el cuerpo. Se detiene al nadar.',
    ],
  },
  fr: {
    topic: 'Pourquoi la pieuvre a trois cœurs',
    title: 'Pourquoi la pieuvre a trois cœurs',
    narration: ['La pieuvre a trois cœurs. Deux cœurs envoient le sang vers les branchies.', 'Le troisième irrigue le corps entier.'],
  },
  pt: {
    topic: 'Por que o polvo tem três corações',
    title: 'Por que o polvo tem três corações',
    narration: ['O polvo tem três corações. Dois bombeiam sangue para as brânquias.', 'O terceiro leva sangue ao corpo inteiro.'],
  },
  hi: {
    topic: 'ऑक्टोपस के तीन दिल क्यों होते हैं',
    title: 'ऑक्टोपस के तीन दिल',
    narration: ['ऑक्टोपस के तीन दिल होते हैं। दो दिल गलफड़ों में खून भेजते हैं।', 'तीसरा दिल पूरे शरीर में खून पहुँचाता है।'],
  },
  ja: {
    topic: 'タコに心臓が三つある理由',
    title: 'タコに心臓が三つある理由',
    narration: ['タコには心臓が三つあります。二つはえらに血液を送ります。', '三つ目の心臓は全身に血液を送ります。'],
  },
};

describe('post kit', () => {
  it.each(VIDEO_LANGUAGES)('gives a %s video a title, a description with credits and a notice, and 3–8 unique hashtags', (language) => {
    const story = STORIES[language];
    const credits = postCreditLines(language, { source: { title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus' } });
    const post = buildPostKit({ ...story, language, credits });
    expect(post.title).toBe(story.title);
    expect(post.description).toContain(story.narration[0]!.split(/[.。।]/u)[0]!);
    expect(post.description).toContain('https://en.wikipedia.org/wiki/Octopus');
    expect(post.description).toMatch(/Reelsmith/);
    expect(post.hashtags.length).toBeGreaterThanOrEqual(POST_HASHTAGS_MIN);
    expect(post.hashtags.length).toBeLessThanOrEqual(POST_HASHTAGS_MAX);
    expect(new Set(post.hashtags.map((tag) => tag.toLowerCase())).size).toBe(post.hashtags.length);
    for (const tag of post.hashtags) expect(tag).toMatch(/^#[\p{L}\p{M}\p{N}_]+$/u);
  });

  it('leads the hashtags with what the video is about', () => {
    const post = buildPostKit({ ...STORIES.en, language: 'en', credits: [] });
    expect(post.hashtags.slice(0, 3).map((tag) => tag.toLowerCase())).toEqual(expect.arrayContaining(['#octopuses', '#hearts']));
  });

  it("titles a researched video's post with its topic, not the article's bare name (issue 49)", () => {
    const researched = { ...STORIES.en, title: 'Octopus', topic: 'why octopuses have three hearts' };
    expect(buildPostKit({ ...researched, language: 'en', credits: [] }).title).toBe('Why octopuses have three hearts');
    expect(buildPostKit({ ...STORIES.de, title: 'Krake', language: 'de', credits: [] }).title).toBe(
      STORIES.de.topic.charAt(0).toUpperCase() + STORIES.de.topic.slice(1),
    );
    // A real title stays; so does a name that is the whole topic, and a title a model wrote for the post.
    expect(buildPostKit({ ...STORIES.en, language: 'en', credits: [] }).title).toBe(STORIES.en.title);
    expect(buildPostKit({ ...STORIES.en, title: 'Octopus', topic: 'octopus', language: 'en', credits: [] }).title).toBe('Octopus');
    const written = { title: 'Octopus', summary: 'Three hearts.', hashtags: ['octopus', 'ocean', 'hearts'] };
    expect(buildPostKit({ ...researched, written, language: 'en', credits: [] }).title).toBe('Octopus');
  });

  it('keeps the title within 100 characters, cut at a word', () => {
    const title = 'The remarkable and surprisingly long story of how three hearts keep an octopus alive in the cold deep ocean for years';
    const post = buildPostKit({ ...STORIES.en, title, language: 'en', credits: [] });
    expect(post.title.length).toBeLessThanOrEqual(POST_TITLE_MAX);
    expect(post.title.endsWith('…')).toBe(true);
    expect(title.startsWith(post.title.slice(0, -1))).toBe(true);
    expect(cutAtWord('short', 100)).toBe('short');
  });

  it('takes the writer’s summary and hashtags first when a model wrote them', () => {
    const post = buildPostKit({
      ...STORIES.en,
      language: 'en',
      credits: [],
      written: {
        title: 'Three hearts',
        summary: 'Octopuses run on three hearts.',
        hashtags: ['#MarineBiology', 'octopus facts', '#marinebiology'],
      },
    });
    expect(post.description.startsWith('Octopuses run on three hearts.')).toBe(true);
    expect(post.hashtags.slice(0, 2)).toEqual(['#MarineBiology', '#OctopusFacts']);
    // Two of the writer's own are too few: the story's words fill up to the minimum and beyond.
    expect(post.hashtags.length).toBeGreaterThanOrEqual(POST_HASHTAGS_MIN);
  });

  it('keeps the writer’s hashtags alone when there are enough of them', () => {
    const written = { title: 'Three hearts', summary: 'Octopuses run on three hearts.', hashtags: ['#Octopus', '#SeaLife', '#Hearts'] };
    const post = buildPostKit({ ...STORIES.en, language: 'en', credits: ['Based on: Octopus (https://example.org)'], written });
    expect(post.hashtags).toEqual(['#Octopus', '#SeaLife', '#Hearts']);
    expect(post.description).toBe(
      'Octopuses run on three hearts.\n\nBased on: Octopus (https://example.org)\n\nMade with AI: the narration and the pictures of this video were generated with Reelsmith.',
    );
  });

  it('credits each picture once', () => {
    const lines = postCreditLines('en', {
      pictures: [
        { author: 'Ann', license: 'CC BY 4.0', sourceUrl: 'https://commons.wikimedia.org/wiki/File:A.jpg' },
        { author: 'Ann', license: 'CC BY 4.0', sourceUrl: 'https://commons.wikimedia.org/wiki/File:A.jpg' },
      ],
    });
    expect(lines).toEqual(['Pictures: Ann, CC BY 4.0, https://commons.wikimedia.org/wiki/File:A.jpg']);
  });
});
