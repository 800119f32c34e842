import { describe, expect, it } from 'vitest';
import { commonsFileOf, markPictureUsed } from './research.js';

const picture = (sourceUrl: string, kind: 'image' | 'text' = 'image') => ({ kind, title: 't', license: 'CC0', sourceUrl });

describe('the Commons file a picture credit names', () => {
  it('reads the file page from the credit, spaces for underscores, decoded', () => {
    expect(commonsFileOf(picture('https://commons.wikimedia.org/wiki/File:Common_octopus_on_a_reef.jpg'))).toBe(
      'File:Common octopus on a reef.jpg',
    );
    expect(commonsFileOf(picture('https://commons.wikimedia.org/wiki/File:Caf%C3%A9_de_Flore.jpg'))).toBe('File:Café de Flore.jpg');
  });

  it('names no file for an article credit, an address without a page, or one that does not decode', () => {
    expect(commonsFileOf(picture('https://en.wikipedia.org/wiki/Octopus', 'text'))).toBeNull();
    expect(commonsFileOf(picture('https://example.com/photo.jpg'))).toBeNull();
    expect(commonsFileOf(picture('https://commons.wikimedia.org/wiki/File:%E0%A4%A.jpg'))).toBeNull();
  });

  it("counts a reused scene's picture as used, once", () => {
    const used = new Set<string>();
    markPictureUsed(used, picture('https://commons.wikimedia.org/wiki/File:Octopus_heart_diagram.png'));
    markPictureUsed(used, picture('https://commons.wikimedia.org/wiki/File:Octopus_heart_diagram.png'));
    markPictureUsed(used, picture('https://en.wikipedia.org/wiki/Octopus', 'text'));
    expect([...used]).toEqual(['File:Octopus heart diagram.png']);
  });
});
