/**
 * Failed sign-ins slow down the one who fails, not the account's owner: failures are counted per
 * (e-mail, address) pair and per address, and past a few free tries each further attempt must wait
 * twice as long as the last (1 s, 2 s, 4 s … up to 15 min). Someone guessing from many addresses
 * cannot lock the owner out, because the owner's own address has no failures.
 */
export interface SignInThrottleOptions {
  /** Failures of one e-mail from one address before delays start. */
  freePairFailures?: number;
  /** Failures from one address (any e-mails) before delays start. */
  freeAddressFailures?: number;
  maxDelayMs?: number;
  /** A counter forgets its failures after this long without a new one. */
  forgetAfterMs?: number;
  now?: () => number;
}

interface Failures {
  count: number;
  lastAt: number;
}

export class SignInThrottle {
  private readonly pairs = new Map<string, Failures>();
  private readonly addresses = new Map<string, Failures>();
  private readonly freePair: number;
  private readonly freeAddress: number;
  private readonly maxDelayMs: number;
  private readonly forgetAfterMs: number;
  private readonly now: () => number;

  constructor(options: SignInThrottleOptions = {}) {
    this.freePair = options.freePairFailures ?? 3;
    this.freeAddress = options.freeAddressFailures ?? 10;
    this.maxDelayMs = options.maxDelayMs ?? 15 * 60_000;
    this.forgetAfterMs = options.forgetAfterMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds this attempt must still wait (0: go ahead). */
  waitMs(email: string, address: string): number {
    return Math.max(this.wait(this.pairs, `${email}\n${address}`, this.freePair), this.wait(this.addresses, address, this.freeAddress));
  }

  recordFailure(email: string, address: string): void {
    this.bump(this.pairs, `${email}\n${address}`);
    this.bump(this.addresses, address);
  }

  /** The right password from this address: its failures for this e-mail are forgiven. */
  recordSuccess(email: string, address: string): void {
    this.pairs.delete(`${email}\n${address}`);
  }

  private wait(map: Map<string, Failures>, key: string, free: number): number {
    const entry = map.get(key);
    if (!entry) return 0;
    const elapsed = this.now() - entry.lastAt;
    if (elapsed > this.forgetAfterMs) {
      map.delete(key);
      return 0;
    }
    if (entry.count < free) return 0;
    const delay = Math.min(this.maxDelayMs, 1000 * 2 ** (entry.count - free));
    return Math.max(0, delay - elapsed);
  }

  private bump(map: Map<string, Failures>, key: string): void {
    const entry = map.get(key);
    const now = this.now();
    if (entry && now - entry.lastAt <= this.forgetAfterMs) map.set(key, { count: entry.count + 1, lastAt: now });
    else map.set(key, { count: 1, lastAt: now });
    // Bounded memory under a flood of addresses: drop the oldest entries.
    if (map.size > 100_000) for (const oldest of [...map.keys()].slice(0, 10_000)) map.delete(oldest);
  }
}
