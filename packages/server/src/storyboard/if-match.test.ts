import { describe, expect, it } from 'vitest';
import { ifMatchAllows } from './if-match.js';

describe('ifMatchAllows', () => {
  it('matches the quoted revision, alone or in a list', () => {
    expect(ifMatchAllows('"abc"', 'abc')).toBe(true);
    expect(ifMatchAllows('"old", "abc"', 'abc')).toBe(true);
    expect(ifMatchAllows(['"old"', '"abc"'], 'abc')).toBe(true);
  });

  it('refuses another revision, an unquoted one and a weak tag', () => {
    expect(ifMatchAllows('"old"', 'abc')).toBe(false);
    expect(ifMatchAllows('abc', 'abc')).toBe(false);
    expect(ifMatchAllows('W/"abc"', 'abc')).toBe(false);
    expect(ifMatchAllows('', 'abc')).toBe(false);
  });

  it('lets * replace any stored version', () => {
    expect(ifMatchAllows(' * ', 'abc')).toBe(true);
  });
});
