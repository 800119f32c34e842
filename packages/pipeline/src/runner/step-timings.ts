import { readFileSync } from 'node:fs';

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
  /**
   * CPU seconds spent meanwhile by this process (its threads included) and the processes it ran that
   * ended (ffmpeg): the work, whatever else loads the machine. Steps that overlap share it.
   */
  cpuSeconds?: number;
  /** Its checkpoint was found done, so it did no work. */
  reused: boolean;
}

/**
 * CPU seconds so far of this process and its waited-for children (Linux: cutime and cstime of
 * /proc/self/stat, in clock ticks of 1/100 s); null where that cannot be read.
 */
export function cpuSecondsNow(): number | null {
  const own = process.cpuUsage();
  try {
    // After "pid (comm) ", field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (own.user + own.system) / 1e6 + (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** A step's clock and CPU from now: `end` gives its timing. */
export function startTiming(name: string): { end: (reused?: boolean) => StepTiming } {
  const started = performance.now();
  const cpu = cpuSecondsNow();
  return {
    end: (reused = false) => {
      const cpuNow = cpuSecondsNow();
      return {
        name,
        start: started / 1000,
        seconds: (performance.now() - started) / 1000,
        ...(cpu !== null && cpuNow !== null ? { cpuSeconds: cpuNow - cpu } : {}),
        reused,
      };
    },
  };
}

/** Runs `work` and reports how long it took under `name`. */
export async function timed<T>(name: string, onTiming: ((timing: StepTiming) => void) | undefined, work: () => Promise<T>): Promise<T> {
  const timing = startTiming(name);
  try {
    return await work();
  } finally {
    onTiming?.(timing.end());
  }
}

const stepOf = (name: string): string => name.split(': ')[0]!;

/**
 * The timings as a table, times measured from `origin` (seconds on the same clock), steps in the
 * order they began, each step's phases indented under it; `total` (when given) closes it.
 */
export function formatTimings(
  timings: readonly StepTiming[],
  origin: number,
  total?: { label: string; seconds: number; cpuSeconds?: number },
): string {
  const stepStart = new Map<string, number>();
  for (const timing of timings) if (!timing.name.includes(': ')) stepStart.set(timing.name, timing.start);
  // A phase sorts with its step (at the step's start), after it, then by its own start.
  const at = (timing: StepTiming) => stepStart.get(stepOf(timing.name)) ?? timing.start;
  const cpu = (seconds: number | undefined) => (seconds === undefined ? '' : seconds.toFixed(2));
  const rows = [...timings]
    .sort(
      (a, b) =>
        at(a) - at(b) ||
        stepOf(a.name).localeCompare(stepOf(b.name)) ||
        Number(a.name.includes(': ')) - Number(b.name.includes(': ')) ||
        a.start - b.start,
    )
    .map((timing) => {
      const name = timing.name.includes(': ') ? `  ${timing.name.slice(timing.name.indexOf(': ') + 2)}` : timing.name;
      const from = timing.start - origin;
      return [
        name,
        from.toFixed(2),
        (from + timing.seconds).toFixed(2),
        timing.seconds.toFixed(2),
        cpu(timing.cpuSeconds),
        timing.reused ? 'reused' : '',
      ];
    });
  if (total) rows.push([total.label, '', '', total.seconds.toFixed(2), cpu(total.cpuSeconds), '']);
  const header = ['step', 'from s', 'to s', 'seconds', 'CPU s', ''];
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
