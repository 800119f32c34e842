import { API_KEY_HEADER, errorResponseSchema } from '@reelsmith/contracts';
import { handleMcpHttpRequest } from '@reelsmith/mcp';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OutgoingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { HttpError, statusText, unauthorized } from '../errors.js';

export const MCP_PATH = '/mcp';
export const MCP_KEY_REQUIRED_MESSAGE =
  'The MCP server needs your API key: send it as "Authorization: Bearer <key>" or in the x-api-key header (Settings → Developer makes one)';
export const MCP_STATELESS_MESSAGE =
  'This MCP server is stateless: send JSON-RPC messages with POST /mcp (there is no server-to-client stream to open and no session to end)';

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

    app.route({
      method: 'POST',
      url: MCP_PATH,
      onRequest: authenticate,
      // The answer is JSON or a server-sent event stream the MCP transport writes itself.
      schema: { body: jsonRpcBodySchema, response: { 200: z.unknown(), 202: z.unknown(), ...errors } },
      handler: async (request, reply) => {
        reply.hijack();
        try {
          await handleMcpHttpRequest(request.raw, reply.raw, request.body, {
            // Only the path matters to routesFetch; links in answers point at PUBLIC_URL.
            baseUrl: app.config.publicUrl,
            publicUrl: app.config.publicUrl,
            apiKey: request.mcpApiKey!,
            fetch: routesFetch(app, request),
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
  { name: 'mcp', fastify: '5.x', dependencies: ['config', 'auth', 'error-handler'] },
);
