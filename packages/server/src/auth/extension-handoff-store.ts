import { EXTENSION_HANDOFF_CODE_TTL_MS } from '@reelsmith/contracts';
import type { Redis } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';

/** What a redeemed code stands for: the user who asked for it. */
export interface HandoffGrant {
  userId: string;
}

/**
 * One-time codes that let the web app sign the Chrome extension in. Only a SHA-256 of each code is
 * kept, so a memory dump or log never yields a usable code; redeeming deletes it (single use).
 *
 * Codes live 60 s and only bridge two requests from the same person: one process keeps them in
 * memory; behind several API processes (scale mode) they live in Redis, where any process redeems.
 */
export interface HandoffCodeStore {
  issue(userId: string): Promise<{ code: string; expiresAt: Date }>;
  /** The grant when the code exists and has not expired; the code is gone afterwards either way. */
  redeem(code: string): Promise<HandoffGrant | null>;
}

const hashCode = (code: string): string => createHash('sha256').update(code).digest('hex');
/** 32 random bytes, base64url: 43 characters, far beyond guessing within 60 s. */
const newCode = (): string => randomBytes(32).toString('base64url');

export interface MemoryHandoffCodeStoreOptions {
  ttlMs?: number;
  now?: () => number;
  /** Bounds memory if someone issues codes in a loop: the oldest are dropped first. */
  maxCodes?: number;
}

export class MemoryHandoffCodeStore implements HandoffCodeStore {
  private readonly codes = new Map<string, { userId: string; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly maxCodes: number;

  constructor(options: MemoryHandoffCodeStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? EXTENSION_HANDOFF_CODE_TTL_MS;
    this.now = options.now ?? Date.now;
    this.maxCodes = options.maxCodes ?? 10_000;
  }

  async issue(userId: string): Promise<{ code: string; expiresAt: Date }> {
    this.sweep();
    const code = newCode();
    const expiresAt = this.now() + this.ttlMs;
    this.codes.set(hashCode(code), { userId, expiresAt });
    while (this.codes.size > this.maxCodes) {
      const oldest = this.codes.keys().next();
      if (oldest.done) break;
      this.codes.delete(oldest.value);
    }
    return { code, expiresAt: new Date(expiresAt) };
  }

  async redeem(code: string): Promise<HandoffGrant | null> {
    const key = hashCode(code);
    const entry = this.codes.get(key);
    this.codes.delete(key);
    if (!entry || entry.expiresAt <= this.now()) return null;
    return { userId: entry.userId };
  }

  /** How many codes are held (expired ones included until the next sweep). */
  get size(): number {
    return this.codes.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(key);
  }
}

/** The scale mode's store: SET with an expiry, and GETDEL so a code is redeemed once across processes. */
export class RedisHandoffCodeStore implements HandoffCodeStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly ttlMs: number = EXTENSION_HANDOFF_CODE_TTL_MS,
  ) {}

  async issue(userId: string): Promise<{ code: string; expiresAt: Date }> {
    const code = newCode();
    const expiresAt = new Date(Date.now() + this.ttlMs);
    await this.redis.set(this.key(code), userId, 'PX', this.ttlMs);
    return { code, expiresAt };
  }

  async redeem(code: string): Promise<HandoffGrant | null> {
    const userId = await this.redis.getdel(this.key(code));
    return userId ? { userId } : null;
  }

  private key(code: string): string {
    return `${this.keyPrefix}:extension-handoff:${hashCode(code)}`;
  }
}
