import { describe, expect, it } from 'vitest';
import { headlineCase } from './headline-case.js';

describe('headlineCase', () => {
  it.each([
    ['why octopuses have three hearts', 'Why Octopuses Have Three Hearts'],
    ['How volcanoes create new islands', 'How Volcanoes Create New Islands'],
    ['the rise and fall of the roman empire', 'The Rise and Fall of the Roman Empire'],
    ['what NASA found on mars', 'What NASA Found on Mars'],
    ['iPhone vs android in 2026', 'iPhone vs Android in 2026'],
    ["mcdonald's secret menu", "Mcdonald's Secret Menu"],
    ['life on "planet nine"', 'Life on "Planet Nine"'],
    ['coffee: a love story of', 'Coffee: A Love Story Of'],
    ['octopus facts 🐙', 'Octopus Facts 🐙'],
    ['ऑक्टोपस के तीन दिल', 'ऑक्टोपस के तीन दिल'],
    ['富士山 and me', '富士山 and Me'],
    ['  spaced   out  ', '  Spaced   Out  '],
    // A topic typed in sentence case, put inside a title by its template.
    ['The Mystery of The History of the Lighthouse', 'The Mystery of the History of the Lighthouse'],
    ['Inside A Day at THE Office', 'Inside a Day at THE Office'],
  ])('%s → %s', (topic, title) => {
    expect(headlineCase(topic)).toBe(title);
  });
});
