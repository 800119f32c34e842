import http from 'node:http';
import https from 'node:https';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { LookupAddress } from 'node:dns';
import { isPublicAddress, publicOnlyLookup, resolveHost } from '../outbound/webhook-address.js';

export const PAGE_TIMEOUT_MS = 10_000;
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const PAGE_MAX_REDIRECTS = 3;

/** Why a page could not be read; the message is said to the creator as it is. */
export class PageFetchError extends Error {}

export const PAGE_MESSAGES = {
  protocol: (protocol: string) => `Only http and https links can be read; this one is ${protocol.replace(/:$/, '')}.`,
  addressNotAllowed: (host: string) =>
    `The address ${host} is not allowed: it resolves to a loopback, private, link-local or metadata address. Paste the article's text instead.`,
  unresolvable: (host: string) => `The page could not be found: no server answers to ${host}. Check the link.`,
  notFound: (status: number) => `The page was not found (the site answered HTTP ${status}). Check the link.`,
  refused: (status: number) => `The site refused to send the page (HTTP ${status}). Paste the article's text instead.`,
  tooManyRedirects: `The link redirects more than ${PAGE_MAX_REDIRECTS} times. Paste the address the page finally opens at.`,
  timedOut: `The page did not arrive within ${PAGE_TIMEOUT_MS / 1000} seconds. Try again later, or paste the article's text.`,
  tooLarge: `The page is larger than ${PAGE_MAX_BYTES / 1024 / 1024} MB. Paste the article's text instead.`,
  notText: (type: string) =>
    `The link is not a web page or text (it is ${type || 'of an unknown type'}). Give the link of an article, or paste its text.`,
  unreachable: (reason: string) => `The page could not be fetched (${reason}). Check the link, or paste the article's text.`,
  encoding: (encoding: string) =>
    `The site sent the page compressed as ${encoding}, which cannot be read (gzip, deflate and brotli can). Paste the article's text instead.`,
  damaged: (encoding: string) => `The site sent a damaged ${encoding}-compressed page. Try again later, or paste the article's text.`,
} as const;

export interface FetchedPage {
  /** Where the page was finally read, after redirects. */
  url: string;
  kind: 'html' | 'text';
  text: string;
}

export interface FetchPageOptions {
  /** Lifts the address guard (SOURCE_ALLOW_PRIVATE): tests and intranets. */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * GETs a web page for a video source. Only http and https; unless allowed, the host must resolve to
 * public addresses only, checked before each request and again at connect time (a name re-pointed
 * in between is caught), on the first address and on every redirect (at most three). The whole
 * exchange has one deadline, the body a size cap, and only HTML or plain text is read, decoded with
 * the charset the headers or the document name.
 */
export async function fetchPage(address: string, options: FetchPageOptions): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? PAGE_MAX_BYTES;
  const deadline = AbortSignal.timeout(timeoutMs);
  let url = new URL(address);
  for (let hop = 0; ; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PageFetchError(PAGE_MESSAGES.protocol(url.protocol));
    if (!options.allowPrivate) await refuseUnlessPublic(url.hostname);
    const response = await get(url, deadline, options.allowPrivate);
    if (response.status >= 300 && response.status < 400 && response.location) {
      response.discard();
      if (hop >= PAGE_MAX_REDIRECTS) throw new PageFetchError(PAGE_MESSAGES.tooManyRedirects);
      url = new URL(response.location, url);
      continue;
    }
    if (response.status === 404 || response.status === 410) {
      response.discard();
      throw new PageFetchError(PAGE_MESSAGES.notFound(response.status));
    }
    if (response.status < 200 || response.status >= 300) {
      response.discard();
      throw new PageFetchError(PAGE_MESSAGES.refused(response.status));
    }
    const type = (response.contentType.split(';')[0] ?? '').trim().toLowerCase();
    const kind = type === 'text/html' || type === 'application/xhtml+xml' ? 'html' : type === 'text/plain' ? 'text' : null;
    if (!kind) {
      response.discard();
      throw new PageFetchError(PAGE_MESSAGES.notText(type));
    }
    if (response.contentLength !== null && response.contentLength > maxBytes) {
      response.discard();
      throw new PageFetchError(PAGE_MESSAGES.tooLarge);
    }
    const body = await response.read(maxBytes);
    return { url: url.toString(), kind, text: decode(body, response.contentType, kind) };
  }
}

async function refuseUnlessPublic(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(host);
  } catch {
    throw new PageFetchError(PAGE_MESSAGES.unresolvable(host));
  }
  if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
    throw new PageFetchError(PAGE_MESSAGES.addressNotAllowed(host));
  }
}

interface PendingResponse {
  status: number;
  location: string | null;
  contentType: string;
  contentLength: number | null;
  discard(): void;
  read(maxBytes: number): Promise<Buffer>;
}

