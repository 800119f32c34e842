import { API } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { notFound } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { buildOpenApiDocument } from './openapi-document.js';

const require = createRequire(import.meta.url);
/** Swagger UI from npm, served by us: the reference page loads nothing from a CDN. */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reelsmith API reference</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/docs-init.js"></script>
</body>
</html>`;

// An external file, not an inline script, so a strict script-src CSP can cover the page.
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true, tryItOutEnabled: false });`;

/** GET /api/openapi.json (generated from the contracts) and the reference page at /api/docs. */
export const openApiPlugin = fp(
  async (app) => {
    const document = buildOpenApiDocument();
    registerRoute(app, API.openApi, async () => document);

    app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_PAGE),
    );
    app.get('/api/docs/assets/docs-init.js', async (_request, reply) =>
      reply.type('application/javascript; charset=utf-8').send(DOCS_INIT),
    );
    app.get<{ Params: { file: string } }>('/api/docs/assets/:file', async (request, reply) => {
      const type = SWAGGER_UI_FILES[request.params.file];
      if (!type) throw notFound(`No such documentation asset: ${request.params.file}`);
      const body = await readFile(join(SWAGGER_UI_DIR, request.params.file));
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
    });
  },
  { name: 'openapi', fastify: '5.x', dependencies: ['error-handler'] },
);
