import { describe, expect, it } from 'vitest';
import { parseRangeHeader } from './byte-range.js';

describe('parseRangeHeader', () => {
  it('reads a single range, an open end and a suffix', () => {
    expect(parseRangeHeader('bytes=0-99', 1000)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRangeHeader('bytes=900-', 1000)).toEqual({ kind: 'range', start: 900, end: 999 });
    expect(parseRangeHeader('bytes=-100', 1000)).toEqual({ kind: 'range', start: 900, end: 999 });
    expect(parseRangeHeader('bytes=10-5000', 1000)).toEqual({ kind: 'range', start: 10, end: 999 });
  });

  it('ignores what it cannot parse, so the whole file is sent', () => {
    for (const header of [undefined, 'bytes=abc', 'items=0-1', 'bytes=0-1,5-6', 'bytes=-', 'bytes=9-3']) {
      expect(parseRangeHeader(header, 1000), String(header)).toEqual({ kind: 'whole' });
    }
  });

  it('calls a range past the end unsatisfiable', () => {
    expect(parseRangeHeader('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRangeHeader('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
  });
});
