import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** The e2e server sends account e-mail over SMTP to this port (E2E_PORT + 1000), received in the runner. */
export const e2eSmtpPort = () => Number(process.env.E2E_PORT ?? 8181) + 1000;
const mailboxDir = () => join(process.env.E2E_DATA_DIR ?? '.', 'mailbox');

/** Playwright globalSetup: a real SMTP server writing each received mail to DATA_DIR/mailbox. */
export default async function startMailbox(): Promise<() => Promise<void>> {
  mkdirSync(mailboxDir(), { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()).join(',');
        writeFileSync(
          join(mailboxDir(), `${Date.now()}-${count}.eml`),
          `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString('utf8')}`,
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(e2eSmtpPort(), '127.0.0.1', resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The path and query of the newest link to `path` mailed to `to` (waits for the mail). */
export async function mailedLink(to: string, path: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(mailboxDir())) {
      const files = readdirSync(mailboxDir()).sort().reverse();
      for (const file of files) {
        const raw = readFileSync(join(mailboxDir(), file), 'utf8');
        if (!raw.startsWith(`X-Envelope-To: ${to.toLowerCase()}`)) continue;
        const body = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const link = body.match(new RegExp(`https?://[^\\s]*(${path}\\?token=[A-Za-z0-9_-]+)`));
        if (link?.[1]) return link[1];
      }
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with a ${path} link`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
