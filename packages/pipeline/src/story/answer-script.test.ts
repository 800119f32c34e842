import { describe, expect, it } from 'vitest';
import { closesAnswer, closingLine, definitionMainClause, topicLine } from './answer-script.js';

describe('the lines of a researched script', () => {
  it('says the topic as its first line: a question as a question, an indirect one or a subject as a title', () => {
    expect(topicLine('How do bats find food in the dark', 'en')).toBe('How do bats find food in the dark?');
    expect(topicLine('why the sky is blue', 'en')).toBe('Why the sky is blue.');
    expect(topicLine('Cómo se forman los volcanes', 'es')).toBe('¿Cómo se forman los volcanes?');
    expect(topicLine('Pourquoi la tour de Pise penche', 'fr')).toBe('Pourquoi la tour de Pise penche ?');
    expect(topicLine('Warum ziehen Vögel nach Süden?', 'de')).toBe('Warum ziehen Vögel nach Süden?');
    expect(topicLine('Warum Zugvögel im Herbst nach Süden fliegen', 'de')).toBe('Warum Zugvögel im Herbst nach Süden fliegen.');
    expect(topicLine("L'histoire de la tour Eiffel", 'fr')).toBe("L'histoire de la tour Eiffel.");
  });

  it('closes with the topic said as answered, keeping its verb as the topic has it', () => {
    expect(closingLine('Why the sky is blue', 'en')).toBe('That is why the sky is blue.');
    expect(closingLine('How do bats find food in the dark', 'en')).toBe('That is how bats find food in the dark.');
    expect(closingLine('What causes the northern lights', 'en')).toBe('That is what causes the northern lights.');
    // "Why does the tower lean" would need "leans": no closing line of our own.
    expect(closingLine('Why does the tower lean', 'en')).toBe('');
    expect(closingLine('Por qué los flamencos son rosados', 'es')).toBe('Por eso los flamencos son rosados.');
    expect(closingLine('Cómo se forman los huracanes', 'es')).toBe('Así se forman los huracanes.');
    expect(closingLine('Comment se forme un arc-en-ciel', 'fr')).toBe('Voilà comment se forme un arc-en-ciel.');
    expect(closingLine('Warum ziehen Vögel nach Süden', 'de')).toBe('Deshalb ziehen Vögel nach Süden.');
    expect(closingLine('Warum Zugvögel im Herbst nach Süden fliegen', 'de')).toBe('Deshalb fliegen Zugvögel im Herbst nach Süden.');
    expect(closingLine('Por que as folhas mudam de cor no outono', 'pt')).toBe('Por isso as folhas mudam de cor no outono.');
    expect(closingLine("L'histoire de la tour Eiffel", 'fr')).toBe('');
    expect(closingLine('Octopus', 'en')).toBe('');
  });

  it('says a long definition by its main clause, never cutting its predicate short', () => {
    expect(
      definitionMainClause(
        'The Great Wall of China is a series of fortifications that were built across the historical northern borders of ancient Chinese states.',
        'en',
      ),
    ).toBe('The Great Wall of China is a series of fortifications.');
    expect(
      definitionMainClause(
        "An aurora, also called the polar lights, is a natural light display in Earth's sky, seen mostly in high-latitude regions.",
        'en',
      ),
    ).toBe("An aurora, also called the polar lights, is a natural light display in Earth's sky.");
    expect(definitionMainClause('Un huracán es un ciclón tropical intenso que se forma sobre las aguas cálidas.', 'es')).toBe(
      'Un huracán es un ciclón tropical intenso.',
    );
    expect(
      definitionMainClause('Rayleigh scattering is the scattering of light by particles much smaller than its wavelength.', 'en'),
    ).toBe(undefined);
    expect(definitionMainClause('It is a tower, in Paris.', 'en')).toBe(undefined);
  });

  it('takes a sentence that concludes or restates the question, subject and all, for a close', () => {
    const topic = 'Why the sky is blue';
    expect(
      closesAnswer(
        'The scattered blue light reaches the eye from every part of the sky, so the whole sky looks blue.',
        topic,
        'Rayleigh scattering',
        'en',
      ),
    ).toBe(true);
    expect(closesAnswer('Violet light is scattered even more.', topic, 'Rayleigh scattering', 'en')).toBe(false);
    expect(
      closesAnswer(
        'Por eso los flamencos que comen más carotenoides son de un rosa más intenso.',
        'Por qué los flamencos son rosados',
        'Flamenco',
        'es',
      ),
    ).toBe(true);
    // "builders" says "built", but not the wall: that restates nothing.
    expect(closesAnswer('The Ming builders used fired bricks.', 'How the Great Wall of China was built', 'Great Wall of China', 'en')).toBe(
      false,
    );
  });
});
