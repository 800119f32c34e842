import { setTimeout as delay } from 'node:timers/promises';

/** A request that ended this recently still counts: a page load is a burst of requests, not one. */
export const REQUEST_QUIET_MS = 1_000;
/** Creator jobs are counted at most this often (one small query, only while background work waits or runs). */
export const JOB_COUNT_MAX_AGE_MS = 1_000;
/** How often work that waits for the gate looks again. */
export const GATE_POLL_MS = 250;

export interface BackgroundGateOptions {
  quietMs?: number;
  jobCountMaxAgeMs?: number;
  pollMs?: number;
  now?: () => number;
}

/**
 * When the server's own background work (the gallery's example videos, the voice preview samples)
 * may use the machine: never while a creator's job is queued or running, nor while requests are
 * being answered (or were, within the last REQUEST_QUIET_MS). Creators always go first; a fresh
 * server's first video takes no longer than a settled server's.
 */
export class BackgroundGate {
  private inFlight = 0;
  private lastRequestEnd = Number.NEGATIVE_INFINITY;
  private activeJobs: (() => Promise<number>) | null = null;
  private jobCount: { at: number; value: Promise<number> } | null = null;
  private readonly quietMs: number;
  private readonly jobCountMaxAgeMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;

  constructor(options: BackgroundGateOptions = {}) {
    this.quietMs = options.quietMs ?? REQUEST_QUIET_MS;
    this.jobCountMaxAgeMs = options.jobCountMaxAgeMs ?? JOB_COUNT_MAX_AGE_MS;
    this.pollMs = options.pollMs ?? GATE_POLL_MS;
    this.now = options.now ?? (() => performance.now());
  }

  requestStarted(): void {
    this.inFlight += 1;
  }

  requestEnded(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastRequestEnd = this.now();
  }

  /** Where creators' queued and running jobs are counted (the jobs plugin: the database, so worker processes count too). */
  watchJobs(activeJobs: () => Promise<number>): void {
    this.activeJobs = activeJobs;
    this.jobCount = null;
  }

  /** Why background work must wait now, or null when it may run. */
  async busyReason(): Promise<'request' | 'job' | null> {
    if (this.inFlight > 0 || this.now() - this.lastRequestEnd < this.quietMs) return 'request';
    if (!this.activeJobs) return null;
    if (!this.jobCount || this.now() - this.jobCount.at >= this.jobCountMaxAgeMs) {
      // A failed count (the database busy or closing) is read as busy: waiting is the safe side.
      this.jobCount = { at: this.now(), value: this.activeJobs().catch(() => 1) };
    }
    return (await this.jobCount.value) > 0 ? 'job' : null;
  }

  async busy(): Promise<boolean> {
    return (await this.busyReason()) !== null;
  }

  /** Resolves once background work may run; rejects when `signal` aborts first. */
  async whenIdle(signal?: AbortSignal): Promise<void> {
    while (await this.busy()) {
      // Aborted, the wait ends with the signal's own reason (a closing server's, say).
      await delay(this.pollMs, undefined, signal ? { signal } : {}).catch((error: unknown) => {
        signal?.throwIfAborted();
        throw error;
      });
    }
    signal?.throwIfAborted();
  }
}
