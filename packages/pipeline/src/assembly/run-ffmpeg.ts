import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CancelledError } from '../errors.js';
import { ffmpegVersion } from './ffmpeg-binary.js';

/**
 * ffmpeg and ffprobe processes this module has started. Each start forks this (large) process and
 * pays ffmpeg's own start-up: a job that starts too many is slow in a way no single command shows,
 * so tests hold a job to a budget of them (run-generation-offline.test.ts).
 */
let processesStarted = 0;

/** How many ffmpeg and ffprobe processes this module has started so far. */
export function ffmpegProcessesStarted(): number {
  return processesStarted;
}

/** Children still running, killed if this process exits so no ffmpeg outlives the job that started it. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
  });
}

/**
 * setpriv --pdeathsig makes the kernel SIGKILL ffmpeg when this process dies for any reason (even
 * SIGKILL, where no 'exit' handler runs). setpriv execs ffmpeg, so the pid we hold is ffmpeg's.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/**
 * glibc malloc settings for ffmpeg. By default glibc serves each multi-megabyte frame buffer with a
 * fresh mmap and gives it back on free (or trims the heap), so every frame of a zoom (whose scaled size
 * changes each frame, which defeats ffmpeg's buffer pools) faults its pages in again: 70-80k page faults
 * and about a third of a segment's CPU time. Fixed thresholds keep freed buffers in the heap for reuse:
 * measured 4.0 -> 2.8 CPU s for one 195-frame segment (RENDER-TIME.md). Peak memory is unchanged; only
 * the same buffers are kept instead of returned and re-faulted.
 */
export const FFMPEG_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(1024 * 1024 * 1024),
  MALLOC_TOP_PAD_: String(64 * 1024 * 1024),
};

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export interface RunFfmpegOptions {
  signal?: AbortSignal | undefined;
  /** Expected output duration in seconds; with it, onProgress gets 0-100 from ffmpeg's -progress output. */
  durationSeconds?: number | undefined;
  onProgress?: ((percent: number) => void) | undefined;
  /** Called with the child's pid once it runs (the bench samples its memory). */
  onSpawn?: ((pid: number) => void) | undefined;
  /** Working directory: lets filter graphs name files relatively, free of filtergraph escaping. */
  cwd?: string | undefined;
}

function parseOutTimeSeconds(key: string, value: string): number | null {
  // out_time_ms is in microseconds too (an old ffmpeg naming bug), out_time is HH:MM:SS.micro.
  if (key === 'out_time_us' || key === 'out_time_ms') {
    const micro = Number(value);
    return Number.isFinite(micro) && micro >= 0 ? micro / 1e6 : null;
  }
  if (key === 'out_time') {
    const match = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(value);
    if (!match) return null;
    return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  }
  return null;
}

/**
 * The filter a binary refused and why, from its stderr: an option or a filter that build does not
 * have (an older static build, one built without a library). Null when the failure was something else.
 */
export function refusedFilter(stderr: string): { filter: string; reason: string } | null {
  const missing = /No such filter: '([^']+)'/.exec(stderr);
  if (missing) return { filter: missing[1]!, reason: 'this build has no such filter' };
  const failed = /Error initializing filter '([^']+)'/.exec(stderr);
  if (!failed) return null;
  const option = /Option '([^']+)' not found/.exec(stderr);
  return { filter: failed[1]!, reason: option ? `this build has no option '${option[1]}'` : 'this build refused its options' };
}

