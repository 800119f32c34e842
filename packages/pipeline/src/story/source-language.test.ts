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

  it("needs translating only when known and not the narration's", () => {
    expect(needsTranslation('de', 'en')).toBe(true);
    expect(needsTranslation('en', 'en')).toBe(false);
    expect(languageDisplayName('de')).toBe('German');
    expect(languageDisplayName('nl')).toBe('Dutch');
  });
});
