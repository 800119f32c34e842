import { describe, expect, it } from 'vitest';
import { headingMatches, readTopic, sameStem, stems } from './topic-focus.js';

describe('reading a topic as a question', () => {
  it.each([
    ['Why the sky is blue', 'Rayleigh scattering', 'en', 'why', ['sky', 'blue']],
    ['What causes the northern lights', 'Aurora', 'en', 'why', ['caus', 'northern', 'light']],
    ['How do bats find food in the dark', 'Bat', 'en', 'how', ['find', 'food', 'dark']],
    ['Cómo se forman los huracanes', 'Huracán', 'es', 'how', ['form']],
    ['Pourquoi la tour de Pise penche', 'Tour de Pise', 'fr', 'why', ['pench']],
    ['Warum Zugvögel im Herbst nach Süden fliegen', 'Vogelzug', 'de', 'why', ['zugvogel', 'herb', 'sud', 'flieg']],
    ["L'histoire de la tour Eiffel", 'Tour Eiffel', 'fr', 'when', ['histoir']],
    ['Tea', 'Tea', 'en', 'subject', []],
  ])('"%s" (%s, %s) asks %s about %j', (topic, title, language, kind, focus) => {
    const read = readTopic(topic, title, language);
    expect(read.kind).toBe(kind);
    expect(read.focus).toEqual(focus);
  });

  it('matches a heading that answers the question, never one that asks another ("Dónde se forman" for "Cómo se forman…")', () => {
    const how = readTopic('Cómo se forman los volcanes', 'Volcán', 'es');
    expect(headingMatches('Formación', how, 'es')).toBe(1);
    expect(headingMatches('Cómo se forman', how, 'es')).toBe(1);
    expect(headingMatches('Dónde se forman', how, 'es')).toBe(0);
    expect(headingMatches('Where volcanoes form', readTopic('How volcanoes form', 'Volcano', 'en'), 'en')).toBe(0);
  });

  it('stems in the article language, without accents, and matches a word with its derivations', () => {
    expect(stems('Los volcanes se forman', 'es')).toEqual(['volcan', 'form']);
    expect(sameStem(stems('formación', 'es')[0]!, stems('forman', 'es')[0]!)).toBe(true);
    expect(sameStem(stems('builders', 'en')[0]!, stems('built', 'en')[0]!)).toBe(true);
    expect(sameStem(stems('bats', 'en')[0]!, stems('bat', 'en')[0]!)).toBe(true);
    expect(sameStem(stems('sky', 'en')[0]!, stems('skin', 'en')[0]!)).toBe(false);
  });
});
