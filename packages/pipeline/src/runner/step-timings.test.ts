import { describe, expect, it } from 'vitest';
import { cpuSecondsNow, formatTimings, timed, type StepTiming } from './step-timings.js';

describe('step timings', () => {
  it('times a piece of work, failures included, with the CPU it used', async () => {
    const seen: StepTiming[] = [];
    const value = await timed(
      'voice: fitting',
      (timing) => seen.push(timing),
      async () => {
        const until = performance.now() + 30;
        while (performance.now() < until); // busy: CPU time, not only wall time
        return 7;
      },
    );
    expect(value).toBe(7);
    await expect(
      timed(
        'images',
        (timing) => seen.push(timing),
        () => Promise.reject(new Error('no paint')),
      ),
    ).rejects.toThrow('no paint');
    expect(seen.map((timing) => timing.name)).toEqual(['voice: fitting', 'images']);
    expect(seen[0]!.seconds).toBeGreaterThanOrEqual(0.029);
    expect(seen[0]!.cpuSeconds).toBeGreaterThan(0);
    expect(seen[0]!.start).toBeLessThanOrEqual(performance.now() / 1000);
  });

  it('reads this process and its ended children together, growing with work', () => {
    const before = cpuSecondsNow();
    expect(before).not.toBeNull();
    const until = performance.now() + 30;
    while (performance.now() < until);
    expect(cpuSecondsNow()!).toBeGreaterThan(before!);
  });

  it('lists steps in the order they began, each with its phases under it, from the origin', () => {
    const table = formatTimings(
      [
        { name: 'images', start: 12, seconds: 3, reused: false },
        { name: 'voice: fitting', start: 12.5, seconds: 1, reused: false },
        { name: 'setup', start: 10, seconds: 0.25, cpuSeconds: 0.2, reused: true },
        { name: 'voice', start: 12, seconds: 1.5, reused: false },
        { name: 'voice: synthesis', start: 12, seconds: 0.5, reused: false },
      ],
      10,
      { label: 'total', seconds: 6, cpuSeconds: 9.5 },
    );
    expect(table.split('\n')).toEqual([
      'step         from s  to s  seconds  CPU s',
      'setup          0.00  0.25     0.25   0.20  reused',
      'images         2.00  5.00     3.00',
      'voice          2.00  3.50     1.50',
      '  synthesis    2.00  2.50     0.50',
      '  fitting      2.50  3.50     1.00',
      'total                         6.00   9.50',
    ]);
  });
});