function get(url: URL, deadline: AbortSignal, allowPrivate: boolean): Promise<PendingResponse> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => reject(toPageError(error, deadline));
    const request = client.request(
      url,
      {
        method: 'GET',
        headers: {
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': 'Mozilla/5.0 (compatible; Reelsmith/1; reads an article to narrate it)',
        },
        signal: deadline,
        // The connection itself re-checks the name's addresses, so DNS cannot be re-pointed after the check.
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        const header = (name: string) => {
          const value = response.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        const length = Number(header('content-length'));
        resolve({
          status: response.statusCode ?? 0,
          location: header('location') ?? null,
          contentType: header('content-type') ?? '',
          contentLength: Number.isFinite(length) && header('content-length') !== undefined ? length : null,
          discard: () => response.destroy(),
          read: (maxBytes) =>
            new Promise<Buffer>((done, failRead) => {
              const encoding = (header('content-encoding') ?? '').trim().toLowerCase();
              const decoder = decoderFor(encoding);
              if (decoder === undefined) {
                response.destroy();
                failRead(new PageFetchError(PAGE_MESSAGES.encoding(encoding)));
                return;
              }
              // The size cap counts the decoded bytes: a small compressed body can inflate a thousandfold.
              const body: Readable = decoder ? response.pipe(decoder) : response;
              const chunks: Buffer[] = [];
              let size = 0;
              body.on('data', (chunk: Buffer) => {
                size += chunk.length;
                if (size > maxBytes) {
                  response.destroy();
                  decoder?.destroy();
                  failRead(new PageFetchError(PAGE_MESSAGES.tooLarge));
                  return;
                }
                chunks.push(chunk);
              });
              body.on('end', () => done(Buffer.concat(chunks)));
              response.on('error', (error) => failRead(toPageError(error, deadline)));
              decoder?.on('error', () => {
                response.destroy();
                failRead(
                  deadline.aborted ? new PageFetchError(PAGE_MESSAGES.timedOut) : new PageFetchError(PAGE_MESSAGES.damaged(encoding)),
                );
              });
              response.on('close', () => {
                if (deadline.aborted) failRead(new PageFetchError(PAGE_MESSAGES.timedOut));
              });
            }),
        });
      },
    );
    request.on('error', fail);
    request.end();
  });
}

/**
 * The stream that decodes a Content-Encoding: null for none, undefined for one that is not read
 * (zstd, compress, a list of several).
 */
function decoderFor(encoding: string): Transform | null | undefined {
  if (encoding === '' || encoding === 'identity') return null;
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  // Servers send "deflate" both with and without its zlib header; unzip reads either.
  if (encoding === 'deflate') return zlib.createUnzip();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

function toPageError(error: unknown, deadline: AbortSignal): PageFetchError {
  if (error instanceof PageFetchError) return error;
  if (deadline.aborted) return new PageFetchError(PAGE_MESSAGES.timedOut);
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new PageFetchError(PAGE_MESSAGES.unreachable("the site's name does not resolve"));
  if (code === 'ECONNREFUSED') return new PageFetchError(PAGE_MESSAGES.unreachable('the site refused the connection'));
  const message = error instanceof Error ? error.message : String(error);
  // The connect-time guard's refusal: the name was re-pointed to a private address after the check.
  if (/loopback, private, link-local or metadata/.test(message)) return new PageFetchError(PAGE_MESSAGES.addressNotAllowed('of this link'));
  return new PageFetchError(PAGE_MESSAGES.unreachable(code ?? 'the connection failed'));
}

/** The charset the Content-Type header names, else the document's own meta tag (HTML), else a BOM, else UTF-8. */
function decode(body: Buffer, contentType: string, kind: 'html' | 'text'): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  const head = body.subarray(0, 4096).toString('latin1');
  const fromDocument = kind === 'html' ? (/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ?? null) : null;
  const fromBom =
    body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf
      ? 'utf-8'
      : body[0] === 0xff && body[1] === 0xfe
        ? 'utf-16le'
        : body[0] === 0xfe && body[1] === 0xff
          ? 'utf-16be'
          : null;
  for (const label of [fromHeader, fromDocument, fromBom, 'utf-8']) {
    if (!label) continue;
    try {
      const decoder = new TextDecoder(label.toLowerCase());
      if (decoder.encoding === 'windows-1252') return decodeWindows1252(body);
      return decoder.decode(body);
    } catch {
      // An unknown charset name: try the next source of one.
    }
  }
  return body.toString('utf8');
}

/** What windows-1252 puts at 0x80–0x9F (curly quotes, dashes, €); undefined bytes stay as they are. */
const WINDOWS_1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/**
 * Pages labelled windows-1252, ISO-8859-1 or ASCII (the web reads all three as windows-1252).
 * Node's TextDecoder decodes this label as Latin-1, which turns curly quotes and dashes into
 * control characters, so the 32 bytes that differ are mapped here.
 */
function decodeWindows1252(body: Buffer): string {
  let text = '';
  for (const byte of body) text += byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return text;
}
