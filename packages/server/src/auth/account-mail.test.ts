import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAccountMailOutbox, createAccountMailer, type AccountMailer } from './account-mail.js';

describe('createAccountMailer without SMTP_URL and MAIL_FROM', () => {
  it('logs the link (and only the link, never the message text) so an operator can open it', async () => {
    const logged: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => void logged.push(args) } as unknown as FastifyBaseLogger;
    const mailer = createAccountMailer(null, log);
    expect(mailer.mode).toBe('log');
    await mailer.send({
      to: 'owner@example.com',
      subject: 'Confirm',
      text: 'secret body with a password-like hunter2',
      link: 'http://localhost:8080/verify-email?token=abc',
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[0]).toEqual({ to: 'owner@example.com', subject: 'Confirm', link: 'http://localhost:8080/verify-email?token=abc' });
    expect(JSON.stringify(logged)).not.toContain('hunter2');
  });
});

describe('createAccountMailOutbox', () => {
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
  const mail = (to: string) => ({ to, subject: 'Reset', text: 'text', link: 'http://localhost/reset-password?token=x' });

  it('returns at once, sends in the background, and retries a mail the server refused', async () => {
    const sent: string[] = [];
    let failures = 1;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const mailer: AccountMailer = {
      mode: 'smtp',
      async send({ to }) {
        await gate;
        if (failures-- > 0) throw new Error('451 try again later');
        sent.push(to);
      },
      close() {},
    };
    const outbox = createAccountMailOutbox(mailer, { retryDelaysMs: [5] });
    outbox.enqueue(async () => mail('a@example.com'), log);
    outbox.enqueue(async () => null, log);
    expect(sent).toEqual([]);
    release();
    await outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await outbox.idle();
    expect(sent).toEqual(['a@example.com']);
    outbox.close();
  });

  it('gives up after the last retry and drops what is queued at close', async () => {
    const tries: string[] = [];
    const mailer: AccountMailer = {
      mode: 'smtp',
      async send({ to }) {
        tries.push(to);
        throw new Error('down');
      },
      close() {},
    };
    const outbox = createAccountMailOutbox(mailer, { retryDelaysMs: [1, 1] });
    outbox.enqueue(async () => mail('b@example.com'), log);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await outbox.idle();
    expect(tries).toEqual(['b@example.com', 'b@example.com', 'b@example.com']);
    outbox.close();
    outbox.enqueue(async () => mail('c@example.com'), log);
    await outbox.idle();
    expect(tries).toHaveLength(3);
  });
});
