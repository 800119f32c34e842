import { describe, expect, it } from 'vitest';
import { submissionTime } from './video-job-repository.js';

describe('submissionTime', () => {
  it('gives every submission a distinct, increasing time even within one millisecond', () => {
    const before = Date.now();
    const times = Array.from({ length: 200 }, () => submissionTime().getTime());
    for (let index = 1; index < times.length; index += 1) expect(times[index]).toBeGreaterThan(times[index - 1]!);
    expect(times[0]).toBeGreaterThanOrEqual(before);
    // A burst runs ahead of the clock by at most one millisecond per submission.
    expect(times.at(-1)! - Date.now()).toBeLessThanOrEqual(times.length);
  });
});
