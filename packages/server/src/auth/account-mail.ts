import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface AccountMail {
  to: string;
  subject: string;
  text: string;
  /** The one link of the message; logged instead of sent when no SMTP server is configured. */
  link: string;
}

export interface AccountMailer {
  readonly mode: 'smtp' | 'log';
  send(mail: AccountMail): Promise<void>;
  close(): void;
}

/**
 * nodemailer waits up to 2 minutes to connect and 10 minutes on a silent socket; a mail server that
 * stalls would hold a sending slot that long. Values already in the URL's query win.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, value] of Object.entries(SMTP_TIMEOUTS)) if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
  return url.toString();
}

/**
 * Verification and reset mail: over SMTP with nodemailer when SMTP_URL and MAIL_FROM are set;
 * otherwise each link is logged, so a single-machine operator can still verify their own address.
 * Only links are logged, never a password.
 */
export function createAccountMailer(mail: Config['mail'], log: FastifyBaseLogger): AccountMailer {
  if (!mail) {
    return {
      mode: 'log',
      async send({ to, subject, link }) {
        log.warn({ to, subject, link }, 'account e-mail not sent (SMTP_URL and MAIL_FROM unset): open this link');
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(withTimeouts(mail.smtpUrl));
  return {
    mode: 'smtp',
    async send({ to, subject, text }) {
      await transport.sendMail({ from: mail.from, to, subject, text });
    },
    close() {
      transport.close();
    },
  };
}

/** Retries of a mail the server refused or never answered: after 15 s, 1 min and 5 min, then given up (logged). */
export const MAIL_RETRY_DELAYS_MS = [15_000, 60_000, 300_000];
const MAIL_CONCURRENCY = 2;
/** Past this many waiting mails a new one is dropped (logged) rather than growing memory without bound. */
const MAIL_QUEUE_LIMIT = 1_000;

export interface AccountMailOutbox {
  /**
   * Queues the mail `prepare` makes (null: nothing to send) and returns at once: no request waits
   * for the mail server, so neither its speed nor its failure shows in an answer (the forgot-password
   * form must not tell which addresses have accounts).
   */
  enqueue(prepare: () => Promise<AccountMail | null>, log: FastifyBaseLogger): void;
  /** Resolves once nothing is queued or being sent (retries waiting on a timer aside). */
  idle(): Promise<void>;
  /** Stops sending; what is still queued is dropped with a log line. */
  close(): void;
}

interface QueuedMail {
  prepare: () => Promise<AccountMail | null>;
  log: FastifyBaseLogger;
  attempt: number;
}

/** Account mail sent in the background, a few at a time, with retries. */
export function createAccountMailOutbox(mailer: AccountMailer, options: { retryDelaysMs?: readonly number[] } = {}): AccountMailOutbox {
  const retryDelaysMs = options.retryDelaysMs ?? MAIL_RETRY_DELAYS_MS;
  const queue: QueuedMail[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let sending = 0;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (queue.length > 0 || sending > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const push = (item: QueuedMail) => {
    if (closed) return;
    if (queue.length >= MAIL_QUEUE_LIMIT) {
      item.log.error({ queued: queue.length }, 'account e-mail dropped: the mail queue is full');
      return;
    }
    queue.push(item);
    pump();
  };

  const pump = () => {
    while (!closed && sending < MAIL_CONCURRENCY && queue.length > 0) {
      const item = queue.shift()!;
      sending += 1;
      void send(item).finally(() => {
        sending -= 1;
        pump();
        settle();
      });
    }
  };

  async function send(item: QueuedMail): Promise<void> {
    let mail: AccountMail | null;
    try {
      mail = await item.prepare();
    } catch (error) {
      item.log.error({ err: error }, 'could not prepare an account e-mail');
      return;
    }
    if (!mail) return;
    const ready = mail;
    try {
      await mailer.send(ready);
      item.log.info({ to: ready.to, subject: ready.subject, via: mailer.mode }, 'account e-mail sent');
    } catch (error) {
      const delay = retryDelaysMs[item.attempt];
      if (delay === undefined || closed) {
        item.log.error(
          { err: error, to: ready.to, subject: ready.subject, attempts: item.attempt + 1 },
          'could not send an account e-mail; gave up',
        );
        return;
      }
      item.log.warn({ err: error, to: ready.to, subject: ready.subject, retryInMs: delay }, 'could not send an account e-mail; will retry');
      const timer = setTimeout(() => {
        timers.delete(timer);
        push({ prepare: async () => ready, log: item.log, attempt: item.attempt + 1 });
      }, delay);
      timer.unref();
      timers.add(timer);
    }
  }

  return {
    enqueue(prepare, log) {
      push({ prepare, log, attempt: 0 });
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      queue.length = 0;
      settle();
    },
  };
}
