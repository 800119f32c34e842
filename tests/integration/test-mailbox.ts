import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server in the test process: account e-mail goes through nodemailer to it. */
export interface TestMailbox {
  url: string;
  received: ReceivedMail[];
  /** The first link of the newest mail to `to` whose path contains `path` (waits for it to arrive). */
  linkTo(to: string, path: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startTestMailbox(): Promise<TestMailbox> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async linkTo(to, path, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = [...received].reverse().find((item) => item.to.includes(to.toLowerCase()) && item.raw.includes(path));
        // Quoted-printable may wrap long lines with "=\r\n"; unwrap before reading the link.
        const body = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const link = body?.match(new RegExp(`https?://\\S*${path}\\?token=[A-Za-z0-9_-]+`))?.[0];
        if (link) return link;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} with a ${path} link`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
