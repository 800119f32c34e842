import {
  BATCH_CSV_COLUMNS,
  BATCH_MAX_ROWS,
  BATCH_MESSAGES,
  BATCH_NAME_MAX_LENGTH,
  csvRecordErrors,
  csvRecordToRow,
  type BatchCsvColumn,
} from '@reelsmith/contracts';
import { CsvError, parse } from 'csv-parse/sync';
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
 * Reads a CSV batch's text: a header row naming the columns, then one row per video; UTF-8 with or
 * without a byte-order mark, quoted cells may hold commas and line breaks (a script). Blank lines
 * are skipped. The line of each record is where it starts in the file (the header is line 1).
 */
export function parseBatchCsv(bytes: Uint8Array): Pick<BatchInput, 'rows' | 'csv'> {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw badRequest(BATCH_MESSAGES.csvUnreadable('it is not UTF-8 text.'), 'file');
  }
  let unknown: string[] = [];
  let parsed: Array<{ record: Partial<Record<BatchCsvColumn, string>>; info: { lines: number; raw?: string } }>;
  try {
    parsed = parse(text, {
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
  } catch (error) {
    if (error instanceof CsvError) throw badRequest(BATCH_MESSAGES.csvUnreadable(error.message), 'file');
    throw error;
  }
  if (unknown.length > 0) throw badRequest(BATCH_MESSAGES.csvUnknownColumns(unknown), 'file');
  if (parsed.length === 0) throw badRequest(BATCH_MESSAGES.csvEmpty, 'file');
  return {
    rows: parsed.map(({ record }) => csvRecordToRow(record)),
    csv: {
      // info.lines is the record's last line: a cell spanning lines moves its start up by the breaks in it
      // (raw may also carry the blank lines skipped before it, hence the trim).
      lines: parsed.map(({ info }) => info.lines - ((info.raw ?? '').trim().match(/\r\n|\r|\n/g)?.length ?? 0)),
      errors: parsed.map(({ record }) => csvRecordErrors(record)),
    },
  };
}

/** The multipart form: the CSV as `file`, and optionally `name` and `defaults` (a JSON object of generate options). */
export async function readCsvBatch(request: FastifyRequest): Promise<BatchInput> {
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
  return { name, defaults, ...parseBatchCsv(csv) };
}
