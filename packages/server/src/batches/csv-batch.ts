import {
  BATCH_CSV_COLUMNS,
  BATCH_MAX_ROWS,
  BATCH_MESSAGES,
  BATCH_NAME_MAX_LENGTH,
  csvRecordErrors,
  csvRecordToRow,
  type BatchCsvColumn,
} from '@reelsmith/contracts';
import { CsvError, parse } from 'csv-parse';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

/** A batch as received, JSON or CSV: rows still to be merged over the defaults and validated. */
export interface BatchInput {
  name: string | null;
  defaults: Record<string, unknown>;
  rows: Array<Record<string, unknown>>;
  /** For a CSV: each row's line in the file, and what its record said wrong beyond single options. */
  csv?: { lines: number[]; errors: Array<Array<{ field: string; message: string }>> };
}

const KNOWN_COLUMNS = new Set<string>(BATCH_CSV_COLUMNS);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The most cells a CSV record may have. The header names at most the known columns (a few more
 * leave room for a typo to be named in the refusal); csv-parse spends about 25 µs on each cell of
 * a wide record, so a 300,000-column header must be refused before it is parsed.
 */
export const BATCH_CSV_MAX_CELLS = BATCH_CSV_COLUMNS.length + 16;

/** Bytes handed to the parser at a time; the event loop takes its turn between them. */
const PARSE_CHUNK_BYTES = 32 * 1024;

export const CSV_TOO_WIDE_MESSAGE = BATCH_MESSAGES.csvUnreadable(
  `a row has more than ${BATCH_CSV_MAX_CELLS} cells; the columns are ${BATCH_CSV_COLUMNS.join(', ')}.`,
);

/**
 * One pass over the text without parsing it: the records it holds (blank lines are not records) and
 * whether one has more cells than BATCH_CSV_MAX_CELLS, quotes honoured. Linear and allocation-free
 * (a 2.5 MB file takes a few milliseconds), so it runs before the plan and the parse.
 */
export function scanCsv(text: string): { records: number; tooWide: boolean } {
  let records = 0;
  let cells = 1;
  let inQuotes = false;
  let blank = true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inQuotes) {
      if (code === 0x22) {
        if (text.charCodeAt(index + 1) === 0x22) index++;
        else inQuotes = false;
      }
      continue;
    }
    if (code === 0x0a || code === 0x0d) {
      if (!blank) records++;
      blank = true;
      cells = 1;
      continue;
    }
    if (code === 0xfeff && index === 0) continue;
    blank = false;
    if (code === 0x22) inQuotes = true;
    else if (code === 0x2c && ++cells > BATCH_CSV_MAX_CELLS) return { records, tooWide: true };
  }
  if (!blank) records++;
  return { records, tooWide: false };
}

/** The text of a CSV's bytes, or a 400 when they are not UTF-8. */
export function csvText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest(BATCH_MESSAGES.csvUnreadable('it is not UTF-8 text.'), 'file');
  }
}

type ParsedRecord = { record: Partial<Record<BatchCsvColumn, string>>; info: { lines: number; raw?: string } };

/**
 * Reads a CSV batch's text: a header row naming the columns, then one row per video; UTF-8 with or
 * without a byte-order mark, quoted cells may hold commas and line breaks (a script). Blank lines
 * are skipped. The line of each record is where it starts in the file (the header is line 1).
 *
 * A record wider than BATCH_CSV_MAX_CELLS is refused before anything is parsed, and the parser is
 * fed a slice at a time with the event loop's turn between slices, so no upload holds the loop
 * (a whole 2.5 MB file in one call held it for about 300 ms on a loaded core).
 */
export async function parseBatchCsv(bytes: Uint8Array): Promise<Pick<BatchInput, 'rows' | 'csv'>> {
  const text = csvText(bytes);
  if (scanCsv(text).tooWide) throw badRequest(CSV_TOO_WIDE_MESSAGE, 'file');
  let unknown: string[] = [];
  const parsed: ParsedRecord[] = [];
  const parser = parse({
    bom: true,
    columns: (header: string[]) => {
      const names = header.map((name) => name.trim());
      unknown = names.filter((name) => !KNOWN_COLUMNS.has(name));
      return names;
    },
    skip_empty_lines: true,
    info: true,
    raw: true,
    // One more record than a batch may hold is enough to refuse it; a huge file is not read to the end.
    to: BATCH_MAX_ROWS + 1,
  });
  let failure: unknown = null;
  let ended = false;
  parser.on('readable', () => {
    let record: ParsedRecord | null;
    while ((record = parser.read() as ParsedRecord | null) !== null) parsed.push(record);
  });
  const finished = new Promise<void>((resolve) => {
    parser.on('error', (error) => {
      failure ??= error;
      resolve();
    });
    parser.on('end', () => {
      ended = true;
      resolve();
    });
  });
  for (let at = 0; at < bytes.length && failure === null && !ended && parsed.length <= BATCH_MAX_ROWS; at += PARSE_CHUNK_BYTES) {
    parser.write(Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(PARSE_CHUNK_BYTES, bytes.length - at)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (failure === null && !ended) parser.end();
  await finished;
  if (failure !== null) {
    if (failure instanceof CsvError) throw badRequest(BATCH_MESSAGES.csvUnreadable(failure.message), 'file');
    throw failure as Error;
  }
  const records = parsed.slice(0, BATCH_MAX_ROWS + 1);
  if (unknown.length > 0) throw badRequest(BATCH_MESSAGES.csvUnknownColumns(unknown), 'file');
  if (records.length === 0) throw badRequest(BATCH_MESSAGES.csvEmpty, 'file');
  return {
    rows: records.map(({ record }) => csvRecordToRow(record)),
    csv: {
      // info.lines is the record's last line: a cell spanning lines moves its start up by the breaks in it
      // (raw may also carry the blank lines skipped before it, hence the trim).
      lines: records.map(({ info }) => info.lines - ((info.raw ?? '').trim().match(/\r\n|\r|\n/g)?.length ?? 0)),
      errors: records.map(({ record }) => csvRecordErrors(record)),
    },
  };
}

/**
 * The multipart form: the CSV as `file`, and optionally `name` and `defaults` (a JSON object of
 * generate options). `beforeParse` hears the rows the file holds (counted, not parsed) once its size
 * and width are known to be within bounds, so the plan refuses a batch before any parsing.
 */
export async function readCsvBatch(request: FastifyRequest, beforeParse?: (rows: number) => Promise<void>): Promise<BatchInput> {
  let csv: Buffer | null = null;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') csv = bytes;
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  if (!csv) throw badRequest(BATCH_MESSAGES.csvRequired, 'file');
  let defaults: Record<string, unknown> = {};
  if (fields.defaults?.trim()) {
    try {
      const value: unknown = JSON.parse(fields.defaults);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      defaults = value as Record<string, unknown>;
    } catch {
      throw badRequest(BATCH_MESSAGES.defaultsInvalid, 'defaults');
    }
  }
  const name = fields.name?.trim() || null;
  if (name && name.length > BATCH_NAME_MAX_LENGTH) throw badRequest(`The name must be at most ${BATCH_NAME_MAX_LENGTH} characters`, 'name');
  const scan = scanCsv(csvText(csv));
  if (scan.tooWide) throw badRequest(CSV_TOO_WIDE_MESSAGE, 'file');
  await beforeParse?.(Math.min(Math.max(scan.records - 1, 0), BATCH_MAX_ROWS + 1));
  return { name, defaults, ...(await parseBatchCsv(csv)) };
}
