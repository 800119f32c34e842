import { BATCH_MAX_ROWS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { parseBatchCsv } from './csv-batch.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseBatchCsv', () => {
  it('reads UTF-8 with a BOM and CRLF, quoted cells with commas and line breaks, and skips blank lines', () => {
    const csv = '\uFEFFtopic,script,language,duration\r\n"Cats, purring",,en,30\r\n\r\n,"Line one.\nLine two.",hi,60\r\nशहद,,hi,\r\n';
    const { rows, csv: meta } = parseBatchCsv(bytes(csv));
    expect(rows).toEqual([
      { topic: 'Cats, purring', language: 'en', duration: 30 },
      { source: { kind: 'script', text: 'Line one.\nLine two.' }, language: 'hi', duration: 60 },
      { topic: 'शहद', language: 'hi' },
    ]);
    // Where each record starts in the file (the header is line 1, line 3 is blank).
    expect(meta?.lines).toEqual([2, 4, 6]);
  });

  it('reads the same file without a BOM', () => {
    expect(parseBatchCsv(bytes('topic\nTea\n')).rows).toEqual([{ topic: 'Tea' }]);
  });

  it('marks a row with both a script and a url', () => {
    const { csv } = parseBatchCsv(bytes('topic,script,url\nx,Some words.,https://example.com/a\n'));
    expect(csv?.errors[0]).toEqual([expect.objectContaining({ field: 'source' })]);
  });

  const refusal = (text: string | Uint8Array) => {
    try {
      parseBatchCsv(typeof text === 'string' ? bytes(text) : text);
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      return (error as HttpError).message;
    }
    throw new Error('not refused');
  };

  it('refuses unknown columns, a header without rows, broken quoting and text that is not UTF-8', () => {
    expect(refusal('topic,lenght\nTea,30\n')).toMatch(/unknown column lenght; the columns are topic, script, url/);
    expect(refusal('topic,language\n')).toMatch(/no rows/);
    expect(refusal('topic,language\n"Tea,en\n')).toMatch(/could not be read/);
    expect(refusal(new Uint8Array([0x74, 0x6f, 0x70, 0x69, 0x63, 0x0a, 0xff, 0xfe, 0x0a]))).toMatch(/not UTF-8/);
  });

  it('stops reading one record past the most a batch may hold', () => {
    const many = `topic\n${Array.from({ length: 500 }, (_, index) => `Topic ${index}`).join('\n')}\n`;
    expect(parseBatchCsv(bytes(many)).rows).toHaveLength(BATCH_MAX_ROWS + 1);
  });
});
