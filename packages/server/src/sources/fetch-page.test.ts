import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { rejectionOf } from '@reelsmith/pipeline/testing';
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
    const compressed = /^\/(gzip|deflate|br|zstd|bomb|damaged)$/.exec(request.url ?? '')?.[1];
    if (compressed) {
      const page = Buffer.from(`<html><body><p>${compressed} page: ${'Tea is steeped in hot water. '.repeat(20)}</p></body></html>`);
      const encoded =
        compressed === 'gzip'
          ? gzipSync(page)
          : compressed === 'deflate'
            ? deflateSync(page)
            : compressed === 'br'
              ? brotliCompressSync(page)
              : compressed === 'bomb'
                ? // 4 MB of zeros, about 4 KB on the wire.
                  gzipSync(Buffer.alloc(4 * 1024 * 1024))
                : compressed === 'damaged'
                  ? gzipSync(page).subarray(0, 40)
                  : page;
      const encoding = compressed === 'bomb' || compressed === 'damaged' ? 'gzip' : compressed;
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': encoding }).end(encoded);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<string> {
  return (await rejectionOf(promise, PageFetchError)).message;
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

  it('decodes gzip, deflate and brotli pages, and asks for them', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const page = await fetchPage(`${base}/${encoding}`, { allowPrivate: true });
      expect(page.text).toContain(`${encoding} page: Tea is steeped in hot water.`);
    }
  });

  it('applies the size cap to the decoded bytes, and refuses an unreadable or damaged encoding with a message', async () => {
    expect(await failure(fetchPage(`${base}/bomb`, { allowPrivate: true }))).toBe(PAGE_MESSAGES.tooLarge);
    expect(await failure(fetchPage(`${base}/zstd`, { allowPrivate: true }))).toBe(PAGE_MESSAGES.encoding('zstd'));
    expect(await failure(fetchPage(`${base}/damaged`, { allowPrivate: true }))).toBe(PAGE_MESSAGES.damaged('gzip'));
  });

  it('refuses a private address before connecting to it', async () => {
    const before = served;
    expect(await failure(fetchPage(`${base}/meta-charset`, { allowPrivate: false }))).toBe(PAGE_MESSAGES.addressNotAllowed('127.0.0.1'));
    expect(await failure(fetchPage('http://localhost:1/', { allowPrivate: false }))).toBe(PAGE_MESSAGES.addressNotAllowed('localhost'));
    expect(served).toBe(before);
  });
});
