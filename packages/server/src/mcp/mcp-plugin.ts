import { API_KEY_HEADER, errorResponseSchema } from '@reelsmith/contracts';
import { handleMcpHttpRequest } from '@reelsmith/mcp';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OutgoingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { badRequest, HttpError, statusText, tooManyRequests, unauthorized } from '../errors.js';
import { perUserPerMinute } from '../http/rate-limit-keys.js';

export const MCP_PATH = '/mcp';
export const MCP_KEY_REQUIRED_MESSAGE =
  'The MCP server needs your API key: send it as "Authorization: Bearer <key>" or in the x-api-key header (Settings → Developer makes one)';
export const MCP_STATELESS_MESSAGE =
  'This MCP server is stateless: send JSON-RPC messages with POST /mcp (there is no server-to-client stream to open and no session to end)';

/**
 * The most JSON-RPC messages one POST may carry. Each tool call is API work (a waiting
 * get_video_status holds a call for up to 50 s), so a batch of 100 is refused before anything runs.
 */
export const MCP_MAX_MESSAGES_PER_REQUEST = 4;
/** /mcp requests of one account per minute, and under way at once. */
export const MCP_REQUESTS_PER_MINUTE = 120;
export const MCP_CONCURRENT_REQUESTS = 4;
/** get_video_status calls of one account that may wait at once; the others answer at once. */
export const MCP_WAITING_CALLS = 4;
/** A waiting call reads the video at most this often, however many progress events it hears. */
const MCP_WAIT_MIN_READ_INTERVAL_MS = 1_000;

export const MCP_LIMIT_MESSAGES = {
  batch: `Send at most ${MCP_MAX_MESSAGES_PER_REQUEST} JSON-RPC messages in one request.`,
  concurrent: `You already have ${MCP_CONCURRENT_REQUESTS} MCP requests under way; wait for one to finish, then try again.`,
  rate: `At most ${MCP_REQUESTS_PER_MINUTE} MCP requests a minute; wait a moment, then try again.`,
} as const;

/** A JSON-RPC message or a batch of them; the MCP transport checks the rest. */
const jsonRpcBodySchema = z.union([z.looseObject({ jsonrpc: z.string() }), z.array(z.looseObject({ jsonrpc: z.string() }))]);

function apiKeyOf(request: FastifyRequest): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const header = request.headers[API_KEY_HEADER];
  const key = (Array.isArray(header) ? header[0] : header)?.trim();
  return key || null;
}

function toHeaders(headers: OutgoingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) result.append(name, String(each));
  }
  return result;
}

/**
 * The MCP server's HTTP calls, answered by this server's own routes (Fastify's inject) rather than
 * over a socket: the same authentication, validation, limits and quotas as any API call, with the
 * caller's address, and no second path into the database.
 */
function routesFetch(app: FastifyInstance, caller: FastifyRequest): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const response = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
      remoteAddress: caller.ip,
    });
    const empty = response.statusCode === 204 || response.statusCode === 304 || response.rawPayload.length === 0;
    return new Response(empty ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: toHeaders(response.headers),
    });
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a /mcp request authenticated with; the MCP server makes its API calls with it. */
    mcpApiKey?: string;
  }
}

/**
 * The Model Context Protocol server (packages/mcp) at /mcp, over Streamable HTTP, stateless. The
 * creator's API key authenticates each request (a bearer token or x-api-key) before anything is
 * read, and the tools act with exactly that key's rights.
 */
