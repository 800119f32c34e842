import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@reelsmith/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * Serves the built web app from WEB_DIST_DIR. Client-side routes (/videos, /settings, ...) get
 * index.html; everything else unknown is a JSON 404 in the error format.
 */
export const staticWebPlugin = fp(
  async (app) => {
    const root = app.config.paths.webDistDir;
    const hasBuild = existsSync(join(root, 'index.html'));
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
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
    } else {
      app.log.warn({ webDistDir: root }, 'web app not built: only the API is served (run npm run build:web)');
    }

    app.setNotFoundHandler(async (request, reply) => {
      if (hasBuild && wantsAppPage(request)) {
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', root);
      }
      const path = request.url.split('?')[0] ?? request.url;
      return reply.code(404).send({ statusCode: 404, error: statusText(404), message: `${MESSAGES.notFound}: ${request.method} ${path}` });
    });
  },
  { name: 'static-web', fastify: '5.x', dependencies: ['config', 'error-handler'] },
);
