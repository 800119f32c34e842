import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HttpError } from '../errors.js';
import { embedDemoPage, notAllowedPage } from './embed-pages.js';

export const EMBED_NOT_BUILT_MESSAGE = 'The embeddable studio is not built on this server (run npm run build:web)';

/** Who may frame /embed: this server's own pages plus EMBED_ALLOWED_ORIGINS, and nobody else. */
export function embedFrameAncestors(allowedOrigins: readonly string[]): string[] {
  return ["'self'", ...allowedOrigins];
}

const requestOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/**
 * The embeddable studio: GET /embed.js (the partner page's loader), GET /embed (the studio page a
 * partner frames, only from EMBED_ALLOWED_ORIGINS) and, with EMBED_DEMO=true, /embed/demo.
 * Every other response keeps the security headers' `frame-ancestors 'none'`; /embed's route config
 * widens it to the allowed origins and leaves the rest of the CSP as it is.
 */
export const embedPlugin = fp(
  async (app) => {
    const { webDistDir } = app.config.paths;
    const allowed = app.config.embedAllowedOrigins;
    const frameAncestors = embedFrameAncestors(allowed);

    const notBuilt = () => new HttpError(503, EMBED_NOT_BUILT_MESSAGE);
    // Read on each request (both are small), so a rebuild is served without a restart, like index.html.
    const assetsDir = join(webDistDir, 'assets');
    const readLoader = async (): Promise<Buffer> => {
      const names = await readdir(assetsDir).catch(() => [] as string[]);
      const name = names.find((file) => /^embed-loader-[\w-]+\.js$/.test(file));
      if (!name) throw notBuilt();
      return readFile(join(assetsDir, name));
    };
    const readEmbedPage = (): Promise<string> => readFile(join(webDistDir, 'embed.html'), 'utf8').catch(() => Promise.reject(notBuilt()));

    app.get('/embed.js', async (_request, reply) => {
      const loader = await readLoader();
      // Partners load a fixed URL, so it is re-checked often; the file itself is tiny.
      return reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(loader);
    });

    app.get<{ Querystring: { parentOrigin?: string } }>('/embed', { config: { frameAncestors } }, async (request, reply: FastifyReply) => {
      const embedPage = await readEmbedPage();
      const parentOrigin = request.query.parentOrigin;
      if (parentOrigin && parentOrigin !== requestOrigin(request) && !allowed.includes(parentOrigin)) {
        return reply.code(403).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(notAllowedPage(parentOrigin));
      }
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(embedPage);
    });

    if (app.config.embedDemo) {
      app.get('/embed/demo', async (request, reply) => {
        // The demo page frames this server's own /embed, which the global CSP's frame-src 'none' forbids.
        const policy = reply.raw.getHeader('content-security-policy');
        if (typeof policy === 'string')
          reply.raw.setHeader('content-security-policy', policy.replace(/frame-src [^;]*/, "frame-src 'self'"));
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(embedDemoPage(requestOrigin(request)));
      });
      app.get('/embed/demo.js', async (_request, reply) => reply.type('application/javascript; charset=utf-8').send(DEMO_SCRIPT));
    }
  },
  { name: 'embed', fastify: '5.x', dependencies: ['config', 'error-handler', 'security-headers'] },
);

// An external script, not inline, so a strict script-src CSP can cover the demo page.
const DEMO_SCRIPT = `const log = document.getElementById('events');
Reelsmith.mount(document.getElementById('studio'), {
  mode: 'studio',
  topic: 'Why octopuses have three hearts',
  onEvent(event) {
    if (event.type === 'resize') return;
    const line = document.createElement('li');
    line.textContent = JSON.stringify(event);
    log.prepend(line);
  },
});`;
