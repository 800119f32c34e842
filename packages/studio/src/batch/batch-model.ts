import {
  BATCH_CSV_COLUMNS,
  BATCH_CSV_MAX_BYTES,
  BATCH_MAX_ROWS,
  BATCH_MESSAGES,
  csvRecordErrors,
  csvRecordToRow,
  generateVideoBodySchema,
  validateBatchRows,
  type BatchCsvColumn,
  type BatchRowError,
  type GenerationForm,
  type GenerationParams,
  type VoiceProviderId,
} from '@reelsmith/contracts';
import type { GenerationFormValues } from '../shared/generation/generation-form-model.js';

/** One row of the list as the creator gave it, before it is queued. */
export interface DraftRow {
  /** Options of this row alone (topic, source, and a CSV's language, duration, …), over the shared ones. */
  options: Record<string, unknown>;
  /** The CSV line the row came from (the header is line 1); none for a pasted list. */
  line?: number;
  /** What the CSV itself says is wrong with the row (a script and a url at once). */
  csvErrors?: { field: string; message: string }[];
}

export interface DraftList {
  rows: DraftRow[];
  /** A problem with the list as a whole (an unknown column, no rows, too many): nothing can be queued. */
  problem?: string;
  /** Where the rows came from, as the page says it. */
  from: 'paste' | 'csv';
  fileName?: string;
}

/** A pasted list: one topic a line; blank lines are skipped, so a list copied from a document just works. */
export function rowsFromText(text: string): DraftList {
  const rows = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((topic) => ({ options: { topic } }));
  return { rows, from: 'paste', ...(rows.length > BATCH_MAX_ROWS ? { problem: BATCH_MESSAGES.tooManyRows } : {}) };
}

/**
 * A CSV file as rows, read with the parser the server uses (csv-parse; loaded only when a file is
 * dropped). The header names the columns; unknown ones are refused with the server's message.
 */
