import { brandKitSchema, DEFAULT_BRAND_KIT } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { parseStoredJson } from './stored-json.js';

describe('parseStoredJson', () => {
  it('reads JSON in the shape back through its schema', () => {
    expect(parseStoredJson(brandKitSchema, JSON.stringify(DEFAULT_BRAND_KIT))).toEqual(DEFAULT_BRAND_KIT);
  });

  it('reads text that is not JSON, or no longer in the shape, as undefined', () => {
    expect(parseStoredJson(brandKitSchema, '{not json')).toBeUndefined();
    expect(parseStoredJson(brandKitSchema, '"a string"')).toBeUndefined();
  });
});
