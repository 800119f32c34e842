import { z } from './zod.js';
import { jobStatusSchema } from './enums.js';
import { errorResponseSchema } from './errors.js';
import { generateVideoBodySchema, type GenerateVideoBody, type GenerationParams } from './videos.js';
import { attributionSchema, sourceCreditSchema } from './source.js';
import { batchCountsSchema, batchStatusSchema } from './batch-status.js';

/**
 * Batches: many videos from one list (JSON rows or a CSV file). Every row is merged over the batch's
 * defaults and validated with the single video's generate schema, so a batch accepts exactly what
 * POST /api/videos/generate accepts, row by row; each row becomes one ordinary video job.
 */

export const BATCH_MAX_ROWS = 100;
export const BATCH_NAME_MAX_LENGTH = 100;
/** A CSV of 100 rows with a script each stays far below this (a script is at most 20,000 characters). */
export const BATCH_CSV_MAX_BYTES = 2_500_000;

/** The CSV header's columns, as the issue names them; any other column is refused (a typo would be silently ignored otherwise). */
export const BATCH_CSV_COLUMNS = [
  'topic',
  'script',
  'url',
  'language',
  'duration',
  'resolution',
  'style',
  'visualStyle',
  'captionStyle',
  'music',
  'voice',
] as const;
export type BatchCsvColumn = (typeof BATCH_CSV_COLUMNS)[number];

export const BATCH_MESSAGES = {
  rowsRequired: 'A batch needs at least one row.',
  tooManyRows: `A batch has at most ${BATCH_MAX_ROWS} rows.`,
  csvRequired: 'Attach the CSV as the multipart field "file".',
  csvEmpty: 'The CSV has a header row but no rows.',
  csvTooLarge: `The CSV is larger than ${BATCH_CSV_MAX_BYTES / 1_000_000} MB.`,
  csvUnreadable: (detail: string) => `The CSV could not be read: ${detail}`,
  csvUnknownColumns: (columns: string[]) =>
    `The CSV's header names unknown column${columns.length === 1 ? '' : 's'} ${columns.join(', ')}; the columns are ${BATCH_CSV_COLUMNS.join(', ')}.`,
  csvScriptAndUrl: 'Give a script or a url, not both.',
  defaultsInvalid: 'The multipart field "defaults" must be a JSON object of generate options.',
  invalidRows: (count: number, details: string) => `${count} row${count === 1 ? ' is' : 's are'} invalid, nothing was queued. ${details}`,
  beyondPlan: (needed: number, remaining: number) =>
    `This batch needs ${needed} video${needed === 1 ? '' : 's'} but your plan has ${remaining} left this month. Remove ${needed - remaining} row${
      needed - remaining === 1 ? '' : 's'
    } or upgrade your plan.`,
  notCancellable: 'This batch has already finished.',
} as const;

/** An object of generate options; what each one may hold is the generate schema's business (checked per merged row). */
const optionsSchema = z.record(z.string(), z.unknown());

/**
 * POST /api/batches (JSON). `defaults`: any generate option (style, language, duration, voice, …)
 * shared by every row; each row: `topic` and/or `source` plus any option overriding the defaults.
 */
export const createBatchBodySchema = z.object({
  name: z.optional(
    z.string().check(z.trim(), z.maxLength(BATCH_NAME_MAX_LENGTH, `The name must be at most ${BATCH_NAME_MAX_LENGTH} characters`)),
  ),
  defaults: z._default(optionsSchema, {}),
  rows: z
    .array(optionsSchema, { error: BATCH_MESSAGES.rowsRequired })
    .check(z.minLength(1, BATCH_MESSAGES.rowsRequired), z.maxLength(BATCH_MAX_ROWS, BATCH_MESSAGES.tooManyRows)),
});
/** What a caller writes (typed options; the schema itself accepts any object and checks each merged row). */
export interface CreateBatchBody {
  name?: string;
  defaults?: Partial<GenerateVideoBody>;
  rows: Array<Partial<GenerateVideoBody>>;
}

