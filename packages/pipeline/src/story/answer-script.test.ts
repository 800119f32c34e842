import { describe, expect, it } from 'vitest';
import { closesAnswer, closingLine, definitionMainClause, topicLine } from './answer-script.js';

describe('the lines of a researched script', () => {
  it.each([
    ['How do bats find food in the dark', 'en', 'How do bats find food in the dark?'],
    ['why the sky is blue', 'en', 'Why the sky is blue.'],
    ['How honeybees talk by dancing', 'en', 'How honeybees talk by dancing.'],
    ['Why octopuses have three hearts', 'en', 'Why octopuses have three hearts.'],
    ['How far is the Moon', 'en', 'How far is the Moon?'],
    ['Cómo se forman los volcanes', 'es', '¿Cómo se forman los volcanes?'],
    ['Pourquoi la tour de Pise penche', 'fr', 'Pourquoi la tour de Pise penche ?'],
    ['Warum ziehen Vögel nach Süden?', 'de', 'Warum ziehen Vögel nach Süden?'],
    // An indirect question (its verb last) and a subject are said as titles.
    ['Warum Zugvögel im Herbst nach Süden fliegen', 'de', 'Warum Zugvögel im Herbst nach Süden fliegen.'],
    ["L'histoire de la tour Eiffel", 'fr', "L'histoire de la tour Eiffel."],
  ])('says the topic "%s" (%s) as its first line: %s', (topic, language, line) => {
    expect(topicLine(topic, language)).toBe(line);
  });

  it.each([
    ['Why the sky is blue', 'en', 'That is why the sky is blue.'],
    ['How do bats find food in the dark', 'en', 'That is how bats find food in the dark.'],
    ['What causes the northern lights', 'en', 'That is what causes the northern lights.'],
    // "Why does the tower lean" would need "leans": no closing line of our own.
    ['Why does the tower lean', 'en', ''],
    ['Por qué los flamencos son rosados', 'es', 'Por eso los flamencos son rosados.'],
    ['Cómo se forman los huracanes', 'es', 'Así se forman los huracanes.'],
    ['Comment se forme un arc-en-ciel', 'fr', 'Voilà comment se forme un arc-en-ciel.'],
    ['Warum ziehen Vögel nach Süden', 'de', 'Deshalb ziehen Vögel nach Süden.'],
    ['Warum Zugvögel im Herbst nach Süden fliegen', 'de', 'Deshalb fliegen Zugvögel im Herbst nach Süden.'],
    ['Por que as folhas mudam de cor no outono', 'pt', 'Por isso as folhas mudam de cor no outono.'],
    ["L'histoire de la tour Eiffel", 'fr', ''],
    ['Octopus', 'en', ''],
  ])('closes "%s" (%s) with the topic said as answered: "%s"', (topic, language, line) => {
    expect(closingLine(topic, language)).toBe(line);
  });

  it.each([
    [
      'The Great Wall of China is a series of fortifications that were built across the historical northern borders of ancient Chinese states.',
      'en',
      'The Great Wall of China is a series of fortifications.',
    ],
    [
      "An aurora, also called the polar lights, is a natural light display in Earth's sky, seen mostly in high-latitude regions.",
      'en',
      "An aurora, also called the polar lights, is a natural light display in Earth's sky.",
    ],
    ['Un huracán es un ciclón tropical intenso que se forma sobre las aguas cálidas.', 'es', 'Un huracán es un ciclón tropical intenso.'],
    // The relative pronoun's preposition and article go with it: never "…terrestre por la."
    [
      'Un volcán es una abertura en la corteza terrestre por la que salen magma, cenizas y gases del interior de la Tierra.',
      'es',
      'Un volcán es una abertura en la corteza terrestre.',
    ],
    ['A lighthouse is a tall stone tower from which a light guides ships at sea.', 'en', 'A lighthouse is a tall stone tower.'],
    // No clause to cut at, and a cut that would leave the predicate without its noun.
    ['Rayleigh scattering is the scattering of light by particles much smaller than its wavelength.', 'en', undefined],
    ['It is a tower, in Paris.', 'en', undefined],
  ])('says the definition "%s" by its main clause', (sentence, language, main) => {
    expect(definitionMainClause(sentence, language)).toBe(main);
  });

  it.each([
    [
      'The scattered blue light reaches the eye from every part of the sky, so the whole sky looks blue.',
      'Why the sky is blue',
      'Rayleigh scattering',
      'en',
      true,
    ],
    ['Violet light is scattered even more.', 'Why the sky is blue', 'Rayleigh scattering', 'en', false],
    [
      'Por eso los flamencos que comen más carotenoides son de un rosa más intenso.',
      'Por qué los flamencos son rosados',
      'Flamenco',
      'es',
      true,
    ],
    // "builders" says "built", but not the wall: that restates nothing.
    ['The Ming builders used fired bricks.', 'How the Great Wall of China was built', 'Great Wall of China', 'en', false],
  ])('takes "%s" for a close of "%s" (it concludes or restates the question): %s', (sentence, topic, title, language, closes) => {
    expect(closesAnswer(sentence, topic, title, language)).toBe(closes);
  });
});