export const mcpPlugin = fp(
  async (app) => {
    async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const key = apiKeyOf(request);
      if (key === null) {
        reply.header('www-authenticate', 'Bearer realm="reelsmith"');
        throw unauthorized(MCP_KEY_REQUIRED_MESSAGE);
      }
      // The key check of every API route, so a revoked key or a suspended account is refused here too.
      request.headers[API_KEY_HEADER] = key;
      await app.authenticateApiKey.call(app, request, reply);
      request.mcpApiKey = key;
    }

    const errors = { '4xx': errorResponseSchema, '5xx': errorResponseSchema };

    const limitRate = app.createRateLimiter({ ...perUserPerMinute('mcp', MCP_REQUESTS_PER_MINUTE), message: MCP_LIMIT_MESSAGES.rate });
    /** /mcp requests under way, and get_video_status calls waiting, per account. */
    const underWay = new Map<string, number>();
    const waiting = new Map<string, number>();
    const count = (map: Map<string, number>, key: string, by: 1 | -1) => {
      const next = (map.get(key) ?? 0) + by;
      if (next > 0) map.set(key, next);
      else map.delete(key);
    };

    // One listener on the job events for every waiting call: a call waits on its video's id.
    const watchers = new Map<string, Set<(final: boolean) => void>>();
    const onJobEvent = (final: boolean) => (event: { jobId: string }) => {
      for (const watcher of watchers.get(event.jobId) ?? []) watcher(final);
    };
    const onProgress = onJobEvent(false);
    const onFinal = onJobEvent(true);
    app.jobEvents.on('job_progress', onProgress);
    app.jobEvents.on('job_completed', onFinal);
    app.jobEvents.on('job_failed', onFinal);
    app.addHook('preClose', async () => {
      app.jobEvents.off('job_progress', onProgress);
      app.jobEvents.off('job_completed', onFinal);
      app.jobEvents.off('job_failed', onFinal);
      for (const set of watchers.values()) for (const watcher of set) watcher(true);
    });

    /**
     * get_video_status's wait, from the job events instead of a read a second: resolves when the video
     * finishes or fails, or at its next progress at least a second after the wait began, or after
     * `ms`. The account's waiting calls share MCP_WAITING_CALLS; past them it answers false at once.
     */
    function waitForChange(userId: string) {
      return (videoId: string, ms: number, signal: AbortSignal): Promise<boolean> => {
        if ((waiting.get(userId) ?? 0) >= MCP_WAITING_CALLS || signal.aborted) return Promise.resolve(false);
        count(waiting, userId, 1);
        const began = Date.now();
        return new Promise<boolean>((resolve) => {
          let soonest: NodeJS.Timeout | undefined;
          const finish = () => {
            clearTimeout(deadline);
            clearTimeout(soonest);
            signal.removeEventListener('abort', finish);
            const set = watchers.get(videoId);
            set?.delete(watcher);
            if (set?.size === 0) watchers.delete(videoId);
            count(waiting, userId, -1);
            resolve(true);
          };
          const watcher = (final: boolean) => {
            if (final) return finish();
            const early = MCP_WAIT_MIN_READ_INTERVAL_MS - (Date.now() - began);
            if (early <= 0) return finish();
            soonest ??= setTimeout(finish, early);
          };
          const deadline = setTimeout(finish, Math.max(0, ms));
          signal.addEventListener('abort', finish, { once: true });
          const set = watchers.get(videoId) ?? new Set();
          set.add(watcher);
          watchers.set(videoId, set);
        });
      };
    }

    app.route({
      method: 'POST',
      url: MCP_PATH,
      onRequest: authenticate,
      preHandler: limitRate,
      // The answer is JSON or a server-sent event stream the MCP transport writes itself.
      schema: { body: jsonRpcBodySchema, response: { 200: z.unknown(), 202: z.unknown(), ...errors } },
      handler: async (request, reply) => {
        if (Array.isArray(request.body) && request.body.length > MCP_MAX_MESSAGES_PER_REQUEST) throw badRequest(MCP_LIMIT_MESSAGES.batch);
        const userId = request.user!.id;
        if ((underWay.get(userId) ?? 0) >= MCP_CONCURRENT_REQUESTS) throw tooManyRequests(MCP_LIMIT_MESSAGES.concurrent);
        count(underWay, userId, 1);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          count(underWay, userId, -1);
        };
        reply.raw.once('close', release);
        reply.hijack();
        try {
          await handleMcpHttpRequest(request.raw, reply.raw, request.body, {
            // Only the path matters to routesFetch; links in answers point at PUBLIC_URL.
            baseUrl: app.config.publicUrl,
            publicUrl: app.config.publicUrl,
            apiKey: request.mcpApiKey!,
            fetch: routesFetch(app, request),
            waitForChange: waitForChange(userId),
          });
        } catch (error) {
          request.log.error({ err: error }, 'MCP request failed');
          if (!reply.raw.headersSent) {
            reply.raw.writeHead(500, { 'content-type': 'application/json' });
            reply.raw.end(JSON.stringify({ statusCode: 500, error: statusText(500), message: 'The MCP request could not be answered' }));
          }
        }
      },
    });

    for (const method of ['GET', 'DELETE'] as const) {
      app.route({
        method,
        url: MCP_PATH,
        onRequest: authenticate,
        schema: { response: errors },
        handler: async (_request, reply) => {
          reply.header('allow', 'POST');
          throw new HttpError(405, MCP_STATELESS_MESSAGE);
        },
      });
    }
  },
  { name: 'mcp', fastify: '5.x', dependencies: ['config', 'auth', 'error-handler', 'rate-limit', 'jobs'] },
);
