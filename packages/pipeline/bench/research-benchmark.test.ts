import { describe, expect, it } from 'vitest';
import { evaluateResearch, midSentenceCuts, saysFact } from './research-test-bench.js';

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

  it('says all but at most one key fact of every topic at 60 s', () => {
    for (const row of evaluateResearch(60))
      expect(row.facts - row.narration.found, `${row.slug} missed ${row.narration.missed.join('; ')}`).toBeLessThanOrEqual(1);
  });
});
