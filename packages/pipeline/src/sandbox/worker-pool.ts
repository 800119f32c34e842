import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * Work on untrusted input (an article, a web page, an SVG) that could run for minutes or grow the
 * heap until the process aborts runs here: in worker threads with a wall-time limit, a heap limit
 * (`resourceLimits`) and bounded queues per process and per user. A task past a limit ends its
 * worker (the event loop and every other request are untouched) and rejects with a SandboxLimitError
 * saying which limit it reached; the caller turns that into a message for the creator.
 */

export type SandboxLimit = 'time' | 'memory' | 'busy' | 'user-busy' | 'crashed';

export class SandboxLimitError extends Error {
  constructor(
    readonly limit: SandboxLimit,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxLimitError';
  }
}

export interface SandboxPoolOptions {
  /** Worker threads at most; the machine's cores are shared with rendering, so few. */
  maxThreads: number;
  /** Tasks waiting for a thread, across all users, before new ones are refused. */
  maxQueue: number;
  /** Tasks one user may have running or waiting at once. */
  perUser: number;
  /** Heap of one worker (old generation), MB. */
  memoryMb: number;
  /** Wall time of a task when the caller names none, ms, counted from when its worker starts it. */
  timeoutMs: number;
  /**
   * Time a task may wait for a thread and for its module to load (a new worker compiles it), ms;
   * past it the task is refused as the server being busy.
   */
  waitMs: number;
  /** An idle worker is ended after this long, so an idle server holds no extra heaps. */
  idleTimeoutMs: number;
}

export const SANDBOX_DEFAULTS: SandboxPoolOptions = {
  maxThreads: 2,
  maxQueue: 32,
  perUser: 3,
  memoryMb: 384,
  timeoutMs: 10_000,
  waitMs: 20_000,
  idleTimeoutMs: 60_000,
};

export interface SandboxTask {
  /** The task module's file URL (import.meta.url of a module beside the code that calls it). */
  module: string;
  /** The exported function to call; its arguments and result must be structured-cloneable. */
  name: string;
  args: unknown[];
}

export interface SandboxRunOptions {
  /** Whose task it is (a user id); tasks without one only count against the process's queue. */
  user?: string;
  timeoutMs?: number;
  /** The caller gave up (its request closed, its job was cancelled): the task is ended too. */
  signal?: AbortSignal;
}

const WORKER_ENTRY = new URL('./sandbox-worker.mjs', import.meta.url).href;

export class SandboxPool {
  readonly options: SandboxPoolOptions;
  private readonly pool: Piscina;
  private readonly perUser = new Map<string, number>();

  constructor(options: Partial<SandboxPoolOptions> = {}) {
    this.options = { ...SANDBOX_DEFAULTS, ...options };
    this.pool = new Piscina({
      filename: WORKER_ENTRY,
      minThreads: 0,
      maxThreads: this.options.maxThreads,
      idleTimeout: this.options.idleTimeoutMs,
      // The pool's own queue is unbounded here: run() refuses before it grows past maxQueue, with a message.
      maxQueue: Infinity,
      concurrentTasksPerWorker: 1,
      // Not the parent's flags: under `tsx` they register its loader, which breaks the worker entry's
      // own tsImport; the entry loads TypeScript the same way under tsx, plain node and vitest.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
  }

  /** Tasks waiting for a thread now. */
  get queued(): number {
    return this.pool.queueSize;
  }

  async run<T>(task: SandboxTask, options: SandboxRunOptions = {}): Promise<T> {
    const { user } = options;
    if (this.pool.queueSize >= this.options.maxQueue) {
      throw new SandboxLimitError('busy', 'The server is busy reading other sources; try again in a minute.');
    }
    if (user !== undefined && (this.perUser.get(user) ?? 0) >= this.options.perUser) {
      throw new SandboxLimitError(
        'user-busy',
        `You already have ${this.options.perUser} sources being read; wait for them to finish, then try again.`,
      );
    }
    if (user !== undefined) this.perUser.set(user, (this.perUser.get(user) ?? 0) + 1);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let ended: 'waited' | 'timed-out' | null = null;
    const end = (why: 'waited' | 'timed-out') => {
      ended = why;
      controller.abort();
    };
    let timer = setTimeout(() => end('waited'), this.options.waitMs);
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      clearTimeout(timer);
      timer = setTimeout(() => end('timed-out'), timeoutMs);
    });
    const onCallerAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      return (await this.pool.run(
        { module: task.module, name: task.name, args: task.args, started: port2 },
        { signal: controller.signal, transferList: [port2] },
      )) as T;
    } catch (error) {
      if (ended === 'waited') throw new SandboxLimitError('busy', 'The server is busy with other work; try again in a minute.');
      throw this.explain(error, ended === 'timed-out', timeoutMs);
    } finally {
      clearTimeout(timer);
      port1.close();
      options.signal?.removeEventListener('abort', onCallerAbort);
      if (user !== undefined) {
        const left = (this.perUser.get(user) ?? 1) - 1;
        if (left > 0) this.perUser.set(user, left);
        else this.perUser.delete(user);
      }
    }
  }

  private explain(error: unknown, timedOut: boolean, timeoutMs: number): unknown {
    if (timedOut) return new SandboxLimitError('time', `The work took longer than ${timeoutMs / 1000} seconds and was stopped.`);
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new SandboxLimitError('memory', `The work needed more than ${this.options.memoryMb} MB of memory and was stopped.`);
    }
    // A worker that ended without answering (a native crash, a stack overflow past recovery).
    if (error instanceof Error && /worker (?:exited|terminated)/i.test(error.message)) {
      return new SandboxLimitError('crashed', 'The work stopped unexpectedly.');
    }
    return error;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

let shared: SandboxPool | null = null;

/** The process's one pool, made on first use: every caller shares its threads and its queue bounds. */
export function sharedSandbox(): SandboxPool {
  shared ??= new SandboxPool();
  return shared;
}
