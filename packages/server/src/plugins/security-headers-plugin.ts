import { WEB_SHELL_BOOT_SCRIPT } from '@reelsmith/contracts';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Origins allowed to frame this route (CSP frame-ancestors). Unset: nobody ('none'), the
     * default for every answer. An embed route declares `config: { frameAncestors: [...] }`.
     */
    frameAncestors?: readonly string[];
  }
}

const GOOGLE_IDENTITY = {
  script: ['https://accounts.google.com/gsi/client'],
  style: ['https://accounts.google.com/gsi/style'],
  frame: ['https://accounts.google.com/gsi/'],
  connect: ['https://accounts.google.com/gsi/'],
  img: ['https://*.googleusercontent.com'],
};

// Razorpay's checkout.js opens its form in an iframe from its own hosts and reports to them.
const RAZORPAY_CHECKOUT = {
  script: ['https://checkout.razorpay.com'],
  style: [] as string[],
  frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
  connect: ['https://api.razorpay.com', 'https://lumberjack.razorpay.com'],
  img: ['https://cdn.razorpay.com'],
};

/** The one inline script index.html carries (its first paint picks the splash or the studio), allowed by hash. */
export const WEB_SHELL_SCRIPT_HASH = `'sha256-${createHash('sha256').update(WEB_SHELL_BOOT_SCRIPT).digest('base64')}'`;

const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * The Content-Security-Policy directives for this configuration: scripts only from this origin
 * (no inline scripts but index.html's boot script, pinned by its hash), with Google's and Razorpay's script hosts added only when those are
 * configured. Styles allow 'unsafe-inline' because the toaster and Google's button inject style
 * elements at run time; styles cannot run code.
 */
export function contentSecurityDirectives(config: Pick<Config, 'google' | 'razorpay'>): Record<string, string[]> {
  const extras = [config.google.clientId ? GOOGLE_IDENTITY : null, config.razorpay ? RAZORPAY_CHECKOUT : null].filter((e) => e !== null);
  const from = (key: keyof typeof GOOGLE_IDENTITY) => extras.flatMap((e) => e[key]);
  const frames = from('frame');
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", WEB_SHELL_SCRIPT_HASH, ...from('script')],
    'style-src': ["'self'", "'unsafe-inline'", ...from('style')],
    'img-src': ["'self'", 'data:', 'blob:', ...from('img')],
    'media-src': ["'self'", 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...from('connect')],
    'frame-src': frames.length > 0 ? frames : ["'none'"],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Lets the given origins frame this answer: rewrites CSP frame-ancestors and drops X-Frame-Options
 * (which cannot name origins). For handlers that decide at run time; routes that always allow the
 * same origins use `config: { frameAncestors }` instead.
 */
export function allowFramingBy(reply: FastifyReply, origins: readonly string[]): void {
  const raw = reply.raw;
  const policy = raw.getHeader('content-security-policy');
  const ancestors = origins.length > 0 ? origins.join(' ') : "'none'";
  if (typeof policy === 'string') {
    raw.setHeader('content-security-policy', policy.replace(/frame-ancestors [^;]*/, `frame-ancestors ${ancestors}`));
  }
  if (origins.length > 0) raw.removeHeader('x-frame-options');
}

/**
 * The headers helmet sets for these options, computed once. Helmet's middleware only sets fixed
 * headers when no CSP nonces are used, so running it per request (as @fastify/helmet does, rebuilding
 * the middleware from its options for every request: 6% of the status route's CPU) repeats the same
 * work; we run helmet once against a recorder and replay its answer.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return headers;
}

/**
 * Headers that govern a document (its CSP, framing, window and process isolation, legacy IE/Flash
 * switches). Browsers ignore them on a subresource, and the web app starts no workers (whose scripts
 * would take their CSP from their own response). On a phone's first load each of a dozen scripts
 * carried about 700 bytes of them, on a load that must stay small. nosniff, the resource and referrer policies stay:
 * they do apply to scripts (a module script's referrer policy governs its imports).
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

/** For a fingerprinted build file being sent (never a page): drops the document-only headers. */
export function sendAsSubresource(reply: FastifyReply): void {
  for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
  // Cached as immutable for a year, so never revalidated: the validators would be dead weight.
  reply.removeHeader('etag');
  reply.removeHeader('last-modified');
}

/**
 * Security headers on every answer (helmet): a strict CSP, frame-ancestors 'none' and
 * X-Frame-Options DENY unless the route says otherwise, nosniff, a strict referrer policy, and HSTS
 * only when the request came over TLS (directly, or through a trusted proxy's X-Forwarded-Proto).
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    const headers = helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(app.config) },
      // Sent per request below: HSTS over plain HTTP would be ignored at best and wrong behind a TLS-less dev proxy.
      strictTransportSecurity: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // Google's sign-in popup talks back to its opener.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      // Rendered videos and images are fetched by the extension from another origin.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    });
    const names = Object.keys(headers);
    app.addHook('onRequest', async (request, reply) => {
      const raw = reply.raw;
      for (const name of names) raw.setHeader(name, headers[name]!);
      // request.protocol honours X-Forwarded-Proto only when TRUST_PROXY trusts the sender.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
      const frameAncestors = request.routeOptions.config?.frameAncestors;
      if (frameAncestors) allowFramingBy(reply, frameAncestors);
    });
  },
  { name: 'security-headers', fastify: '5.x', dependencies: ['config'] },
);
