import { describe, expect, it } from 'vitest';
import { detectSourceLanguage, languageDisplayName, needsTranslation } from './source-language.js';

describe('the language of a source', () => {
  it('is told from a few sentences, offline', () => {
    expect(detectSourceLanguage('Das Fahrrad wurde im neunzehnten Jahrhundert erfunden und veränderte, wie sich Menschen bewegten.')).toBe(
      'de',
    );
    expect(detectSourceLanguage('Bom dia! Hoje vamos falar de café e da sua longa viagem até a xícara.')).toBe('pt');
    expect(detectSourceLanguage('桜は日本を代表する花として知られています。')).toBe('ja');
  });

  it('is unknown rather than guessed for a line too short to tell, so a short script is never refused for it', () => {
    expect(detectSourceLanguage('Honeybees dance to share news.')).toBeNull();
    expect(detectSourceLanguage('Hi!')).toBeNull();
    expect(needsTranslation(null, 'en')).toBe(false);
  });

  it('ignores zero-width and formatting characters, which split words into what looks like another language', () => {
    const english = 'The lighthouse keeper trimmed the lamp every evening before the ships came home from the sea.';
    const spaced = english.split(' ').join('\u200b \u200b').replace(/e/g, 'e\u200c').replace(/o/g, 'o\u2060');
    expect(detectSourceLanguage(spaced)).toBe('en');
    expect(needsTranslation(detectSourceLanguage(spaced), 'en')).toBe(false);
  });

  it('judges mixed-script text by its main script, and never refuses on a near tie', () => {
    const quoting =
      'The lighthouse keeper trimmed the lamp every evening. यह एक छोटा वाक्य है। The ships came home safe because of the light.';
    expect(detectSourceLanguage(quoting)).toBe('en');
    const greetings = 'In Hindi, नमस्ते means hello and धन्यवाद means thank you; both are common greetings in India today.';
    expect(needsTranslation(detectSourceLanguage(greetings), 'en')).toBe(false);
    const hindi = 'भारत में चाय बहुत लोकप्रिय पेय है और लोग इसे सुबह और शाम दोनों समय पीते हैं।';
    expect(detectSourceLanguage(hindi)).toBe('hi');
  });

  it("needs translating only when known and not the narration's", () => {
    expect(needsTranslation('de', 'en')).toBe(true);
    expect(needsTranslation('en', 'en')).toBe(false);
    expect(languageDisplayName('de')).toBe('German');
    expect(languageDisplayName('nl')).toBe('Dutch');
  });
});
