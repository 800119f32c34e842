import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, kept so tests can check exactly what the adapter sent. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. /v1/text-to-speech/abc/with-timestamps?output_format=mp3_44100_128 */
  path: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json<T = unknown>(): T;
}

/** A response the fake sends instead of its normal behaviour (errors, malformed output, stalls). */
export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON. */
  body?: string | Buffer | object;
  /** Wait before answering (for timeouts). */
  delayMs?: number;
  /** Never answer: the request stays in flight until the client aborts or the server closes. */
  hang?: boolean;
  /** Drop the connection without answering: a network failure for the client. */
  dropConnection?: boolean;
  /** Only used for a request whose path (without query) ends with this; others get normal behaviour. */
  pathEndsWith?: string;
}

export interface FakeServer {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  requests: RecordedRequest[];
  /** Queue responses for the next matching requests, in order; after them the fake behaves normally. */
  setNext(...responses: ScriptedResponse[]): void;
  close(): Promise<void>;
}

export type FakeHandler = (request: RecordedRequest) => Promise<ScriptedResponse> | ScriptedResponse;

/** A node:http server on 127.0.0.1 at a random port that records requests and plays scripted answers. */
export async function startFakeHttpServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedResponse[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      const path = req.url ?? '/';
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        url: new URL(path, 'http://127.0.0.1'),
        headers: req.headers,
        body,
        text,
        json: <T>() => JSON.parse(text) as T,
      };
      requests.push(recorded);
      const index = queue.findIndex((scripted) => !scripted.pathEndsWith || recorded.url.pathname.endsWith(scripted.pathEndsWith));
      const scripted = index >= 0 ? queue.splice(index, 1)[0] : undefined;
      Promise.resolve(scripted ?? handler(recorded))
        .then((response) => send(res, response))
        .catch((error: unknown) => send(res, { status: 500, body: { error: { message: String(error) } } }));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setNext: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function send(res: ServerResponse, response: ScriptedResponse): Promise<void> {
  if (response.dropConnection) {
    res.socket?.destroy();
    return;
  }
  if (response.hang) return;
  if (response.delayMs) await new Promise((resolve) => setTimeout(resolve, response.delayMs));
  if (res.destroyed) return;
  const headers = { ...response.headers };
  let payload: string | Buffer = '';
  if (Buffer.isBuffer(response.body) || typeof response.body === 'string') payload = response.body;
  else if (response.body !== undefined) {
    payload = JSON.stringify(response.body);
    headers['Content-Type'] ??= 'application/json';
  }
  res.writeHead(response.status, headers);
  res.end(payload);
}
