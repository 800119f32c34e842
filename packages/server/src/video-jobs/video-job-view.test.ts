import { describe, expect, it } from 'vitest';
import type { VideoJobRow } from '../db/schema.js';
import { parseParams, toVideoJob } from './video-job-view.js';

const params = { topic: 'Tides', style: 'educational', language: 'en', duration: 30, voice: 'en-male-1' };

function row(overrides: Partial<VideoJobRow> = {}): VideoJobRow {
  return {
    id: 'job-1',
    user_id: 'user-1',
    status: 'processing',
    params: JSON.stringify(params),
    progress: 40,
    current_step: 'voice',
    step_progress: 20,
    steps: '{}',
    result: null,
    error: null,
    created_at: '2026-11-24T00:00:00.000Z',
    updated_at: '2026-11-24T00:00:01.000Z',
    ...overrides,
  } as VideoJobRow;
}

describe('parseParams', () => {
  it("gives every reader its own copy of a job's params", () => {
    const first = parseParams(JSON.stringify(params));
    first.topic = 'Changed by one caller';
    expect(parseParams(JSON.stringify(params)).topic).toBe('Tides');
  });

  it('fills the schema defaults and refuses params that no longer parse', () => {
    expect(parseParams(JSON.stringify(params))).toMatchObject({ resolution: '9:16', enableCaptions: expect.any(Boolean) });
    expect(() => parseParams(JSON.stringify({ ...params, duration: 45 }))).toThrow();
  });
});

describe('toVideoJob', () => {
  it("shows a source's credit, never its text, for short and long sources alike", () => {
    for (const paragraphs of [3, 600]) {
      const text = Array.from(
        { length: paragraphs },
        (_, index) => `Paragraph ${index + 1} of the article says something about tides and the moon.`,
      ).join('\n');
      const source = { kind: 'article', text, title: 'Tides', url: 'https://news.example/tides' };
      const stored = row({ params: JSON.stringify({ ...params, source }) });
      const job = toVideoJob(stored);
      expect(job.params.source).toEqual({ kind: 'article', title: 'Tides', url: 'https://news.example/tides' });
      expect(JSON.stringify(job)).not.toContain('says something about tides');
      // A second read (from the kept view for long params) is the same, and a caller's change stays its own.
      job.params.topic = 'Changed';
      expect(toVideoJob(stored).params).toMatchObject({ topic: 'Tides', source: { kind: 'article', title: 'Tides' } });
      // The worker still reads the whole source.
      expect(parseParams(stored.params).source).toMatchObject({ kind: 'article', text });
    }
  });

  it("turns a row into the API's job, with damaged steps read as fresh ones", () => {
    const job = toVideoJob(row({ steps: 'not json' }));
    expect(job).toMatchObject({
      id: 'job-1',
      status: 'processing',
      progress: 40,
      currentStep: 'voice',
      stepProgress: 20,
      params: { topic: 'Tides' },
      result: null,
    });
    expect(Object.values(job.steps).every((step) => step.status === 'pending')).toBe(true);
  });

  it('refuses a status the contracts do not know', () => {
    expect(() => toVideoJob(row({ status: 'exploded' as never }))).toThrow();
  });
});
