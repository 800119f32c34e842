/**
 * Where a run's seconds went: each pipeline step, and the phases inside one worth telling apart
 * (the voice's synthesis and fitting, the music bed, the render), on one clock so the overlap of
 * steps that run at once (voice and pictures) shows.
 */
export interface StepTiming {
  /** A pipeline step (`voice`), or a phase inside one (`voice: fitting`). */
  name: string;
  /** When it began, in seconds on the caller's clock (performance.now() of this process, in seconds). */
  start: number;
  seconds: number;
  /** Its checkpoint was found done, so it did no work. */
  reused: boolean;
}

/** Runs `work` and reports how long it took under `name`. */
export async function timed<T>(name: string, onTiming: ((timing: StepTiming) => void) | undefined, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    onTiming?.({ name, start: started / 1000, seconds: (performance.now() - started) / 1000, reused: false });
  }
}

/**
 * The timings as a table, times measured from `origin` (seconds on the same clock), in the order the
 * steps began; `total` (when given) closes it. Phases are indented under their step.
 */
export function formatTimings(timings: readonly StepTiming[], origin: number, total?: { label: string; seconds: number }): string {
  const rows = [...timings]
    .sort((a, b) => a.start - b.start)
    .map((timing) => {
      const name = timing.name.includes(': ') ? `  ${timing.name.slice(timing.name.indexOf(': ') + 2)}` : timing.name;
      const from = timing.start - origin;
      return [name, from.toFixed(2), (from + timing.seconds).toFixed(2), timing.seconds.toFixed(2), timing.reused ? 'reused' : ''];
    });
  if (total) rows.push([total.label, '', '', total.seconds.toFixed(2), '']);
  const header = ['step', 'from s', 'to s', 'seconds', ''];
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