/** One field of one row that the generate schema refused. `field` is a dotted path ("duration", "source.text"). */
export const batchFieldErrorSchema = z.object({ field: z.string(), message: z.string() });
/** `index`: the row's position in `rows` (0-based); `line`: its line in the CSV file (the header is line 1). */
export const batchRowErrorSchema = z.object({
  index: z.number().check(z.int(), z.gte(0)),
  line: z.optional(z.number().check(z.int(), z.gte(2))),
  errors: z.array(batchFieldErrorSchema),
});
export type BatchRowError = z.infer<typeof batchRowErrorSchema>;

/**
 * POST /api/batches's 400: the usual error plus, when rows are invalid, each of them (`invalidRows`),
 * and when the batch is beyond the plan, how many videos it needs and how many the plan has left.
 */
export const batchErrorResponseSchema = z.extend(errorResponseSchema, {
  invalidRows: z.optional(z.array(batchRowErrorSchema)),
  needed: z.optional(z.number().check(z.int(), z.gte(0))),
  remaining: z.optional(z.number().check(z.int(), z.gte(0))),
});
export type BatchErrorResponse = z.infer<typeof batchErrorResponseSchema>;

export type BatchValidation = { ok: true; rows: GenerationParams[] } | { ok: false; invalidRows: BatchRowError[] };

/** A row over the defaults: the row's own options win; a row with a source and no topic does not inherit the defaults' topic. */
export function mergeBatchRow(defaults: Record<string, unknown>, row: Record<string, unknown>): Record<string, unknown> {
  return { ...defaults, ...row };
}

/**
 * Merges every row over the defaults and validates it with the generate schema; the studio runs it
 * before submitting (its validation view), the server again on receipt. `lines`: the CSV line of each row.
 */
export function validateBatchRows(
  defaults: Record<string, unknown>,
  rows: ReadonlyArray<Record<string, unknown>>,
  /** A CSV's line per row and what csvRecordErrors found in each. */
  csv?: { lines: readonly number[]; errors?: ReadonlyArray<ReadonlyArray<z.infer<typeof batchFieldErrorSchema>>> },
): BatchValidation {
  const valid: GenerationParams[] = [];
  const invalidRows: BatchRowError[] = [];
  rows.forEach((row, index) => {
    const parsed = generateVideoBodySchema.safeParse(mergeBatchRow(defaults, row));
    const errors = [
      ...(csv?.errors?.[index] ?? []),
      ...(parsed.success
        ? []
        : parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'row', message: issue.message }))),
    ];
    if (parsed.success && errors.length === 0) {
      valid.push(parsed.data);
      return;
    }
    const line = csv?.lines[index];
    invalidRows.push({ index, ...(line !== undefined ? { line } : {}), errors });
  });
  return invalidRows.length > 0 ? { ok: false, invalidRows } : { ok: true, rows: valid };
}

/** "Row 3 (line 4): duration: …; voice: …" for each invalid row: the 400's message, read by a person. */
export function describeInvalidRows(invalidRows: readonly BatchRowError[]): string {
  return invalidRows
    .map(
      (row) =>
        `Row ${row.index + 1}${row.line !== undefined ? ` (line ${row.line})` : ''}: ${row.errors.map((error) => `${error.field}: ${error.message}`).join('; ')}.`,
    )
    .join(' ');
}

/**
 * One CSV record (header column → cell) as a batch row: empty cells are left to the defaults,
 * `script` and `url` become the row's source, `duration` a number. Unknown columns are refused
 * before this (BATCH_MESSAGES.csvUnknownColumns).
 */
export function csvRecordToRow(record: Partial<Record<BatchCsvColumn, string>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const column of BATCH_CSV_COLUMNS) {
    const cell = record[column]?.trim();
    if (!cell) continue;
    if (column === 'script') row.source = { kind: 'script', text: cell };
    else if (column === 'url') row.source = { kind: 'url', url: cell };
    else if (column === 'duration') row.duration = /^\d+$/.test(cell) ? Number(cell) : cell;
    else row[column] = cell;
  }
  return row;
}

/** What a record says that no single option can: a row with both a script and a url. */
export function csvRecordErrors(record: Partial<Record<BatchCsvColumn, string>>): Array<z.infer<typeof batchFieldErrorSchema>> {
  return record.script?.trim() && record.url?.trim() ? [{ field: 'source', message: BATCH_MESSAGES.csvScriptAndUrl }] : [];
}