/** Runs one ffmpeg command; resolves with its stderr when it exits 0. */
export function runFfmpeg(ffmpegPath: string, args: string[], options: RunFfmpegOptions = {}): Promise<string> {
  const { signal, durationSeconds, onProgress, onSpawn, cwd } = options;
  if (signal?.aborted) return Promise.reject(new CancelledError());
  installExitHook();
  const fullArgs = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-progress', 'pipe:1', '-nostats', ...args];
  const command = SETPRIV ? SETPRIV : ffmpegPath;
  const commandArgs = SETPRIV ? ['--pdeathsig', 'KILL', '--', ffmpegPath, ...fullArgs] : fullArgs;

  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], cwd, env: { ...process.env, ...FFMPEG_MALLOC_ENV } });
    processesStarted += 1;
    liveChildren.add(child);
    let stderr = '';
    let stdoutBuffer = '';
    let lastPercent = -1;
    let settled = false;

    const onAbort = () => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) onSpawn?.(child.pid);

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdoutBuffer += chunk;
      let newline: number;
      while ((newline = stdoutBuffer.indexOf('\n')) >= 0) {
        const line = stdoutBuffer.slice(0, newline).trim();
        stdoutBuffer = stdoutBuffer.slice(newline + 1);
        const eq = line.indexOf('=');
        if (eq < 0 || !onProgress || !durationSeconds) continue;
        const seconds = parseOutTimeSeconds(line.slice(0, eq), line.slice(eq + 1));
        if (seconds === null) continue;
        const percent = Math.min(100, Math.max(0, (seconds / durationSeconds) * 100));
        if (percent > lastPercent) {
          lastPercent = percent;
          onProgress(percent);
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8000);
    });

    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      liveChildren.delete(child);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(stderr);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        error.code === 'ENOENT'
          ? new FfmpegError(`ffmpeg could not be started (${ffmpegPath} not found). Install ffmpeg or set FFMPEG_PATH.`, null, '')
          : new FfmpegError(`ffmpeg could not be started: ${error.message}`, null, ''),
      );
    });
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) return finish(new CancelledError());
      if (code === 0) return finish(null);
      const lastLine = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' | ');
      const how = `ffmpeg failed (${killedBy ? `killed by ${killedBy}` : `exit code ${code}`})`;
      const refused = refusedFilter(stderr);
      if (!refused) return finish(new FfmpegError(`${how}${lastLine ? `: ${lastLine}` : ''}`, code, stderr));
      // The binary itself cannot run the graph: the operator's log names which binary, which version and which filter.
      void ffmpegVersion(ffmpegPath).then((version) =>
        finish(
          new FfmpegError(
            `${how}: ${ffmpegPath} (ffmpeg ${version}) cannot run the '${refused.filter}' filter: ${refused.reason}. ${lastLine}`,
            code,
            stderr,
          ),
        ),
      );
    });
  });
}

/** Media duration in seconds, via ffprobe when present, else from ffmpeg's own banner. */
export async function probeDurationSeconds(
  binaries: { ffmpegPath: string; ffprobePath: string | null },
  mediaPath: string,
  signal?: AbortSignal,
): Promise<number> {
  if (binaries.ffprobePath) {
    const out = await captureOutput(
      binaries.ffprobePath,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', mediaPath],
      signal,
    );
    const value = Number(out.trim());
    if (Number.isFinite(value)) return value;
  }
  const banner = await captureOutput(binaries.ffmpegPath, ['-hide_banner', '-nostdin', '-i', mediaPath], signal, true);
  const match = /Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(banner);
  if (!match) throw new Error(`Could not read the duration of ${mediaPath}`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** stdout (or stderr when wanted) of a short command; a non-zero exit is fine when reading stderr. */
export function captureOutput(command: string, args: string[], signal?: AbortSignal, wantStderr = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    processesStarted += 1;
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-20000)));
    child.on('error', (error) => reject(signal?.aborted ? new CancelledError() : error));
    child.on('close', (code) => {
      if (wantStderr) return resolve(err);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} exited with code ${code}: ${err.trim().split('\n').slice(-2).join(' | ')}`));
    });
  });
}

/** Pids of ffmpeg processes this module started that are still running (tests check none leak). */
export function liveFfmpegPids(): number[] {
  return [...liveChildren].map((child) => child.pid).filter((pid): pid is number => pid !== undefined);
}
