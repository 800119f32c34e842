import type { GalleryExample } from '@reelsmith/contracts';
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BackgroundGate } from '../plugins/background-gate.js';
import { GATE_POLL_MS } from '../plugins/background-gate.js';
import { BACKGROUND_NICENESS, type GALLERY_RECIPES } from './gallery-maker.js';

type Recipe = (typeof GALLERY_RECIPES)[number];

const CHILD_ENTRY = fileURLToPath(new URL('./gallery-child.ts', import.meta.url));
/** The server runs under tsx (npm start, npm run serve); the child loads its TypeScript the same way. */
const TSX_LOADER = import.meta.resolve('tsx');

/**
 * Keeps a background process group (`pid` leads it) stopped while the gate says creators come first
 * and running while it does not: SIGSTOP/SIGCONT reach the process and every ffmpeg it started, so a
 * render paused mid-way holds no CPU at all and continues where it stopped. Returns the stop function.
 */
export function pauseWhileBusy(
  pid: number,
  gate: Pick<BackgroundGate, 'busy'>,
  pollMs = GATE_POLL_MS,
): { stop: () => void; paused: () => boolean } {
  let paused = false;
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
      .busy()
      .then((busy) => {
        if (stopped || busy === paused) return;
        paused = busy;
        signal(busy ? 'SIGSTOP' : 'SIGCONT');
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
  gate: Pick<BackgroundGate, 'busy' | 'whenIdle'>;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/**
 * Makes one example in a child process at the lowest priority, started only when no creator's job
 * or request waits and paused whenever one does (the gate), so a fresh server's background work
 * never slows its first creators.
 */
export async function makeExampleInChild(dir: string, recipe: Recipe, options: ChildExampleOptions): Promise<GalleryExample> {
  const { gate, signal } = options;
  await gate.whenIdle(signal);
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, CHILD_ENTRY, dir, recipe.slug], {
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
