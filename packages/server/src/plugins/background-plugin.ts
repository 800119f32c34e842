import fp from 'fastify-plugin';
import { BackgroundGate } from './background-gate.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** When the server's own background work may run: not while creators' jobs or requests wait. */
    background: BackgroundGate;
  }
}

/**
 * Requests that are no creator's demand, by method and route: load balancers' and Kubernetes' probes,
 * Prometheus scrapes, and what the studio polls on its own while a page is open (its video list,
 * job status, storage, a batch's or a publication's progress, the voice sample and gallery states,
 * the admin's figures). A settled server polled every second by any of them was never quiet for the
 * gate's second, so its background work never ran. What a creator does (a page, a generate, an edit)
 * still counts.
 */
const NOT_DEMAND = new Set([
  'GET /health',
  'GET /ready',
  'GET /metrics',
  'GET /api/videos',
  'GET /api/videos/:id/status',
  'GET /api/videos/:id/publications',
  'GET /api/storage/stats',
  'GET /api/batches/:id',
  'GET /api/voice-samples/stats',
  'GET /api/voice-providers/config',
  'GET /api/gallery',
  'GET /api/webhooks/:id/deliveries',
]);
/** The admin pages refresh their figures on their own (every 30 s): reading them is polling too. */
const POLLED_PREFIXES = ['/api/admin/'];

/** Whether a request is a creator's demand that background work yields to (see NOT_DEMAND). */
export function isDemandRequest(method: string, route: string | undefined): boolean {
  if (!route) return true;
  const read = method === 'GET' || method === 'HEAD';
  if (!read) return true;
  if (NOT_DEMAND.has(`GET ${route}`)) return false;
  return !POLLED_PREFIXES.some((prefix) => route.startsWith(prefix));
}

/** Counts the requests being answered into the background gate; the jobs plugin adds the creators' jobs. */
export const backgroundPlugin = fp<{ gate?: BackgroundGate }>(
  async (app, options) => {
    const gate = options.gate ?? new BackgroundGate();
    app.decorate('background', gate);
    // A request is ended once, whichever comes first: its answer sent, or the client giving up.
    const open = new WeakSet<object>();
    const end = (request: object) => {
      if (open.delete(request)) gate.requestEnded();
    };
    app.addHook('onRequest', async (request) => {
      if (!isDemandRequest(request.method, request.routeOptions.url)) return;
      open.add(request);
      gate.requestStarted();
    });
    app.addHook('onResponse', async (request) => end(request));
    app.addHook('onRequestAbort', async (request) => end(request));
  },
  { name: 'background', fastify: '5.x' },
);
