/** What a request's Range header asks of a resource of `size` bytes. */
export type RangeRequest = { kind: 'whole' } | { kind: 'unsatisfiable' } | { kind: 'range'; start: number; end: number };

/**
 * RFC 9110 single byte range. Anything unparseable (`bytes=abc`, another unit) or a multi-range is
 * ignored, so the whole file is sent with 200 as the RFC asks; only a well-formed range that starts
 * past the end is unsatisfiable (416).
 */
export function parseRangeHeader(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}

/** The header value a 416 carries: `bytes *\/size`. */
export const unsatisfiedContentRange = (size: number): string => `bytes */${size}`;
export const contentRange = (start: number, end: number, size: number): string => `bytes ${start}-${end}/${size}`;

export const RANGE_NOT_SATISFIABLE_MESSAGE = 'The requested byte range starts past the end of the file';
