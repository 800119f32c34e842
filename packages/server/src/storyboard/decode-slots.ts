import { tooManyRequests } from '../errors.js';

export const UPLOADS_BUSY_MESSAGE = 'Your earlier uploads are still being checked. Wait for them to finish, then upload this file again.';

export interface DecodeSlotsOptions {
  /** Decodes at once in this process, all users together (each one is an ffmpeg that may fill a core). */
  total: number;
  /** Decodes at once per user; further uploads of theirs wait in line. */
  perUser: number;
  /** Uploads of one user waiting in line; beyond this they are refused with a 429. */
  waitingPerUser: number;
}

interface Waiter {
  userId: string;
  start: () => void;
}

/**
 * Bounds the ffmpeg work uploads cost: at most `total` decodes at once, at most `perUser` of them
 * for one user, and a short line per user (beyond it, a 429 that says to wait), so one user's burst
 * neither fills the machine's cores nor delays everyone else's upload by more than its turn.
 */
export class DecodeSlots {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly line: Waiter[] = [];

  constructor(private readonly options: DecodeSlotsOptions) {}

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (!this.mayStart(userId)) {
      const waiting = this.line.filter((waiter) => waiter.userId === userId).length;
      if (waiting >= this.options.waitingPerUser) throw tooManyRequests(UPLOADS_BUSY_MESSAGE);
      await new Promise<void>((start) => this.line.push({ userId, start }));
    } else {
      this.take(userId);
    }
    try {
      return await work();
    } finally {
      this.release(userId);
    }
  }

  /** Decodes running now (for tests and health figures). */
  get active(): number {
    return this.running;
  }

  private mayStart(userId: string): boolean {
    return this.running < this.options.total && (this.runningOf.get(userId) ?? 0) < this.options.perUser;
  }

  private take(userId: string): void {
    this.running += 1;
    this.runningOf.set(userId, (this.runningOf.get(userId) ?? 0) + 1);
  }

  private release(userId: string): void {
    this.running -= 1;
    const left = (this.runningOf.get(userId) ?? 1) - 1;
    if (left === 0) this.runningOf.delete(userId);
    else this.runningOf.set(userId, left);
    // The first in line that may start now, so a user at their own limit does not hold up the others.
    for (let index = 0; index < this.line.length; index += 1) {
      const waiter = this.line[index]!;
      if (!this.mayStart(waiter.userId)) continue;
      this.line.splice(index, 1);
      this.take(waiter.userId);
      waiter.start();
      index -= 1;
    }
  }
}
