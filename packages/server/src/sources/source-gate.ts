import { tooManyRequests } from '../errors.js';

/** Links read at once in one process, and by one user: a slow site holds a slot for up to its deadline. */
export const SOURCE_READS_PER_PROCESS = 32;
export const SOURCE_READS_PER_USER = 3;

export const SOURCE_GATE_MESSAGES = {
  user: `You already have ${SOURCE_READS_PER_USER} links being read; wait for them to finish, then try again.`,
  process: 'The server is reading many links right now; try again in a minute, or paste the article’s text.',
} as const;

/**
 * Counts the links being fetched and read, per process and per user, and refuses (429) past either
 * bound instead of queueing: a user who sends a flood of slow links waits for their own few, and the
 * sockets, memory and worker threads stay free for everyone else's requests.
 */
export class SourceGate {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  constructor(
    private readonly maxTotal = SOURCE_READS_PER_PROCESS,
    private readonly maxPerUser = SOURCE_READS_PER_USER,
  ) {}

  /** Takes a slot for `user`, or throws a 429; the returned function gives it back (once). */
  enter(user: string): () => void {
    const own = this.perUser.get(user) ?? 0;
    if (own >= this.maxPerUser) throw tooManyRequests(SOURCE_GATE_MESSAGES.user);
    if (this.total >= this.maxTotal) throw tooManyRequests(SOURCE_GATE_MESSAGES.process);
    this.total += 1;
    this.perUser.set(user, own + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.total -= 1;
      const remaining = (this.perUser.get(user) ?? 1) - 1;
      if (remaining > 0) this.perUser.set(user, remaining);
      else this.perUser.delete(user);
    };
  }
}
