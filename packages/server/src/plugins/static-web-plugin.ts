import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@reelsmith/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { statusText } from '../errors.js';
import { sendAsSubresource } from './security-headers-plugin.js';

/** Paths owned by the API, the live connection and file downloads: never answered with the web app. */
export const SERVER_PATH_PREFIXES = [
  '/api',
  '/auth',
  '/payments',
  '/extension-api',
  '/voices',
  '/providers',
  '/health',
  '/socket.io',
  '/output',
  '/audio',
  '/policies',
] as const;

function isServerPath(path: string): boolean {
  return SERVER_PATH_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Source maps carry the product's sources: never answered, whatever the folder holds. */
export const isSourceMapPath = (path: string): boolean => /\.map$/i.test(path.split('?')[0] ?? '');

/** A path whose last segment has an extension asks for a file, not a page of the app. */
const looksLikeAsset = (path: string): boolean => /\.[a-z0-9]+$/i.test(path.split('/').pop() ?? '');

function wantsAppPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (isServerPath(path) || looksLikeAsset(path)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/** The app page of a server without example videos: `<html class="rs-no-gallery">`, which hides the gallery's frame from the first paint. */
export function withoutGalleryFrame(html: string): string {
  return html.replace(/<html(?![^>]*\bclass=)/i, '<html class="rs-no-gallery"');
}

/** An HTML page kept in memory with its brotli and gzip forms, sent in the best form the client accepts. */
function precompressedPage(html: string) {
  const raw = Buffer.from(html);
  const forms = { br: brotliCompressSync(raw), gzip: gzipSync(raw, { level: 9 }) };
  // no-cache revalidates: the page keeps a validator, and an unchanged page is a 304.
  const etag = `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`;
  return (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers['if-none-match'] === etag) return reply.code(304).header('etag', etag).header('cache-control', 'no-cache').send();
    reply.header('etag', etag);
    const accepted = request.headers['accept-encoding'] ?? '';
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
    reply.header('cache-control', 'no-cache').header('vary', 'Accept-Encoding').type('text/html; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding ? forms[encoding] : raw);
  };
}

/**
 * Serves the built web app from WEB_DIST_DIR. Client-side routes (/videos, /settings, ...) get
 * index.html; everything else unknown is a JSON 404 in the error format.
 */
export const staticWebPlugin = fp(
  async (app) => {
    const root = app.config.paths.webDistDir;
    const hasBuild = existsSync(join(root, 'index.html'));
    // Without example videos the page says so before its first paint (the prerendered frame would
    // otherwise show and then go); every app page is then this one, kept in memory.
    const sendAppPage =
      hasBuild && !app.config.galleryExamples
        ? precompressedPage(withoutGalleryFrame(readFileSync(join(root, 'index.html'), 'utf8')))
        : null;
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: true,
        index: sendAppPage ? false : ['index.html'],
        // The build writes .br and .gz beside each text file; the best one the client accepts is sent
        // as it is (with Vary: Accept-Encoding), so nothing is compressed per request.
        preCompressed: true,
        // Source maps stay on the build machine (they show the source to anyone): a request for one is a plain 404.
        allowedPath: (pathName) => !isSourceMapPath(pathName),
        setHeaders(reply, filePath) {
          // Vite fingerprints everything under assets/, so those never change; index.html always may.
          const immutable = filePath.includes(`${join(root, 'assets')}`);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
          if (immutable && !filePath.endsWith('.html')) sendAsSubresource(reply);
        },
      });
      // The static files' own '/' would answer a folder without an index with 403.
      if (sendAppPage) app.get('/', async (request, reply) => sendAppPage(request, reply));
    } else {
      app.log.warn({ webDistDir: root }, 'web app not built: only the API is served (run npm run build:web)');
    }

    app.setNotFoundHandler(async (request, reply) => {
      if (sendAppPage && (wantsAppPage(request) || request.url.split('?')[0] === '/')) return sendAppPage(request, reply);
      if (hasBuild && wantsAppPage(request)) {
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', root);
      }
      const path = request.url.split('?')[0] ?? request.url;
      return reply.code(404).send({ statusCode: 404, error: statusText(404), message: `${MESSAGES.notFound}: ${request.method} ${path}` });
    });
  },
  { name: 'static-web', fastify: '5.x', dependencies: ['config', 'error-handler'] },
);
