import { describe, expect, it } from 'vitest';
import { csvRecordErrors, csvRecordToRow, describeInvalidRows, validateBatchRows, BATCH_MESSAGES } from './batches.js';
import { createBatchBodySchema } from './batches.js';

const defaults = { style: 'educational', language: 'en', duration: 30, voice: 'en-US-offline' };

describe('batch rows', () => {
  it('merges each row over the defaults and validates it with the generate schema', () => {
    const result = validateBatchRows(defaults, [{ topic: 'Why cats purr' }, { topic: 'Tea', language: 'hi', duration: 60 }]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rows.map((row) => [row.topic, row.language, row.duration])).toEqual([
      ['Why cats purr', 'en', 30],
      ['Tea', 'hi', 60],
    ]);
  });

  it('names every bad row and each of its fields', () => {
    const result = validateBatchRows(defaults, [{ topic: 'Fine' }, { duration: 45 }, { topic: 'x', resolution: '4:3' }], {
      lines: [2, 3, 4],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.invalidRows.map((row) => [row.index, row.line, row.errors.map((error) => error.field).sort()])).toEqual([
      [1, 3, ['duration', 'topic']],
      [2, 4, ['resolution']],
    ]);
    expect(describeInvalidRows(result.invalidRows)).toMatch(/^Row 2 \(line 3\): .*duration.*Row 3 \(line 4\): resolution/);
  });

  it('reads a CSV record: empty cells left to the defaults, script and url as the source', () => {
    expect(csvRecordToRow({ topic: ' Volcanoes ', duration: '60', language: '', script: '' })).toEqual({
      topic: 'Volcanoes',
      duration: 60,
    });
    expect(csvRecordToRow({ script: 'Cats purr. They do.', voice: 'v' })).toEqual({
      source: { kind: 'script', text: 'Cats purr. They do.' },
      voice: 'v',
    });
    expect(csvRecordToRow({ url: 'https://example.com/a' })).toEqual({ source: { kind: 'url', url: 'https://example.com/a' } });
    expect(csvRecordErrors({ script: 'a', url: 'https://example.com' })).toEqual([
      { field: 'source', message: BATCH_MESSAGES.csvScriptAndUrl },
    ]);
    const both = validateBatchRows(defaults, [csvRecordToRow({ script: 'a', url: 'https://example.com' })], {
      lines: [2],
      errors: [csvRecordErrors({ script: 'a', url: 'https://example.com' })],
    });
    expect(both.ok).toBe(false);
  });

  it('takes 1 to 100 rows', () => {
    expect(createBatchBodySchema.safeParse({ rows: [] }).success).toBe(false);
    expect(createBatchBodySchema.safeParse({ rows: Array.from({ length: 101 }, () => ({ topic: 'a' })) }).success).toBe(false);
    expect(createBatchBodySchema.parse({ rows: [{ topic: 'a' }] }).defaults).toEqual({});
  });
});
