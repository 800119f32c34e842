import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * Work on untrusted input (an article, a web page, an SVG) that could run for minutes or grow the
 * heap until the process aborts runs here: in worker threads with a wall-time limit, a heap limit
 * (`resourceLimits`) and bounded queues per process and per user. A task past a limit ends its
 * worker (the event loop and every other request are untouched) and rejects with a SandboxLimitError
 * saying which limit it reached; the caller turns that into a message for the creator.
 */

export type SandboxLimit = 'time' | 'memory' | 'busy' | 'user-busy' | 'user-rate' | 'crashed';

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
  /**
   * Threads one user's tasks may hold at once (their share): with 2 threads, one, so a user whose
   * pages all run to the time limit never holds both and another user's task always gets a turn.
   */
  threadsPerUser: number;
  /**
   * Tasks of one user that may end at a limit (time, memory) or be refused by their caller within
   * `strikeWindowMs`; past that, the user's new tasks are refused until the window moves on.
   */
  strikesPerUser: number;
  strikeWindowMs: number;
}

export const SANDBOX_DEFAULTS: SandboxPoolOptions = {
  maxThreads: 2,
  maxQueue: 32,
  perUser: 3,
  memoryMb: 384,
  timeoutMs: 10_000,
  waitMs: 20_000,
  idleTimeoutMs: 60_000,
  threadsPerUser: 1,
  strikesPerUser: 3,
  strikeWindowMs: 60_000,
};

/** How fast a user's past thread time is forgotten when choosing whose task runs next. */
const USAGE_HALF_LIFE_MS = 30_000;

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
  /**
   * A job's task: it waits for its turn however long that takes (until `signal` ends it) and is not
   * counted against the process's queue, instead of failing as an outage when the threads are busy.
   */
  waitForTurn?: boolean;
}

/** A task waiting for its owner's turn at a thread. */
interface Waiting {
  key: string;
  enqueuedAt: number;
  start: () => void;
}

/** Tasks of callers that name no user share one turn. */
const NO_USER = '';

const WORKER_ENTRY = new URL('./sandbox-worker.mjs', import.meta.url).href;

/** Jobs' tasks (waitForTurn) take turns as one owner: a job's share is a request's share. */
const JOB_TASKS = '\u0000jobs';

export class SandboxPool {
  readonly options: SandboxPoolOptions;
  private readonly pool: Piscina;
  private readonly perUser = new Map<string, number>();
  /** Tasks handed to a thread (or starting on one) now, in all and per user. */
  private running = 0;
  private readonly runningPerUser = new Map<string, number>();
  /** Tasks waiting for a turn, in arrival order; which runs next is chosen in turnOf(). */
  private readonly waiting: Waiting[] = [];
  /** Each user's recent thread time, decayed (USAGE_HALF_LIFE_MS): the least used goes first. */
  private readonly usage = new Map<string, { ms: number; at: number }>();
  /** When each user's recent tasks hit a limit or were refused (see strike()). */
  private readonly strikes = new Map<string, number[]>();