export async function rowsFromCsv(file: File): Promise<DraftList> {
  const base = { rows: [], from: 'csv' as const, fileName: file.name };
  if (file.size > BATCH_CSV_MAX_BYTES) return { ...base, problem: BATCH_MESSAGES.csvTooLarge };
  const { parse } = await import('csv-parse/browser/esm/sync');
  let records: Record<string, string>[];
  try {
    records = parse(await file.text(), { bom: true, columns: true, skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (error) {
    return { ...base, problem: BATCH_MESSAGES.csvUnreadable(error instanceof Error ? error.message : String(error)) };
  }
  const header = Object.keys(records[0] ?? {});
  const unknown = header.filter((column) => !(BATCH_CSV_COLUMNS as readonly string[]).includes(column));
  if (unknown.length > 0) return { ...base, problem: BATCH_MESSAGES.csvUnknownColumns(unknown) };
  if (records.length === 0) return { ...base, problem: BATCH_MESSAGES.csvEmpty };
  const rows = records.map((record, index) => {
    const typed = record as Partial<Record<BatchCsvColumn, string>>;
    const csvErrors = csvRecordErrors(typed);
    // skip_empty_lines keeps records in file order; a record's line is its place after the header.
    return { options: csvRecordToRow(typed), line: index + 2, ...(csvErrors.length ? { csvErrors } : {}) };
  });
  return { ...base, rows, ...(rows.length > BATCH_MAX_ROWS ? { problem: BATCH_MESSAGES.tooManyRows } : {}) };
}

/**
 * The shared options as the batch's `defaults`: every generate option the form holds but the topic
 * and the source, in the request's own words (a custom style goes as customStyle, so the generate
 * schema names that field when its text is missing).
 */
export function batchDefaults(values: GenerationFormValues, voiceProvider?: VoiceProviderId): Record<string, unknown> {
  const asFiles = values.enableCaptions && values.captions === 'file';
  return {
    style: values.style,
    ...(values.style === 'custom' ? { customStyle: values.customStyle } : {}),
    language: values.language,
    duration: values.duration,
    voice: values.voice,
    ...(voiceProvider ? { voiceProvider } : {}),
    visualStyle: values.visualStyle,
    resolution: values.resolution,
    customPrompt: values.customPrompt,
    enableZoom: values.enableZoom,
    zoomDirection: values.zoomDirection,
    // Captions as files: the videos are rendered without them (as the studio form sends it).
    enableCaptions: values.enableCaptions && !asFiles,
    ...(asFiles ? { captions: 'file' } : {}),
    captionStyle: values.captionStyle,
    music: values.music,
  };
}

/** Which shared option is wrong, by field, checked as a row with a stand-in topic would be. */
export function defaultsErrors(defaults: Record<string, unknown>): Partial<Record<keyof GenerationForm, string>> {
  const result = generateVideoBodySchema.safeParse({ ...defaults, topic: 'A topic' });
  const errors: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

export interface CheckedRow extends DraftRow {
  index: number;
  /** This row's own problems (a shared option's problem is shown once, at the option). */
  errors: { field: string; message: string }[];
}

export interface CheckedList {
  rows: CheckedRow[];
  valid: GenerationParams[] | null;
  invalidCount: number;
}

/**
 * Every row merged over the shared options and validated with the contracts' generate schema, as
 * the server does on receipt. A shared option's error is left to the option's field unless the row
 * sets that option itself; the server's own 400 (`serverErrors`) is shown against its rows.
 */
export function checkRows(list: DraftList, defaults: Record<string, unknown>, serverErrors: readonly BatchRowError[] = []): CheckedList {
  const validation = validateBatchRows(
    defaults,
    list.rows.map((row) => row.options),
    list.from === 'csv'
      ? { lines: list.rows.map((row, index) => row.line ?? index + 2), errors: list.rows.map((row) => row.csvErrors ?? []) }
      : undefined,
  );
  const shared = defaultsErrors(defaults);
  const byIndex = new Map<number, { field: string; message: string }[]>();
  if (!validation.ok) for (const row of validation.invalidRows) byIndex.set(row.index, row.errors);
  for (const row of serverErrors) byIndex.set(row.index, [...(byIndex.get(row.index) ?? []), ...row.errors]);
  const rows = list.rows.map((row, index) => {
    const seen = new Set<string>();
    const errors = (byIndex.get(index) ?? []).filter((error) => {
      const top = error.field.split('.')[0]!;
      const key = `${error.field}\u0000${error.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return !(top in shared && !(top in row.options));
    });
    return { ...row, index, errors };
  });
  const invalidCount = rows.filter((row) => row.errors.length > 0).length;
  const sharedOk = Object.keys(shared).length === 0;
  return {
    rows,
    valid: validation.ok && sharedOk && invalidCount === 0 && !list.problem && rows.length > 0 ? validation.rows : null,
    invalidCount,
  };
}

/** What a row is about, in a few words: its topic, its script's start or its link. */
export function rowLabel(options: Record<string, unknown>): string {
  const source = options.source as { kind?: string; text?: string; url?: string } | undefined;
  // A row is one line of the check: a long text (a pasted paragraph, a script) shows its start.
  const short = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
  if (typeof options.topic === 'string' && options.topic.trim()) return short(options.topic.trim());
  if (source?.kind === 'url' && source.url) return short(source.url);
  if (source?.text) return short(source.text);
  return '(no topic)';
}

/** The options a row sets besides its topic, e.g. "language ja · duration 60". */
export function rowOverrides(options: Record<string, unknown>): string {
  return Object.entries(options)
    .filter(([key]) => key !== 'topic' && key !== 'source')
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(' · ');
}

/** Zip entry names: the row's place first, so the files sort as the list did and never collide. */
export function zipEntryName(index: number, total: number, filename: string): string {
  const width = String(total).length;
  return `${String(index + 1).padStart(width, '0')}-${filename.replace(/[\\/:*?"<>|]+/g, '_')}`;
}
