import type { GalleryExample } from '@reelsmith/contracts';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BackgroundGate } from '../plugins/background-gate.js';
import { BACKGROUND_MAX_WAIT_MS, BACKGROUND_SHARE_MS, GATE_POLL_MS } from '../plugins/background-gate.js';
import { BACKGROUND_NICENESS, type GALLERY_RECIPES } from './gallery-maker.js';

type Recipe = (typeof GALLERY_RECIPES)[number];

const CHILD_ENTRY = fileURLToPath(new URL('./gallery-child.ts', import.meta.url));
/** The server runs under tsx (npm start, npm run serve); the child loads its TypeScript the same way. */
const TSX_LOADER = import.meta.resolve('tsx');
/**
 * The child is started under `setpriv --pdeathsig CONT` where there is one: a server killed while it
 * held the child paused (SIGSTOP) leaves a stopped process that could never notice it is alone; the
 * kernel continues it when its parent dies, and the child then sees its IPC channel closed and exits.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

export interface PauseOptions {
  pollMs?: number;
  /** Paused this long, the process runs for `shareMs` anyway (its minimum share), then may pause again. */
  maxPauseMs?: number;
  shareMs?: number;
  now?: () => number;
}

/**
 * Keeps a background process group (`pid` leads it) stopped while creators' jobs are queued or
 * running and running otherwise: SIGSTOP/SIGCONT reach the process and every ffmpeg it started, so a
 * render paused mid-way holds no CPU and continues where it stopped. Requests do not stop it: it runs
 * at the lowest CPU priority, so the kernel serves them first. Stopped for `maxPauseMs`, it runs for
 * `shareMs` (a server that always has a job queued still finishes its examples). Returns the stop function.
 */
export function pauseWhileBusy(
  pid: number,
  gate: Pick<BackgroundGate, 'busyReason'>,
  options: PauseOptions = {},
): { stop: () => void; paused: () => boolean } {
  const pollMs = options.pollMs ?? GATE_POLL_MS;
  const maxPauseMs = options.maxPauseMs ?? BACKGROUND_MAX_WAIT_MS;
  const shareMs = options.shareMs ?? BACKGROUND_SHARE_MS;
  const now = options.now ?? (() => performance.now());
  let paused = false;
  let pausedAt = 0;
  let shareUntil = Number.NEGATIVE_INFINITY;
  let checking = false;
  let stopped = false;
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    try {
      process.kill(-pid, name);
    } catch {
      // The group has ended: nothing to pause or resume.
    }
  };
  const timer = setInterval(() => {
    if (checking || stopped) return;
    checking = true;
    void gate
      .busyReason()
      .then((reason) => {
        if (stopped) return;
        const at = now();
        if (paused && at - pausedAt >= maxPauseMs) shareUntil = at + shareMs;
        const pause = reason === 'job' && at >= shareUntil;
        if (pause === paused) return;
        paused = pause;
        if (pause) pausedAt = at;
        signal(pause ? 'SIGSTOP' : 'SIGCONT');
      })
      .finally(() => (checking = false));
  }, pollMs);
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      if (paused) signal('SIGCONT');
      paused = false;
    },
    paused: () => paused,
  };
}

export interface ChildExampleOptions {
  gate: Pick<BackgroundGate, 'busyReason' | 'whenIdle'>;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/**
 * Makes one example in a child process at the lowest priority, started only when no creator's job
 * or request waits (or the gate's minimum share is due) and paused while creators' jobs wait (the
 * gate), so a fresh server's background work never slows its first creators.
 */
export async function makeExampleInChild(dir: string, recipe: Recipe, options: ChildExampleOptions): Promise<GalleryExample> {
  const { gate, signal } = options;
  await gate.whenIdle(signal);
  const args = ['--import', TSX_LOADER, CHILD_ENTRY, dir, recipe.slug, String(process.pid)];
  // setpriv execs node, so the pid held here is the child's own.
  const command: [string, string[]] = SETPRIV
    ? [SETPRIV, ['--pdeathsig', 'CONT', '--', process.execPath, ...args]]
    : [process.execPath, args];
  const child: ChildProcess = spawn(command[0], command[1], {
    // Its own process group, so a pause or a stop reaches its ffmpeg processes as well.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: options.env ?? process.env,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('The gallery example process could not be started');
  try {
    setPriority(pid, BACKGROUND_NICENESS);
  } catch {
    // It lowers its own priority as it starts.
  }
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  const pausing = pauseWhileBusy(pid, gate);
  const onAbort = () => {
    pausing.stop();
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Already ended.
    }
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await new Promise<GalleryExample>((resolve, reject) => {
      let answer: { example?: GalleryExample; error?: string } | null = null;
      child.on('message', (message: { example?: GalleryExample; error?: string }) => (answer = message));
      child.once('error', reject);
      child.once('exit', (code, exitSignal) => {
        if (answer?.example) return resolve(answer.example);
        if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('The gallery example was stopped'));
        reject(
          new Error(
            answer?.error ??
              `The gallery example process ended (${exitSignal ?? `code ${code}`}) without an example${stderr ? `: ${stderr.trim().slice(-500)}` : ''}`,
          ),
        );
      });
    });
  } finally {
    pausing.stop();
    signal?.removeEventListener('abort', onAbort);
  }
}
