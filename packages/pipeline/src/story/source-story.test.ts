import { readFileSync } from 'node:fs';
import { VIDEO_LANGUAGES, type VideoLanguage } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import type { StoryRequest } from '../providers/types.js';
import { chooseSceneSubjects } from '../images/offline-image-subject-choice.js';
import { SCENE_GAP_SECONDS } from '../runner/narration.js';
import { chooseSentences, opensWithPronoun, scoreSentences } from './extractive-summary.js';
import { createOfflineStoryProvider } from './offline-story-provider.js';
import { detectSourceLanguage } from './source-language.js';
import { tellSource } from './source-story.js';
import { isSpaceless, splitSentences, trimSentence } from './source-text.js';
import { countNarrationWords, planStory, sceneCountFor } from './story-budget.js';

/** Hand-written articles, one per narration language, each with a title line and a footer line of site chrome. */
export const articleText = (language: VideoLanguage): string =>
  readFileSync(new URL(`./source-articles/${language}.txt`, import.meta.url), 'utf8');

function request(language: string, durationSeconds: number, extra: Partial<StoryRequest> = {}): StoryRequest {
  const sceneCount = sceneCountFor(durationSeconds);
  const { targetWords } = planStory(durationSeconds - SCENE_GAP_SECONDS * (sceneCount - 1), 178, language);
  return {
    topic: 'A topic',
    style: 'educational',
    language,
    durationSeconds,
    visualStyle: 'cinematic',
    customPrompt: '',
    sceneCount,
    targetWords,
    ...extra,
  };
}

const joinerOf = (language: string) => (isSpaceless(language) ? '' : ' ');

