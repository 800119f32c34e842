import { describe, expect, it } from 'vitest';
import { parseWebAppOrigins } from './web-app-origins-parse.js';

describe('parseWebAppOrigins', () => {
  it('reads a comma list of origins and falls back to the API origin', () => {
    expect(
      parseWebAppOrigins('https://reelsmith.app/, https://www.reelsmith.app ,https://reelsmith.app', 'https://api.reelsmith.app'),
    ).toEqual(['https://reelsmith.app', 'https://www.reelsmith.app']);
    expect(parseWebAppOrigins('', 'http://127.0.0.1:8181')).toEqual(['http://127.0.0.1:8181']);
    expect(parseWebAppOrigins(undefined, 'http://127.0.0.1:8181/')).toEqual(['http://127.0.0.1:8181']);
    expect(() => parseWebAppOrigins('not a url', 'http://x')).toThrow();
  });
});
