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
  it('gives every reader its own copy of a job\'s params', () => {
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
  it('turns a row into the API\'s job, with damaged steps read as fresh ones', () => {
    const job = toVideoJob(row({ steps: 'not json' }));
    expect(job).toMatchObject({ id: 'job-1', status: 'processing', progress: 40, currentStep: 'voice', stepProgress: 20, params: { topic: 'Tides' }, result: null });
    expect(Object.values(job.steps).every((step) => step.status === 'pending')).toBe(true);
  });

  it('refuses a status the contracts do not know', () => {
    expect(() => toVideoJob(row({ status: 'exploded' as never }))).toThrow();
  });
});
