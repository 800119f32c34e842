import { describe, expect, it } from 'vitest';
import { keyNoun } from './prompt-subject.js';

describe('keyNoun', () => {
  it.each([
    ['a red bicycle on a beach at dawn', 'bicycle'],
    ['lightning over a dark sea as a storm breaks, the turning point of bicycles', 'lightning'],
    ['an old village street at golden hour, where the story begins', 'street'],
    ['A lighthouse beam cutting through the night over the sea', 'beam'],
    ['Honeybees dancing on a honeycomb, macro photo', 'honeybees'],
    ['the Eiffel Tower', 'tower'],
  ])('finds the key noun of %s', (prompt, noun) => {
    expect(keyNoun(prompt)).toBe(noun);
  });

  it('has none for a prompt without words', () => {
    expect(keyNoun('  , ...')).toBeNull();
  });
});
