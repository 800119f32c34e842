import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, PAGE_MESSAGES, PageFetchError } from './fetch-page.js';

let server: Server;
let base: string;
let served = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    served += 1;
    if (request.url === '/meta-charset') {
      // No charset in the header: the document names its own.
      const body = Buffer.concat([
        Buffer.from('<html><head><meta charset="windows-1252"></head><body><p>'),
        Buffer.from('Caf\u00e9 cr\u00e8me \u0093quoted\u0094', 'latin1'),
        Buffer.from('</p></body></html>'),
      ]);
      return void response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    }
    if (request.url === '/declared-large')
      return void response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(3 * 1024 * 1024) }).end();
    if (request.url === '/relative') return void response.writeHead(302, { location: 'meta-charset' }).end();
    if (request.url === '/ftp') return void response.writeHead(302, { location: 'ftp://files.example/a.txt' }).end();
    if (request.url === '/teapot') return void response.writeHead(418).end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PageFetchError);
  return (error as Error).message;
}

describe('fetchPage', () => {
  it('decodes with the charset the document names, after a relative redirect', async () => {
    const page = await fetchPage(`${base}/relative`, { allowPrivate: true });
    expect(page).toMatchObject({ url: `${base}/meta-charset`, kind: 'html' });
    expect(page.text).toContain('Café crème “quoted”');
  });

  it('refuses a body declared larger than the cap without reading it', async () => {
    expect(await failure(fetchPage(`${base}/declared-large`, { allowPrivate: true }))).toBe(PAGE_MESSAGES.tooLarge);
  });

  it('refuses a redirect to another scheme and an answer that is not a page', async () => {
    expect(await failure(fetchPage(`${base}/ftp`, { allowPrivate: true }))).toBe(PAGE_MESSAGES.protocol('ftp:'));
    expect(await failure(fetchPage(`${base}/teapot`, { allowPrivate: true }))).toBe(PAGE_MESSAGES.refused(418));
  });

  it('refuses a private address before connecting to it', async () => {
    const before = served;
    expect(await failure(fetchPage(`${base}/meta-charset`, { allowPrivate: false }))).toBe(PAGE_MESSAGES.addressNotAllowed('127.0.0.1'));
    expect(await failure(fetchPage('http://localhost:1/', { allowPrivate: false }))).toBe(PAGE_MESSAGES.addressNotAllowed('localhost'));
    expect(served).toBe(before);
  });
});
