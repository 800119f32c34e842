/**
 * How a server or worker process reacts to being asked to stop. One request starts the drain; the
 * copies that follow are ignored, because one stop often arrives several times: SIGTERM to a process
 * group (systemd, `docker stop` of `npm start`, Ctrl-C) reaches every process of the group, and npm
 * and the wrappers forward it once more. Only these end the drain early:
 * - a signal that comes after the grace (the grace timer exits first in practice);
 * - SIGINT twice from a terminal: a person pressing Ctrl-C again, told apart from the copies of one
 *   press by the time between them.
 * The parent going away is a stop request too (the IPC channel of scripts/start.mjs closing), so a
 * server never outlives the wrapper that started it.
 */

/** Copies of one Ctrl-C (the group's, npm's, the wrapper's) arrive within milliseconds of each other. */
export const DUPLICATE_SIGNAL_MS = 750;

export type StopReason = NodeJS.Signals | 'parent-exited';

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** The part of `process` this module uses (a fake one in tests). */
export interface ShutdownProcess {
  on(event: 'SIGTERM' | 'SIGINT', listener: (signal: NodeJS.Signals) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  off(event: 'SIGTERM' | 'SIGINT', listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'disconnect', listener: () => void): unknown;
  readonly connected?: boolean;
  exit(code: number): never;
}

export interface ShutdownOptions {
  graceSeconds: number;
  log: ShutdownLog;
  /** Stops taking work, finishes or hands back what runs, closes everything; the process exits 0 after. */
  drain: (reason: StopReason) => Promise<void>;
  /** Whether a person is at a terminal (stdin or stdout is a TTY), for "SIGINT twice". */
  interactive?: boolean;
  process?: ShutdownProcess;
  now?: () => number;
}

export interface ShutdownHandle {
  /** Starts the drain as a signal would (the first call counts, later ones are handled as repeats). */
  request(reason: StopReason): void;
  readonly draining: boolean;
}

/** Installs the stop handling of a server or worker process. */
export function handleShutdownSignals(options: ShutdownOptions): ShutdownHandle {
  const proc = options.process ?? (process as unknown as ShutdownProcess);
  const now = options.now ?? Date.now;
  const { log, graceSeconds } = options;
  const interactive = options.interactive ?? Boolean(process.stdin.isTTY || process.stdout.isTTY);
  let startedAt: number | null = null;
  let lastInterruptAt: number | null = null;

  const request = (reason: StopReason) => {
    const at = now();
    if (startedAt !== null) {
      const overGrace = at - startedAt >= graceSeconds * 1000;
      const secondPress = reason === 'SIGINT' && interactive && lastInterruptAt !== null && at - lastInterruptAt > DUPLICATE_SIGNAL_MS;
      if (reason === 'SIGINT') lastInterruptAt = at;
      if (overGrace || secondPress) {
        log.warn({ signal: reason }, 'second signal: exiting without waiting');
        proc.exit(1);
      }
      log.debug({ signal: reason }, 'already draining: signal ignored');
      return;
    }
    startedAt = at;
    if (reason === 'SIGINT') lastInterruptAt = at;
    log.info({ signal: reason, graceSeconds }, 'draining, then shutting down');
    setTimeout(() => {
      log.error({ graceSeconds }, 'shutdown grace is over: exiting with work unfinished');
      proc.exit(1);
    }, graceSeconds * 1000).unref();
    options.drain(reason).then(
      () => proc.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error while shutting down');
        proc.exit(1);
      },
    );
  };

  proc.on('SIGTERM', request);
  proc.on('SIGINT', request);
  // Started by scripts/start.mjs with an IPC channel: its closing means the wrapper is gone (even
  // killed with SIGKILL), so nothing would forward a stop to this process any more.
  if (proc.connected) {
    proc.on('disconnect', () => request('parent-exited'));
    // The channel only watches; it must not keep a drained process alive.
    if (!options.process) (process.channel as { unref?: () => void } | undefined)?.unref?.();
  }
  return {
    request,
    get draining() {
      return startedAt !== null;
    },
  };
}
