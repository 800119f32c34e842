import { describe, expect, it } from 'vitest';
import { closesAnswer, closingLine, topicLine } from '../src/story/answer-script.js';
import { evaluateResearch, midSentenceCuts, researchTopics, saysFact, tokens } from './research-test-bench.js';

/** The only words of our own a script may say: a closing line's connective (answer-script.ts). */
const CONNECTIVES = new Set(tokens('That is Así Por eso Por isso Assim Voilà Deshalb So'));

/**
 * What `npm run bench:research` prints, held: the held-out topics (bench/research-articles, key
 * facts written before the telling was tuned) told as researched videos.
 */
describe('researched videos answer their topic (bench/research-articles)', () => {
  it('counts a fact by its words in any inflection, and a scene change inside a sentence as a cut', () => {
    expect(saysFact('Blue light is scattered more than red light.', { says: '', words: ['blue', 'scatter', 'red'] })).toBe(true);
    expect(saysFact('Blue light reaches every part of the sky.', { says: '', words: ['every part of the sky'] })).toBe(true);
    expect(saysFact('Every part of it reaches the sky.', { says: '', words: ['every part of the sky'] })).toBe(false);
    expect(saysFact('La lumière est réfractée.', { says: '', words: ['refractee'] })).toBe(true);
    expect(midSentenceCuts(['A whole sentence.', 'A sentence cut', 'in two.'])).toBe(1);
  });

  for (const duration of [30, 60]) {
    {
      it(`tells more key facts than the lead at ${duration} s, and cuts no sentence across scenes`, () => {
        const rows = evaluateResearch(duration);
        expect(rows.length).toBeGreaterThanOrEqual(10);
        expect(new Set(rows.map((row) => row.language)).size).toBeGreaterThanOrEqual(4);
        const mean = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
        expect(mean((row) => row.narration.found)).toBeGreaterThan(mean((row) => row.lead.found) + 1.5);
        for (const row of rows) expect(row.narration.cuts, row.slug).toBe(0);
      });
    }
  }

  it('tells most of every answer at 30 s: 4 key facts of 5 on average, and no topic missing more than one', () => {
    const rows = evaluateResearch(30);
    const mean = rows.reduce((sum, row) => sum + row.narration.found, 0) / rows.length;
    expect(mean).toBeGreaterThanOrEqual(4);
    for (const row of rows)
      expect(row.facts - row.narration.found, `${row.slug} missed ${row.narration.missed.join('; ')}`).toBeLessThanOrEqual(1);
  });

  it("says only the article's and the topic's words, and ends on a line that closes unless it opened with the question", () => {
    for (const topic of researchTopics()) {
      const allowed = new Set([...tokens(topic.text), ...tokens(topic.topic), ...CONNECTIVES]);
      for (const duration of [30, 60]) {
        const row = evaluateResearch(duration).find((entry) => entry.slug === topic.slug)!;
        const narration = row.story.scenes.map((scene) => scene.narration).join(' ');
        expect(
          tokens(narration).filter((word) => !allowed.has(word)),
          `${topic.slug} at ${duration} s`,
        ).toEqual([]);
        const last = row.story.scenes.at(-1)!.narration;
        const closer = closingLine(topic.topic, topic.language);
        const lastSentence = last.split(/(?<=[.!?])\s+/u).at(-1)!;
        // A video that asks the question first ("Por que as folhas mudam de cor no outono?") may
        // spend the closing line's words on the answer's last fact.
        const asksFirst = row.story.scenes[0]!.narration.startsWith(topicLine(topic.topic, topic.language));
        expect(
          asksFirst || (closer !== '' && last.endsWith(closer)) || closesAnswer(lastSentence, topic.topic, topic.title, topic.language),
          `${topic.slug} at ${duration} s ends: ${lastSentence}`,
        ).toBe(true);
      }
    }
  });

  it('says all but at most one key fact of every topic at 60 s', () => {
    for (const row of evaluateResearch(60))
      expect(row.facts - row.narration.found, `${row.slug} missed ${row.narration.missed.join('; ')}`).toBeLessThanOrEqual(1);
  });
});
