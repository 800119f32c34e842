import { MESSAGES, type ErrorResponse } from '@reelsmith/contracts';
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, statusText } from '../errors.js';

function errorBody(statusCode: number, message: string, field?: string): ErrorResponse {
  return { statusCode, error: statusText(statusCode), message, ...(field ? { field } : {}) };
}

/** '/email' → 'email', '/events/0/name' → 'events.0.name'; the request part when the whole of it is wrong. */
function fieldOf(instancePath: string, context: string | undefined): string | undefined {
  const path = instancePath.split('/').filter(Boolean).join('.');
  return path || context;
}

/**
 * The one error handler: every non-2xx body is `{statusCode, error, message, field?}`. Request
 * validation reports the first issue's spec message; 5xx responses never carry internals.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const [first] = error.validation;
        const context = (error as FastifyError).validationContext;
        const field = fieldOf(first?.instancePath ?? '', context);
        const message =
          first?.message && first.instancePath.replace(/\//g, '') !== ''
            ? first.message
            : `The request ${context ?? 'input'} is missing or malformed`;
        return reply.code(400).send(errorBody(400, message, field));
      }
      if (error instanceof HttpError) {
        if (error.statusCode >= 500 && !error.options.quiet) request.log.error({ err: error }, 'request failed');
        return reply.code(error.statusCode).send({ ...error.options.details, ...errorBody(error.statusCode, error.message, error.field) });
      }
      const statusCode = (error as FastifyError).statusCode;
      // Fastify's own client errors (bad JSON, wrong content type, body too large) explain themselves safely.
      if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
        return reply.code(statusCode).send(errorBody(statusCode, error.message));
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(errorBody(500, MESSAGES.internalError));
    });
  },
  { name: 'error-handler', fastify: '5.x' },
);
