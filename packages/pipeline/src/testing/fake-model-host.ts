import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tinyKokoroFiles, type TinyModelFile } from './tiny-kokoro-model.js';

/** What the fake host does to the next request for a file, instead of serving it whole. */
export type ModelHostFault =
  /** Sends the first `bytes` bytes with the full Content-Length, then drops the connection. */
  | { kind: 'truncate'; bytes: number }
  /** Sends the right length of wrong bytes (a flipped byte). */
  | { kind: 'corrupt' }
  /** Answers with an HTTP error. */
  | { kind: 'status'; status: number };

export interface FakeModelHost {
  /** The repository's URL, as VOICE_MODEL_URL takes it: <host>/<repo>. */
  url: string;
  /** Every request: its path and Range header. */
  requests: { path: string; range?: string }[];
  /** The next request for `path` gets `fault`. */
  fail(path: string, fault: ModelHostFault): void;
  files: TinyModelFile[];
  close(): Promise<void>;
}

/**
 * A 127.0.0.1 server laid out as the Hugging Face hub serves a model repository at one revision
 * (`/<repo>/resolve/<revision>/<file>`, default main; another revision is a 404, as the hub's
 * "Revision not found"), with Range requests (206) for resumed downloads, serving the tiny Kokoro
 * model the tests make (or the files given).
 */
export async function startFakeModelHost(
  options: { repo?: string; files?: TinyModelFile[]; revision?: string } = {},
): Promise<FakeModelHost> {
  const repo = options.repo ?? 'onnx-community/Kokoro-82M-v1.0-ONNX';
  const files = options.files ?? tinyKokoroFiles();
  const requests: FakeModelHost['requests'] = [];
  const faults = new Map<string, ModelHostFault[]>();
  const prefix = `/${repo}/resolve/${options.revision ?? 'main'}/`;

  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const range = req.headers.range;
    requests.push({ path: url.pathname, ...(range ? { range } : {}) });
    const filePath = url.pathname.startsWith(prefix) ? decodeURIComponent(url.pathname.slice(prefix.length)) : '';
    const file = files.find((candidate) => candidate.path === filePath);
    if (!file) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    const fault = faults.get(file.path)?.shift();
    if (fault?.kind === 'status') {
      res.writeHead(fault.status).end('error');
      return;
    }
    let body = file.body;
    if (fault?.kind === 'corrupt') {
      body = Buffer.from(body);
      body[body.length >> 1] = (body[body.length >> 1]! + 1) & 0xff;
    }
    let start = 0;
    const match = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (match) {
      start = Number(match[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
    }
    const part = body.subarray(start);
    res.writeHead(match ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(part.length),
      'accept-ranges': 'bytes',
      ...(match ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (fault?.kind === 'truncate') {
      // The connection drops a moment after the bytes went out, as a network that breaks mid-file
      // does: dropped at once, the client may lose the bytes it had not yet written to its partial
      // file (a stream torn down by the error discards its pending write), and nothing is resumed.
      res.write(part.subarray(0, fault.bytes), () => setTimeout(() => res.destroy(), 200));
      return;
    }
    res.end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${repo}`,
    requests,
    files,
    fail(path, fault) {
      faults.set(path, [...(faults.get(path) ?? []), fault]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