  constructor(options: Partial<SandboxPoolOptions> = {}) {
    this.options = { ...SANDBOX_DEFAULTS, ...options };
    this.pool = new Piscina({
      filename: WORKER_ENTRY,
      minThreads: 0,
      maxThreads: this.options.maxThreads,
      idleTimeout: this.options.idleTimeoutMs,
      // run() hands the pool a task only when a thread is free, choosing whose turn it is itself.
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
    return this.waiting.length;
  }

  /**
   * Counts one of `user`'s tasks against their rate as a task ended at a limit does: a caller that
   * refused what a task returned (a page too complex to read) calls it.
   */
  strike(user: string): void {
    const now = Date.now();
    const recent = (this.strikes.get(user) ?? []).filter((at) => now - at < this.options.strikeWindowMs);
    recent.push(now);
    this.strikes.set(user, recent);
    if (this.strikes.size > 10_000) this.forgetOldStrikes(now);
  }

  async run<T>(task: SandboxTask, options: SandboxRunOptions = {}): Promise<T> {
    const { user } = options;
    if (user !== undefined && (this.perUser.get(user) ?? 0) >= this.options.perUser) {
      throw new SandboxLimitError(
        'user-busy',
        `You already have ${this.options.perUser} sources being read; wait for them to finish, then try again.`,
      );
    }
    if (!options.waitForTurn && this.waiting.filter((each) => each.key !== JOB_TASKS).length >= this.options.maxQueue) {
      throw new SandboxLimitError('busy', 'The server is busy reading other sources; try again in a minute.');
    }
    if (user !== undefined && this.recentStrikes(user) >= this.options.strikesPerUser) {
      throw new SandboxLimitError(
        'user-rate',
        `Your last ${this.options.strikesPerUser} sources were too complex to read; wait a minute before sending another.`,
      );
    }
    const key = options.waitForTurn ? JOB_TASKS : (user ?? NO_USER);
    if (user !== undefined) this.perUser.set(user, (this.perUser.get(user) ?? 0) + 1);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let ended: 'waited' | 'timed-out' | 'caller' | null = null;
    const end = (why: 'waited' | 'timed-out' | 'caller') => {
      ended ??= why;
      controller.abort();
    };
    let timer = options.waitForTurn ? undefined : setTimeout(() => end('waited'), this.options.waitMs);
    const onCallerAbort = () => end('caller');
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let holding = false;
    let startedAt = 0;
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      clearTimeout(timer);
      startedAt = Date.now();
      timer = setTimeout(() => end('timed-out'), timeoutMs);
    });
    try {
      // Its turn: a thread is free and no user with less recent thread time is waiting.
      await this.turn(key, controller.signal);
      holding = true;
      return (await this.pool.run(
        { module: task.module, name: task.name, args: task.args, started: port2 },
        { signal: controller.signal, transferList: [port2] },
      )) as T;
    } catch (error) {
      if (ended === 'waited') throw new SandboxLimitError('busy', 'The server is busy with other work; try again in a minute.');
      const explained = this.explain(error, ended === 'timed-out', timeoutMs);
      if (user !== undefined && explained instanceof SandboxLimitError && (explained.limit === 'time' || explained.limit === 'memory')) {
        this.strike(user);
      }
      throw explained;
    } finally {
      clearTimeout(timer);
      port1.close();
      options.signal?.removeEventListener('abort', onCallerAbort);
      if (user !== undefined) {
        const left = (this.perUser.get(user) ?? 1) - 1;
        if (left > 0) this.perUser.set(user, left);
        else this.perUser.delete(user);
      }
      if (holding) this.release(key, startedAt > 0 ? Date.now() - startedAt : 0);
    }
  }

  /** Resolves when `key` may hand a task to a thread; rejects when `signal` ends the wait first. */
  private turn(key: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry: Waiting = {
        key,
        enqueuedAt: Date.now(),
        start: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('The task was stopped before it started.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.dispatch();
    });
  }

  private release(key: string, ranMs: number): void {
    this.running -= 1;
    const left = (this.runningPerUser.get(key) ?? 1) - 1;
    if (left > 0) this.runningPerUser.set(key, left);
    else this.runningPerUser.delete(key);
    const now = Date.now();
    this.usage.set(key, { ms: this.usageOf(key, now) + ranMs, at: now });
    if (this.usage.size > 10_000) {
      for (const [each, value] of this.usage) if (now - value.at > USAGE_HALF_LIFE_MS * 10) this.usage.delete(each);
    }
    this.dispatch();
  }

  /** Starts waiting tasks while threads are free: each time the least-used owner under their share. */
  private dispatch(): void {
    while (this.running < this.options.maxThreads) {
      const now = Date.now();
      const waitingPerUser = new Map<string, number>();
      for (const entry of this.waiting) waitingPerUser.set(entry.key, (waitingPerUser.get(entry.key) ?? 0) + 1);
      let chosen: Waiting | null = null;
      let chosenUsage = Infinity;
      let chosenWaiting = Infinity;
      for (const entry of this.waiting) {
        if ((this.runningPerUser.get(entry.key) ?? 0) >= this.options.threadsPerUser) continue;
        const used = Math.round(this.usageOf(entry.key, now));
        const queued = waitingPerUser.get(entry.key) ?? 0;
        // Least recent thread time first; between equals, the user with fewer tasks waiting (one link
        // goes before a flood of them); then arrival order, and the list is in arrival order.
        if (used < chosenUsage || (used === chosenUsage && queued < chosenWaiting)) {
          chosen = entry;
          chosenUsage = used;
          chosenWaiting = queued;
        }
      }
      if (!chosen) return;
      this.waiting.splice(this.waiting.indexOf(chosen), 1);
      this.running += 1;
      this.runningPerUser.set(chosen.key, (this.runningPerUser.get(chosen.key) ?? 0) + 1);
      chosen.start();
    }
  }

  private usageOf(key: string, now: number): number {
    const entry = this.usage.get(key);
    return entry ? entry.ms * 0.5 ** ((now - entry.at) / USAGE_HALF_LIFE_MS) : 0;
  }

  private recentStrikes(user: string): number {
    const now = Date.now();
    return (this.strikes.get(user) ?? []).filter((at) => now - at < this.options.strikeWindowMs).length;
  }

  private forgetOldStrikes(now: number): void {
    for (const [user, times] of this.strikes) if (times.every((at) => now - at >= this.options.strikeWindowMs)) this.strikes.delete(user);
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
