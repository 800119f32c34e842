import { describe, expect, it } from 'vitest';
import { boundSentence, MAX_SENTENCE_CHARS, splitSentences } from './source-text.js';

describe('sentence bounds', () => {
  it('cuts an overlong run at clause ends, else at spaces, keeping every word', () => {
    const clauses = Array.from({ length: 60 }, (_, index) => `the river bends around hill ${index}`).join(', ');
    const pieces = boundSentence(clauses);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith(',')).toBe(true);
    expect(pieces.join(' ')).toBe(clauses);

    const unpunctuated = Array.from({ length: 30_000 }, (_, index) => `word${index % 50}`).join(' ');
    const words = boundSentence(unpunctuated);
    for (const piece of words) expect(piece.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    expect(words.join(' ')).toBe(unpunctuated);
  });

  it('cuts a run without spaces (emoji) between characters, never inside a surrogate pair', () => {
    const emoji = '😀'.repeat(1_000);
    const pieces = boundSentence(emoji);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
      expect(piece).toMatch(/^(?:😀)+$/u);
    }
    expect(pieces.join('')).toBe(emoji);
  });

  it('splits a 200,000-character source with no sentence end into bounded sentences', () => {
    const text = Array.from({ length: 25_000 }, (_, index) => `word${index % 50}`).join(' ');
    const sentences = splitSentences(text, 'en');
    expect(sentences.length).toBeGreaterThan(text.length / MAX_SENTENCE_CHARS);
    expect(Math.max(...sentences.map((sentence) => sentence.text.length))).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    expect(sentences.every((sentence) => sentence.fragment)).toBe(true);
  });

  it('reads a very long line of short sentences whole and in order', () => {
    const text = Array.from({ length: 7_000 }, (_, index) => `Cats eat fresh fish ${index}.`).join(' ');
    const sentences = splitSentences(text, 'en');
    expect(sentences).toHaveLength(7_000);
    expect(sentences[6_999]).toEqual({ index: 6_999, text: 'Cats eat fresh fish 6999.', fragment: false });
    // A run of initials does not join into one ever-growing sentence.
    const initials = splitSentences('A. '.repeat(5_000), 'en');
    expect(Math.max(...initials.map((sentence) => sentence.text.length))).toBeLessThanOrEqual(MAX_SENTENCE_CHARS + 3);
  });
});
