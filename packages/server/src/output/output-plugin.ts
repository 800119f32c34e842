import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import { OUTPUT_URL_PREFIX } from './output-files.js';

/** Each video's directory name is 128 random bits and never reused, so its files never change. */
const OUTPUT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Only `/<32 hex>/<file>.mp4|.jpg` is ever served: no listing, no other depth, nothing else in the folder. */
const OUTPUT_FILE_PATH = /^\/[0-9a-f]{32}\/[a-z0-9-]+\.(mp4|jpg)$/;

/** `attachment; filename="..."`, with an RFC 5987 form for anything outside plain ASCII. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Finished videos and posters under /output/<token>/<name>, from DATA_DIR/output: range requests
 * (video seeking), ETag and caching; `?download=1` adds Content-Disposition so the browser saves the
 * file instead of playing it. The unguessable token directory is the access control, as the spec's
 * plain /output URLs (used by <video src> and downloads) cannot carry a bearer token.
 */
export const outputPlugin = fp(
  async (app) => {
    mkdirSync(app.config.paths.outputDir, { recursive: true });
    await app.register(async (scope) => {
      await scope.register(fastifyStatic, {
        root: app.config.paths.outputDir,
        prefix: `${OUTPUT_URL_PREFIX}/`,
        decorateReply: false,
        index: false,
        list: false,
        dotfiles: 'deny',
        acceptRanges: true,
        etag: true,
        lastModified: true,
        cacheControl: false,
        allowedPath: (pathName) => OUTPUT_FILE_PATH.test(pathName),
        setHeaders(reply, filePath) {
          reply.header('cache-control', `private, max-age=${OUTPUT_MAX_AGE_MS / 1000}, immutable`);
          reply.header('x-content-type-options', 'nosniff');
          const query = reply.request.query as Record<string, unknown> | undefined;
          if (query?.download === '1' || query?.download === 'true') reply.header('content-disposition', attachmentDisposition(basename(filePath)));
        },
      });
    });
  },
  { name: 'output', fastify: '5.x', dependencies: ['config'] },
);
