import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAccountMailer } from './account-mail.js';

describe('createAccountMailer without SMTP_URL and MAIL_FROM', () => {
  it('logs the link (and only the link, never the message text) so an operator can open it', async () => {
    const logged: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => void logged.push(args) } as unknown as FastifyBaseLogger;
    const mailer = createAccountMailer(null, log);
    expect(mailer.mode).toBe('log');
    await mailer.send({ to: 'owner@example.com', subject: 'Confirm', text: 'secret body with a password-like hunter2', link: 'http://localhost:8080/verify-email?token=abc' });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[0]).toEqual({ to: 'owner@example.com', subject: 'Confirm', link: 'http://localhost:8080/verify-email?token=abc' });
    expect(JSON.stringify(logged)).not.toContain('hunter2');
  });
});