describe('telling an article offline', () => {
  it('has a hand-written article in every narration language, detected as that language', () => {
    for (const language of VIDEO_LANGUAGES) {
      const text = articleText(language);
      expect(detectSourceLanguage(text), language).toBe(language);
      expect(splitSentences(text, language).length, language).toBeGreaterThanOrEqual(25);
    }
    // Each is 800 to 2,000 words as the narration budget counts them (2.5 characters a word in Japanese).
    for (const language of VIDEO_LANGUAGES) {
      const words = countNarrationWords(articleText(language), language);
      expect(words, language).toBeGreaterThanOrEqual(800);
      expect(words, language).toBeLessThanOrEqual(2000);
    }
  });

  for (const language of VIDEO_LANGUAGES) {
    it(`tells the ${language} article in 30 s with its own best-scored sentences, in its order, within the budget`, () => {
      const text = articleText(language);
      const asked = request(language, 30);
      const story = tellSource(asked, { kind: 'article', text, title: 'The title' });
      const sentences = splitSentences(text, language);
      const byText = new Map(sentences.map((sentence) => [sentence.text, sentence]));

      expect(story.title).toBe('The title');
      // Scenes change between sentences: fewer scenes rather than a sentence cut across two.
      expect(story.scenes.length).toBeLessThanOrEqual(asked.sceneCount);
      expect(story.scenes.length).toBeGreaterThanOrEqual(2);
      for (const scene of story.scenes) expect(scene.narration, scene.narration).toMatch(/[.!?。！？।]["'”’»」』)）]*$/u);
      // Every scene names the source sentences it tells, and they are sentences of the article, in order.
      const told = story.scenes.flatMap((scene) => scene.sourceSentences ?? []);
      const unique = [...new Set(told)];
      expect(unique.length).toBeGreaterThanOrEqual(2);
      const indexes = unique.map((sentence) => byText.get(sentence)?.index ?? -1);
      expect(indexes.every((index) => index >= 0)).toBe(true);
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
      // The narration is exactly those sentences (trimmed), nothing added and nothing reworded.
      const joiner = joinerOf(language);
      expect(story.scenes.map((scene) => scene.narration).join(joiner)).toBe(
        unique.map((sentence) => trimSentence(sentence, language)).join(joiner),
      );
      // Chosen among the better-scored half of the article's sentences (centrality, place and subject).
      const scores = scoreSentences(text, sentences, language, 'The title');
      const ranked = [...sentences]
        .sort((a, b) => scores[b.index]! - scores[a.index]! || a.index - b.index)
        .map((sentence) => sentence.index);
      const topHalf = new Set(ranked.slice(0, Math.ceil(ranked.length / 2)));
      for (const index of indexes) expect(topHalf.has(index), `sentence ${index}: ${sentences[index]!.text}`).toBe(true);
      // The best-scored sentence that fits the budget on its own (and says who it is about) is told.
      const best = ranked.find((index) => {
        const narration = trimSentence(sentences[index]!.text, language);
        return (
          !sentences[index]!.fragment &&
          !opensWithPronoun(narration, language) &&
          countNarrationWords(narration, language) <= asked.targetWords
        );
      });
      expect(indexes).toContain(best);
      // The words fill the duration's budget without going over it.
      const words = story.scenes.reduce((sum, scene) => sum + countNarrationWords(scene.narration, language), 0);
      expect(words).toBeLessThanOrEqual(asked.targetWords);
      expect(words).toBeGreaterThanOrEqual(asked.targetWords * 0.8);
      // Headings and the footer's links are never told.
      expect(told.some((sentence) => sentences.find((candidate) => candidate.text === sentence)!.fragment)).toBe(false);
    });
  }

  it('fills a 60 s budget with more of the article than a 30 s one, and never repeats a sentence', () => {
    const text = articleText('en');
    const short = tellSource(request('en', 30), { kind: 'article', text });
    const long = tellSource(request('en', 60), { kind: 'article', text });
    const count = (scenes: typeof short.scenes) => scenes.reduce((sum, scene) => sum + countNarrationWords(scene.narration, 'en'), 0);
    expect(count(long.scenes)).toBeGreaterThan(count(short.scenes) * 1.7);
    const told = long.scenes.flatMap((scene) => scene.sourceSentences ?? []);
    expect(told.length).toBeGreaterThanOrEqual(new Set(told).size);
    expect(long.scenes.length).toBeLessThanOrEqual(sceneCountFor(60));
    expect(long.scenes.length).toBeGreaterThan(short.scenes.length);
  });

  it('draws each scene from its own sentences: the picture names what that scene says, not the title', () => {
    const story = tellSource(request('en', 30), {
      kind: 'article',
      text: articleText('en'),
      title: 'How Honeybees Tell Each Other Where the Flowers Are',
    });
    const prompts = story.scenes.map((scene) => scene.imagePrompt);
    expect(new Set(prompts).size).toBe(prompts.length);
    for (const scene of story.scenes) {
      const subjects = scene.imagePrompt.split(', ').slice(0, 3);
      for (const subject of subjects) expect(scene.narration.toLowerCase(), scene.imagePrompt).toContain(subject.toLowerCase());
      expect(scene.imagePrompt).not.toContain('How Honeybees Tell');
    }
  });

  it('is the same story every time for the same article and budget', () => {
    const text = articleText('de');
    expect(tellSource(request('de', 30), { kind: 'article', text })).toEqual(tellSource(request('de', 30), { kind: 'article', text }));
  });
});

describe('choosing what to tell', () => {
  it('tells a sentence that opens with "He" only after the sentence that names him', () => {
    const texts = [
      'Robert Stevenson built lighthouses in Scotland for the Northern Lighthouse Board.',
      'He designed the Bell Rock lighthouse, the oldest sea-washed lighthouse still standing.',
      'The Bell Rock lighthouse stands on a reef in the North Sea.',
      'Waves cover the reef at high tide.',
    ];
    const candidates = texts.map((text, index) => ({
      sentence: { index, text, fragment: false },
      narration: text,
      words: countNarrationWords(text, 'en'),
    }));
    // The "He" sentence is the most central one, yet alone it would leave the viewer asking who.
    const scores = [0.5, 2, 1, 0.4];
    const tight = chooseSentences(candidates, scores, 13, 'en').chosen.map((candidate) => candidate.sentence.index);
    expect(tight).toEqual([2]);
    const roomy = chooseSentences(candidates, scores, 40, 'en').chosen.map((candidate) => candidate.sentence.index);
    expect(roomy).toEqual([0, 1, 2]);
  });

  it('splits a sentence longer than a scene may run at a clause end, not between the items of a list', () => {
    const text =
      'A lighthouse is a tower, building, or other type of structure designed to emit light from lamps and lenses, and it guides ships at night.';
    // Scenes of 9 words may run to 22: the sentence's 26 words are split, once.
    const story = tellSource(request('en', 30, { sceneCount: 2, targetWords: 18 }), { kind: 'script', text });
    expect(story.scenes.map((scene) => scene.narration)).toEqual([
      'A lighthouse is a tower, building, or other type of structure designed to emit light from lamps and lenses,',
      'and it guides ships at night.',
    ]);
  });

  it('splits a long sentence without punctuation before a conjunction, keeping every word', () => {
    const text =
      'A lighthouse is a structure designed to emit light from a system of lamps and lenses and to serve as a navigational aid for pilots at sea.';
    const story = tellSource(request('en', 30, { sceneCount: 2, targetWords: 18 }), { kind: 'script', text });
    expect(story.scenes.map((scene) => scene.narration)).toEqual([
      'A lighthouse is a structure designed to emit light from a system of lamps and lenses',
      'and to serve as a navigational aid for pilots at sea.',
    ]);
  });

  it('names what a scene shows in its picture, capitals for emphasis read as the word', () => {
    const story = tellSource(request('en', 30, { sceneCount: 1, targetWords: 40 }), {
      kind: 'script',
      text: 'A LIGHTHOUSE is a tower with a lamp. South Foreland Lighthouse was the first tower to use an electric light.',
    });
    expect(story.scenes[0]!.imagePrompt).toMatch(/^lighthouse, tower, lamp, South Foreland Lighthouse/);
  });
});

describe('telling a script offline', () => {
  const script = [
    'Most people think the Moon has a dark side.',
    'It does not: every part of the Moon gets sunlight as it turns.',
    'What we never see from Earth is its far side, because the Moon turns once for every trip around us.',
    'Astronomers call this tidal locking.',
    'The first photographs of the far side came from a Soviet probe in 1959.',
    'They showed a rough face with almost none of the dark plains we know.',
    'So next time someone mentions the dark side, you can tell them where the dark really is.',
  ].join(' ');

  it('says the script verbatim, split into the scenes of a topic video at sentence ends', () => {
    const story = tellSource(request('en', 30), { kind: 'script', text: script });
    expect(story.scenes).toHaveLength(sceneCountFor(30));
    expect(story.scenes.map((scene) => scene.narration).join(' ')).toBe(script);
    for (const scene of story.scenes) {
      expect(scene.narration).toMatch(/[.!?]$/);
      expect(scene.sourceSentences!.join(' ')).toBe(scene.narration);
    }
    // Scenes are about as long as each other.
    const lengths = story.scenes.map((scene) => countNarrationWords(scene.narration, 'en'));
    expect(Math.max(...lengths)).toBeLessThanOrEqual(Math.min(...lengths) * 3);
  });

  it('tells each sentence whole in a scene of its own when the script has fewer sentences than scenes', () => {
    const first = 'The bicycle was invented in 1817, and it had no pedals at all.';
    const second = 'Riders pushed it along with their feet, like a child on a balance bike, and they could go faster than walking.';
    const story = tellSource(request('en', 30), { kind: 'script', text: `${first} ${second}` });
    expect(story.scenes.map((scene) => scene.narration)).toEqual([first, second]);
  });

  it('says a Japanese script verbatim too', () => {
    const text =
      '月には裏側があります。しかし、暗い側というわけではありません。月は地球の周りを一周する間に一回だけ自転します。そのため、地球からはいつも同じ面しか見えません。初めて裏側の写真を撮ったのはソ連の探査機でした。';
    const story = tellSource(request('ja', 30), { kind: 'script', text });
    expect(story.scenes.map((scene) => scene.narration).join('')).toBe(text);
  });

  it("refuses offline to tell a source in another language than the narration's", async () => {
    const provider = createOfflineStoryProvider();
    await expect(
      provider.writeStory({ ...request('en', 30), source: { kind: 'article', text: articleText('de'), language: 'de' } }),
    ).rejects.toThrow('This article is in German; choose German narration, or configure a story model to translate it into English.');
    const story = await provider.writeStory({ ...request('en', 30), source: { kind: 'script', text: script, language: 'en' } });
    expect(story.scenes.map((scene) => scene.narration).join(' ')).toBe(script);
  });
});

describe('source sentences', () => {
  it('does not end a sentence on an abbreviation or an initial', () => {
    expect(splitSentences('Dr. Smith met Mr. Jones. J. K. Rowling wrote it.', 'en').map((sentence) => sentence.text)).toEqual([
      'Dr. Smith met Mr. Jones.',
      'J. K. Rowling wrote it.',
    ]);
    expect(splitSentences('Das ist z. B. ein Satz. Noch einer!', 'de').map((sentence) => sentence.text)).toEqual([
      'Das ist z. B. ein Satz.',
      'Noch einer!',
    ]);
  });

  it('marks headings and link rows as fragments', () => {
    const sentences = splitSentences('A Title Line\nThe body says something. It goes on!\nPrivacy | Terms', 'en');
    expect(sentences.map((sentence) => sentence.fragment)).toEqual([true, false, false, true]);
  });

  it('trims a leading connective, parentheses and references, and nothing else', () => {
    expect(trimSentence('However, the dance (first described in 1946) is not a map [3].', 'en')).toBe('The dance is not a map.');
    expect(trimSentence('And so it began.', 'en')).toBe('And so it began.');
    expect(trimSentence('Sin embargo, las tortugas regresan.', 'es')).toBe('Las tortugas regresan.');
    expect(trimSentence('しかし、暗い側というわけではありません。', 'ja')).toBe('暗い側というわけではありません。');
    expect(trimSentence('22] The mouth of an octopus has a sharp beak.', 'en')).toBe('The mouth of an octopus has a sharp beak.');
    expect(trimSentence('Octopuses have two "legs".[21][', 'en')).toBe('Octopuses have two "legs".');
  });
});

describe('an article told without teasing and stopping (issue 37)', () => {
  const eiffel = readFileSync(new URL('../../bench/summary-articles/eiffel-tower.txt', import.meta.url), 'utf8');
  const told = (duration: number, extra: Partial<StoryRequest> = {}) =>
    tellSource(request('en', duration, { topic: 'The Eiffel Tower', ...extra }), { kind: 'article', text: eiffel });

  it('never tells "Not everyone welcomed the tower." or "Radio saved the Eiffel Tower." without the sentence after it', () => {
    for (const duration of [30, 60, 90]) {
      const narration = told(duration)
        .scenes.map((scene) => scene.narration)
        .join(' ');
      if (narration.includes('Not everyone welcomed the tower.'))
        expect(narration).toContain('Not everyone welcomed the tower. A group of artists');
      // The paragraph's headline comes with the sentence of its paragraph that says how.
      if (narration.includes('Radio saved the Eiffel Tower.'))
        expect(narration).toMatch(/Radio saved the Eiffel Tower\. (?:.+ )?Because the tower had become a vital radio antenna/u);
      expect(narration, `${duration} s`).not.toMatch(/(?:Radio saved the Eiffel Tower|Not everyone welcomed the tower)\.$/u);
    }
  });

  it('takes an announcing sentence with its answer, or leaves it out', () => {
    const texts = ['Why do cats purr?', 'Cats purr to calm themselves and their kittens.', 'Lions cannot purr at all.'];
    const candidates = texts.map((text, index) => ({
      sentence: { index, text, fragment: false },
      narration: text,
      words: countNarrationWords(text, 'en'),
    }));
    // The question is the best-scored sentence; alone it would tease.
    expect(chooseSentences(candidates, [3, 1, 2], 40, 'en').chosen.map((candidate) => candidate.sentence.index)).toEqual([0, 1, 2]);
    expect(chooseSentences(candidates, [3, 1, 2], 8, 'en').chosen.map((candidate) => candidate.sentence.index)).toEqual([2]);
  });

  it('keeps a sentence shorter than a scene in one scene', () => {
    for (const duration of [30, 60]) {
      const story = told(duration);
      const asked = request('en', duration);
      const sceneWords = story.scenes.reduce((sum, scene) => sum + countNarrationWords(scene.narration, 'en'), 0) / asked.sceneCount;
      for (const scene of story.scenes) {
        // A scene that does not end a sentence tells a piece of one longer than a scene.
        if (/[.!?]$/u.test(scene.narration)) continue;
        const whole = scene.sourceSentences!.at(-1)!;
        expect(countNarrationWords(whole, 'en'), whole).toBeGreaterThan(sceneWords);
      }
    }
  });

  it("is titled by the article's heading when no topic was typed, and by the typed topic otherwise", () => {
    expect(told(30).title).toBe('The Eiffel Tower');
    expect(told(30, { topic: 'Paris in iron' }).title).toBe('Paris in iron');
    const untitled = eiffel.split('\n').slice(2).join('\n');
    const story = tellSource(request('en', 30, { topic: untitled.split('\n')[0]!.split('. ')[0]! + '.' }), {
      kind: 'article',
      text: untitled,
    });
    expect(story.title).toBe('The Eiffel Tower');
  });
});

describe('what an article scene shows', () => {
  it('keeps a name with "de" or "of" whole, so "Champ de Mars" draws no planet', () => {
    const story = tellSource(request('en', 30, { sceneCount: 1, targetWords: 40 }), {
      kind: 'script',
      text: 'The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France.',
    });
    expect(story.scenes[0]!.imagePrompt).toContain('Champ de Mars');
    expect(story.scenes[0]!.imagePrompt.split(', ')).not.toContain('Mars');
    const shown = chooseSceneSubjects({
      prompt: story.scenes[0]!.imagePrompt,
      narration: story.scenes[0]!.narration,
      topic: 'The Eiffel Tower',
      language: 'en',
      seed: 0,
    });
    expect(shown.name).toBe('tower');
  });
});
