import fp from 'fastify-plugin';
import { BackgroundGate } from './background-gate.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** When the server's own background work may run: not while creators' jobs or requests wait. */
    background: BackgroundGate;
  }
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
      open.add(request);
      gate.requestStarted();
    });
    app.addHook('onResponse', async (request) => end(request));
    app.addHook('onRequestAbort', async (request) => end(request));
  },
  { name: 'background', fastify: '5.x' },
);
