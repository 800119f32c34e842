import { setTimeout as delay } from 'node:timers/promises';

/** A request that ended this recently still counts: a page load is a burst of requests, not one. */
export const REQUEST_QUIET_MS = 1_000;
/** Creator jobs are counted at most this often (one small query, only while background work waits or runs). */
export const JOB_COUNT_MAX_AGE_MS = 1_000;
/** How often work that waits for the gate looks again. */
export const GATE_POLL_MS = 250;
/**
 * Background work held this long goes ahead anyway, one step (a voice sample, the start of a gallery
 * example) or one BACKGROUND_SHARE_MS slice of a paused process: its minimum share, so a server that
 * is never quiet still makes its samples and examples, slowly, instead of never.
 */
export const BACKGROUND_MAX_WAIT_MS = 10_000;
/** How long a paused background process runs (at the lowest CPU priority) each time its wait ran out. */
export const BACKGROUND_SHARE_MS = 1_000;

export interface BackgroundGateOptions {
  quietMs?: number;
  jobCountMaxAgeMs?: number;
  pollMs?: number;
  maxWaitMs?: number;
  now?: () => number;
}

/**
 * When the server's own background work (the gallery's example videos, the voice preview samples)
 * may use the machine: not while a creator's job is queued or running, nor while creators' requests
 * are being answered (or were, within the last REQUEST_QUIET_MS). Creators go first; a fresh
 * server's first video takes no longer than a settled server's. Probes, metric scrapes and the
 * studio's own polling are not creators' demand (the background plugin does not count them), and
 * work held for BACKGROUND_MAX_WAIT_MS goes ahead anyway: a steady trickle of requests slows it,
 * never stops it.
 */
export class BackgroundGate {
  private inFlight = 0;
  private lastRequestEnd = Number.NEGATIVE_INFINITY;
  private activeJobs: (() => Promise<number>) | null = null;
  private jobCount: { at: number; value: Promise<number> } | null = null;
  private readonly quietMs: number;
  private readonly jobCountMaxAgeMs: number;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private sharesTaken = 0;

  constructor(options: BackgroundGateOptions = {}) {
    this.quietMs = options.quietMs ?? REQUEST_QUIET_MS;
    this.jobCountMaxAgeMs = options.jobCountMaxAgeMs ?? JOB_COUNT_MAX_AGE_MS;
    this.pollMs = options.pollMs ?? GATE_POLL_MS;
    this.maxWaitMs = options.maxWaitMs ?? BACKGROUND_MAX_WAIT_MS;
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

  /** How long background work waits at most before it takes its minimum share. */
  get maxWait(): number {
    return this.maxWaitMs;
  }

  /** How many times held work went ahead on its minimum share (for tests and logs). */
  get shares(): number {
    return this.sharesTaken;
  }

  /**
   * Resolves once background work may run, or once it has waited BACKGROUND_MAX_WAIT_MS (its
   * minimum share: one step, then it waits again); rejects when `signal` aborts first.
   */
  async whenIdle(signal?: AbortSignal): Promise<void> {
    const since = this.now();
    while (await this.busy()) {
      if (this.now() - since >= this.maxWaitMs) {
        this.sharesTaken += 1;
        break;
      }
      // Aborted, the wait ends with the signal's own reason (a closing server's, say).
      await delay(this.pollMs, undefined, signal ? { signal } : {}).catch((error: unknown) => {
        signal?.throwIfAborted();
        throw error;
      });
    }
    signal?.throwIfAborted();
  }
}
