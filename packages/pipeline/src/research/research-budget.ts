import { CancelledError } from '../errors.js';

/** Research gives up within this much time in all (connect, search, article, pictures) per job run. */
export const RESEARCH_BUDGET_MS = 8_000;

/**
 * The time a job may spend waiting on Wikimedia, shared by every look-up of one run. Each call gets
 * what is left; when it is spent, or a look-up fails, the call answers null and the job goes on
 * without it. Only the job's own cancellation is thrown.
 */
export class ResearchBudget {
  private spentMs = 0;

  constructor(
    readonly totalMs: number = RESEARCH_BUDGET_MS,
    private readonly onGiveUp?: (what: string, error: unknown) => void,
  ) {}

  get remainingMs(): number {
    return Math.max(0, this.totalMs - this.spentMs);
  }

  async spend<T>(what: string, work: (signal: AbortSignal) => Promise<T>, jobSignal?: AbortSignal): Promise<T | null> {
    if (jobSignal?.aborted) throw new CancelledError();
    const remaining = this.remainingMs;
    if (remaining <= 0) return null;
    const started = performance.now();
    const timeout = new AbortController();
    const signal = jobSignal ? AbortSignal.any([jobSignal, timeout.signal]) : timeout.signal;
    let timer: NodeJS.Timeout | undefined;
    // The race holds the bound even if a look-up ignored its signal.
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => {
        timeout.abort();
        resolve('expired');
      }, remaining);
    });
    try {
      const outcome = await Promise.race([work(signal), expired]);
      if (outcome === 'expired') {
        this.onGiveUp?.(what, new Error(`no answer within ${Math.round(remaining)} ms`));
        return null;
      }
      return outcome;
    } catch (error) {
      if (jobSignal?.aborted) throw new CancelledError();
      this.onGiveUp?.(what, error);
      return null;
    } finally {
      clearTimeout(timer);
      this.spentMs += performance.now() - started;
    }
  }
}
