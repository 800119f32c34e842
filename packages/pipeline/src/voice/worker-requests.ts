import type { Worker } from 'node:worker_threads';
import { CancelledError } from '../errors.js';

type Reply = { requestId: number; ok: true; [key: string]: unknown } | { requestId: number; ok: false; error: string };
type ReadyReply = { ready: boolean; error?: string };

export interface WorkerRequestsOptions {
  /** Starts the worker thread; it says `{ ready }` once loaded, then answers `{ requestId, ok, … }`. */
  spawn: () => Worker;
  /** The error when the worker exits while it is in use. */
  stopped: (code: number) => string;
  /** The error when the worker says it could not load (`{ ready: false, error }`). */
  notLoaded?: (error: string | undefined) => string;
}

/**
 * A worker thread that answers numbered requests (the espeak and Kokoro engines): started on first
 * use and kept, unref'd while idle so it never keeps the process alive, and replaced after it fails
 * (every request waiting on it fails with it).
 */
export class WorkerRequests {
  private worker: Worker | undefined;
  private starting: Promise<Worker> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: Record<string, unknown>) => void; reject: (error: Error) => void }>();

  constructor(private readonly options: WorkerRequestsOptions) {}

  start(): Promise<Worker> {
    if (this.starting) return this.starting;
    this.starting = new Promise<Worker>((resolve, reject) => {
      const worker = this.options.spawn();
      this.worker = worker;
      worker.on('message', (reply: Reply | ReadyReply) => {
        if ('ready' in reply) {
          const { ready, error } = reply as ReadyReply;
          // An idle engine must not keep the process alive; it is ref'd again while it works.
          if (this.pending.size === 0) worker.unref();
          if (ready) resolve(worker);
          else fail(new Error(this.options.notLoaded?.(error) ?? error ?? 'unknown error'));
          return;
        }
        const waiter = this.pending.get(reply.requestId);
        if (!waiter) return;
        this.pending.delete(reply.requestId);
        if (this.pending.size === 0) worker.unref();
        if (reply.ok) waiter.resolve(reply);
        else waiter.reject(new Error(reply.error));
      });
      const fail = (error: Error) => {
        reject(error);
        this.reset(error);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (this.worker === worker) fail(new Error(this.options.stopped(code)));
      });
    });
    return this.starting;
  }

  /** Fails every waiting request with `error` and stops the worker; the next request starts another. */
  reset(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    if (worker) void worker.terminate();
  }

  /**
   * Sends `message` with a new request id and waits for its answer. On abort, `restart` replaces the
   * worker (the only way to stop work in flight), `stop-waiting` only stops waiting for this answer.
   */
  async request(
    message: Record<string, unknown>,
    { transfer = [], signal, onAbort }: { transfer?: ArrayBuffer[]; signal?: AbortSignal; onAbort: 'restart' | 'stop-waiting' },
  ): Promise<Record<string, unknown>> {
    if (signal?.aborted) throw new CancelledError();
    const worker = await this.start();
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      const abort = () => {
        if (onAbort === 'restart') {
          this.reset(new CancelledError());
          return;
        }
        this.pending.delete(requestId);
        if (this.pending.size === 0) worker.unref();
        reject(new CancelledError());
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.pending.set(requestId, {
        resolve: (reply) => {
          signal?.removeEventListener('abort', abort);
          resolve(reply);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', abort);
          reject(error);
        },
      });
      worker.ref();
      worker.postMessage({ ...message, requestId }, transfer);
    });
  }
}