const count = z.number().check(z.int(), z.gte(0));

/** One row of a batch: its job (an ordinary video job, also in My Videos), where it is and why it failed. */
export const batchRowSchema = z.object({
  index: z.number().check(z.int(), z.gte(0)),
  jobId: z.string(),
  topic: z.string(),
  status: jobStatusSchema,
  percent: z.number().check(z.gte(0), z.lte(100)),
  error: z.nullable(z.string()),
});
export type BatchRow = z.infer<typeof batchRowSchema>;

export const batchSummarySchema = z.object({
  id: z.string(),
  name: z.nullable(z.string()),
  status: batchStatusSchema,
  counts: batchCountsSchema,
  /** Mean of the rows' percent. */
  percent: z.number().check(z.gte(0), z.lte(100)),
  createdAt: z.string(),
  /** When the last row finished (or the batch was cancelled). */
  completedAt: z.nullable(z.string()),
});
export type BatchSummary = z.infer<typeof batchSummarySchema>;

export const batchDetailSchema = z.extend(batchSummarySchema, { rows: z.array(batchRowSchema) });
export type BatchDetail = z.infer<typeof batchDetailSchema>;

export const BATCH_LIST_DEFAULT_LIMIT = 20;
export const BATCH_LIST_MAX_LIMIT = 100;
export const listBatchesQuerySchema = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(BATCH_LIST_MAX_LIMIT)), BATCH_LIST_DEFAULT_LIMIT),
});
export const listBatchesResponseSchema = z.object({ batches: z.array(batchSummarySchema) });
export type ListBatchesResponse = z.infer<typeof listBatchesResponseSchema>;

export const batchIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

/** POST /api/batches answers 202 with the batch as queued: one job per row, in row order. */
export const createBatchResponseSchema = batchDetailSchema;
export type CreateBatchResponse = BatchDetail;

/** POST /api/batches/:id/cancel: how many of its jobs were stopped (queued or running), and the batch after. */
export const cancelBatchResponseSchema = z.object({ cancelled: count, batch: batchDetailSchema });
export type CancelBatchResponse = z.infer<typeof cancelBatchResponseSchema>;

/**
 * Socket events on the creator's own room (every signed-in socket is in it; no subscribe needed):
 * `batch_progress` whenever one of a batch's jobs moves (the row that moved and the batch's figures),
 * `batch_completed` once every row has finished or the batch was cancelled.
 */
export const BATCH_SOCKET_EVENTS = { batchProgress: 'batch_progress', batchCompleted: 'batch_completed' } as const;

export const batchProgressEventSchema = z.object({
  batchId: z.string(),
  status: batchStatusSchema,
  counts: batchCountsSchema,
  percent: z.number().check(z.gte(0), z.lte(100)),
  row: batchRowSchema,
});
export type BatchProgressEvent = z.infer<typeof batchProgressEventSchema>;

export const batchCompletedEventSchema = z.object({
  batchId: z.string(),
  name: z.nullable(z.string()),
  status: z.enum(['completed', 'cancelled']),
  counts: batchCountsSchema,
});
export type BatchCompletedEvent = z.infer<typeof batchCompletedEventSchema>;

/** One finished row in the `batch.completed` webhook: its video (absolute URLs) or its error. */
export const batchWebhookRowSchema = z.object({
  index: z.number().check(z.int(), z.gte(0)),
  jobId: z.string(),
  status: jobStatusSchema,
  videoUrl: z.optional(z.string()),
  posterUrl: z.optional(z.string()),
  title: z.optional(z.string()),
  error: z.optional(z.string()),
  source: z.optional(sourceCreditSchema),
  attributions: z.optional(z.array(attributionSchema)),
});

/** The body POSTed to a webhook subscribed to `batch.completed` (signed like the video events). */
export const batchWebhookEventSchema = z.object({
  id: z.string(),
  type: z.literal('batch.completed'),
  createdAt: z.string(),
  data: z.object({
    batchId: z.string(),
    name: z.nullable(z.string()),
    status: z.enum(['completed', 'cancelled']),
    counts: batchCountsSchema,
    rows: z.array(batchWebhookRowSchema),
  }),
});
export type BatchWebhookEvent = z.infer<typeof batchWebhookEventSchema>;
