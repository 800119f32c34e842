import { describe, expect, it } from 'vitest';
import { ARTWORK_SIZE, artworkImage, artworkNames, artworkSvg } from './offline-image-artwork.js';

describe('Fluent Emoji artwork', () => {
  it('knows every drawing of the set without parsing it whole', () => {
    const names = artworkNames();
    expect(names.size).toBeGreaterThan(3000);
    expect(names.has('bicycle')).toBe(true);
    expect(names.has('honeybee')).toBe(true);
  });

  it('reads one drawing as a standalone SVG', () => {
    const svg = artworkSvg('bicycle', 100);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="100" height="100" viewBox="0 0 32 32">/);
    expect(svg).toContain('<path');
    expect(() => artworkSvg('no-such-thing')).toThrow('Fluent Emoji has no drawing named no-such-thing');
  });

  it('rasterises a subject once and finds where its drawing sits in the square', async () => {
    const first = artworkImage('bicycle');
    expect(artworkImage('bicycle')).toBe(first);
    const { image, bounds } = await first;
    expect([image.width, image.height]).toEqual([ARTWORK_SIZE, ARTWORK_SIZE]);
    // A bicycle is wide and low: it spans most of the width and sits in the lower part.
    expect(bounds.right - bounds.left).toBeGreaterThan(0.8);
    expect(bounds.top).toBeGreaterThan(0.2);
    expect(bounds.bottom).toBeLessThanOrEqual(1);
  });
});
