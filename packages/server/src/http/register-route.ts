import { errorResponseSchema, type AuthMode, type RouteContract } from '@reelsmith/contracts';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import type * as z from 'zod/v4/core';
import type { AuthUser } from './auth-user.js';
import { forbidden } from '../errors.js';
import { EMBED_SCOPE_MESSAGE } from './auth-messages.js';

type Parsed<C, K extends 'body' | 'query' | 'params'> = C extends { [P in K]: infer S extends z.$ZodType } ? z.output<S> : undefined;

type AuthenticatedMode = Extract<AuthMode, 'bearer' | 'bearerOrApiKey' | 'apiKey' | 'admin'>;

/** The request a handler sees: parsed body, query and params, and `user` non-null when the contract requires sign-in. */
export type ContractRequest<C extends RouteContract> = FastifyRequest<{
  Body: Parsed<C, 'body'>;
  Querystring: Parsed<C, 'query'>;
  Params: Parsed<C, 'params'>;
}> & { user: C['auth'] extends AuthenticatedMode ? AuthUser : AuthUser | null };

export type ContractResponse<C extends RouteContract> = z.output<C['response']>;

/**
 * Return the response object (sent as 200 and checked against the contract), or the reply itself
 * after sending something else (a file, a redirect). Throw an HttpError for a 4xx.
 * TypeScript widens literals returned inline from a generic call's callback, so write
 * `{ success: true as const }` (values already typed as a union, like a row's status, need nothing).
 */
export type ContractHandler<C extends RouteContract> = (
  request: ContractRequest<C>,
  reply: FastifyReply,
) => Promise<ContractResponse<C> | FastifyReply> | ContractResponse<C> | FastifyReply;

export interface RouteExtras {
  /** Runs after authentication, e.g. a rate limiter from `app.createRateLimiter`. */
  preHandler?: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[];
  config?: FastifyContextConfig;
  bodyLimit?: number;
}

// Plugins receive instances with assorted type providers; the contract supplies the types instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any type provider is accepted here on purpose
type AnyFastify = FastifyInstance<any, any, any, any, any>;

function authPreHandler(app: AnyFastify, mode: AuthMode): preHandlerAsyncHookHandler | null {
  switch (mode) {
    case 'none':
      return null;
    case 'optional':
      return app.authenticateOptional;
    case 'bearer':
      return app.authenticate;
    case 'bearerOrApiKey':
      return app.authenticateBearerOrApiKey;
    case 'apiKey':
      return app.authenticateApiKey;
    case 'admin':
      return app.requireAdmin;
  }
}

/**
 * Registers one route of `API` from @reelsmith/contracts: method, path, zod schemas for params,
 * query, body and response (errors use errorResponseSchema), and the contract's auth mode.
 *
 *   registerRoute(app, API.profile, async (request) => ({ user: toPublicUser(request.user) }));
 */
export function registerRoute<C extends RouteContract>(
  app: AnyFastify,
  contract: C,
  handler: ContractHandler<C>,
  extras: RouteExtras = {},
): void {
  const authenticate = authPreHandler(app, contract.auth);
  // An embed session reaches only the routes its contract marks `embed` (videos, not payments, settings or keys).
  const auth: preHandlerAsyncHookHandler | null =
    authenticate && !contract.embed
      ? async function (request, reply) {
          await authenticate.call(this, request, reply);
          if (request.user?.scope === 'embed') throw forbidden(EMBED_SCOPE_MESSAGE);
        }
      : authenticate;
  const extra = extras.preHandler === undefined ? [] : Array.isArray(extras.preHandler) ? extras.preHandler : [extras.preHandler];
  const route: RouteOptions = {
    method: contract.method,
    url: contract.path,
    schema: {
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.body ? { body: contract.body } : {}),
      response: {
        [contract.status ?? 200]: contract.response,
        ...contract.errorResponses,
        '4xx': errorResponseSchema,
        '5xx': errorResponseSchema,
      },
    },
    // Authentication first, before the body is parsed or validated: an anonymous caller gets 401,
    // never a 400 describing the schema.
    ...(auth ? { onRequest: [auth as unknown as onRequestAsyncHookHandler] } : {}),
    preHandler: extra,
    handler: (contract.status
      ? async (request: FastifyRequest, reply: FastifyReply) => {
          reply.code(contract.status!);
          return (handler as unknown as (request: FastifyRequest, reply: FastifyReply) => unknown)(request, reply);
        }
      : handler) as unknown as RouteOptions['handler'],
    ...(extras.config ? { config: extras.config } : {}),
    ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
  };
  app.route(route);
}
