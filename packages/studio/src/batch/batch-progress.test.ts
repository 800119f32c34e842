import { describe, expect, it } from 'vitest';
import { batchSummary } from './batch-progress.js';

const row = (status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled', percent: number) => ({ status, percent });

describe("a batch's head and overall bar (issue 49)", () => {
  it('does not count cancelled rows as finished, and fills the bar once the rest are done', () => {
    const summary = batchSummary([row('completed', 100), row('completed', 100), row('cancelled', 1), row('cancelled', 40)]);
    expect(summary.text).toBe('2 of 2 finished · 2 ready · 2 cancelled');
    expect(summary.percent).toBe(100);
  });

  it('counts a failed row whole on the bar and says it failed', () => {
    const summary = batchSummary([row('completed', 100), row('failed', 20), row('processing', 50)]);
    expect(summary.text).toBe('2 of 3 finished · 1 ready · 1 failed');
    expect(summary.percent).toBe(Math.round((100 + 100 + 50) / 3));
  });

  it('gives a queued row no progress of its own (not "1%")', () => {
    expect(batchSummary([row('queued', 1), row('queued', 1)]).percent).toBe(0);
  });
});
