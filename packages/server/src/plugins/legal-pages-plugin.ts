import fastifyStatic from '@fastify/static';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';

export const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');

/** Pages linked from the app's legal links (terms, privacy, pricing policy, contact), served as they are. */
export const LEGAL_PAGE_PATHS = [
  '/policies/terms-conditions.html',
  '/policies/privacy-policy.html',
  '/policies/pricing-policy.html',
  '/contact.html',
] as const;

/**
 * Serves packages/server/public: one route per file found at start-up (no wildcard), so it sits
 * beside the web app's catch-all without conflict.
 */
export const legalPagesPlugin = fp(
  async (app) => {
    await app.register(fastifyStatic, {
      root: PUBLIC_DIR,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      cacheControl: true,
      maxAge: '1h',
    });
  },
  { name: 'legal-pages', fastify: '5.x' },
);
