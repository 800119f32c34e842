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
  const transport = nodemailer.createTransport(mail.smtpUrl);
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
