import { BATCH_MAX_ROWS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { BATCH_CSV_MAX_CELLS, CSV_TOO_WIDE_MESSAGE, parseBatchCsv, scanCsv } from './csv-batch.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseBatchCsv', () => {
  it('reads UTF-8 with a BOM and CRLF, quoted cells with commas and line breaks, and skips blank lines', async () => {
    const csv = '\uFEFFtopic,script,language,duration\r\n"Cats, purring",,en,30\r\n\r\n,"Line one.\nLine two.",hi,60\r\nशहद,,hi,\r\n';
    const { rows, csv: meta } = await parseBatchCsv(bytes(csv));
    expect(rows).toEqual([
      { topic: 'Cats, purring', language: 'en', duration: 30 },
      { source: { kind: 'script', text: 'Line one.\nLine two.' }, language: 'hi', duration: 60 },
      { topic: 'शहद', language: 'hi' },
    ]);
    // Where each record starts in the file (the header is line 1, line 3 is blank).
    expect(meta?.lines).toEqual([2, 4, 6]);
  });

  it('reads the same file without a BOM', async () => {
    expect((await parseBatchCsv(bytes('topic\nTea\n'))).rows).toEqual([{ topic: 'Tea' }]);
  });

  it('marks a row with both a script and a url', async () => {
    const { csv } = await parseBatchCsv(bytes('topic,script,url\nx,Some words.,https://example.com/a\n'));
    expect(csv?.errors[0]).toEqual([expect.objectContaining({ field: 'source' })]);
  });

  const refusal = async (text: string | Uint8Array) => {
    try {
      await parseBatchCsv(typeof text === 'string' ? bytes(text) : text);
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      return (error as HttpError).message;
    }
    throw new Error('not refused');
  };

  it('refuses unknown columns, a header without rows, broken quoting and text that is not UTF-8', async () => {
    expect(await refusal('topic,lenght\nTea,30\n')).toMatch(/unknown column lenght; the columns are topic, script, url/);
    expect(await refusal('topic,language\n')).toMatch(/no rows/);
    expect(await refusal('topic,language\n"Tea,en\n')).toMatch(/could not be read/);
    expect(await refusal(new Uint8Array([0x74, 0x6f, 0x70, 0x69, 0x63, 0x0a, 0xff, 0xfe, 0x0a]))).toMatch(/not UTF-8/);
  });

  it('refuses a record wider than the columns allow before parsing it, and counts records without parsing', async () => {
    const wide = `${Array.from({ length: 300_000 }, (_, index) => `c${index}`).join(',')}\ntopic\n`;
    const started = performance.now();
    expect(scanCsv(wide)).toEqual({ records: 0, tooWide: true });
    expect(await refusal(wide)).toBe(CSV_TOO_WIDE_MESSAGE);
    // csv-parse took about 4 s on this header; the scan stops at the cap.
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(await refusal(`topic\nTea\n${'x,'.repeat(BATCH_CSV_MAX_CELLS)}\n`)).toBe(CSV_TOO_WIDE_MESSAGE);
    // Quoted commas and line breaks are one cell; blank lines are no record.
    expect(scanCsv(`topic,script\r\n\r\nTea,"${','.repeat(100)}\nmore"\n\nCoffee,\n`)).toEqual({ records: 3, tooWide: false });
  });

  it('parses a 2 MB file a slice at a time: the event loop keeps its turns', async () => {
    const big = `topic,script\n${Array.from({ length: 100 }, (_, index) => `T${index},"${'Some words. '.repeat(1_700)}"`).join('\n')}\n`;
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    const { rows } = await parseBatchCsv(bytes(big));
    clearInterval(ticker);
    expect(rows).toHaveLength(100);
    expect(turns).toBeGreaterThan(10);
  });

  it('stops reading one record past the most a batch may hold', async () => {
    const many = `topic\n${Array.from({ length: 500 }, (_, index) => `Topic ${index}`).join('\n')}\n`;
    expect((await parseBatchCsv(bytes(many))).rows).toHaveLength(BATCH_MAX_ROWS + 1);
  });
});
