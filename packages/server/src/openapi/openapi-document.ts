import { API, errorResponseSchema, type AuthMode, type RouteContract } from '@reelsmith/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const SECURITY: Record<AuthMode, Array<Record<string, string[]>> | undefined> = {
  none: undefined,
  // Either signed in or not: an empty requirement object means "no credentials".
  optional: [{ bearerAuth: [] }, { apiKeyAuth: [] }, {}],
  bearer: [{ bearerAuth: [] }],
  bearerOrApiKey: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
  apiKey: [{ apiKeyAuth: [] }],
  admin: [{ bearerAuth: [] }],
};

const AUTH_NOTE: Record<AuthMode, string> = {
  none: 'No authentication.',
  optional: 'Works signed out; a bearer token or API key, when sent, identifies the caller.',
  bearer: 'Bearer session token.',
  bearerOrApiKey: 'Bearer session token or API key (x-api-key).',
  apiKey: 'API key (x-api-key) only.',
  admin: 'Bearer session token of an admin.',
};

/** `createApiKey` → `Create api key` */
const summaryOf = (name: string): string => {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** `/api/videos/:id` → `/api/videos/{id}` */
export const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');

function parameters(schema: z.core.$ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

function operation(name: string, contract: RouteContract): JsonSchema {
  const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const responses: Record<string, unknown> = {
    200: { description: 'OK', content: { 'application/json': { schema: toSchema(contract.response, 'output') } } },
    400: { ...error, description: 'Invalid input; `field` names the offending input' },
    429: { ...error, description: 'Too many requests' },
    500: { ...error, description: 'Unexpected server error (never leaks internals)' },
  };
  if (contract.auth !== 'none' && contract.auth !== 'optional') {
    responses[401] = { ...error, description: 'Missing, invalid, expired or revoked credentials' };
    responses[403] = { ...error, description: 'Not allowed (role, plan, or an embed session outside its scope)' };
  }
  if (contract.params) responses[404] = { ...error, description: 'Not found' };
  if (contract.errorResponses?.[400]) {
    responses[400] = {
      description:
        'Invalid input; `field` names the offending input, and the extra fields say more (a batch: each invalid row, or the videos it needs against those left)',
      content: { 'application/json': { schema: toSchema(contract.errorResponses[400], 'output') } },
    };
  }
  if (contract.errorResponses?.[412]) {
    responses[412] = {
      description: 'If-Match names an older version: the body carries the current one (its ETag in the header)',
      content: { 'application/json': { schema: toSchema(contract.errorResponses[412], 'output') } },
    };
  }
  const security = SECURITY[contract.auth];
  return {
    operationId: name,
    tags: [contract.path.split('/')[1] === 'api' ? (contract.path.split('/')[2] ?? 'api') : (contract.path.split('/')[1] ?? 'root')],
    summary: summaryOf(name),
    description: `${AUTH_NOTE[contract.auth]}${contract.embed ? ' Also open to embed sessions.' : ''}`,
    ...(security ? { security } : { security: [] }),
    parameters: [...parameters(contract.params, 'path'), ...parameters(contract.query, 'query')],
    ...(contract.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: toSchema(contract.body, 'input') },
              ...(contract.multipartFile
                ? {
                    'multipart/form-data': {
                      schema: {
                        type: 'object',
                        properties: { [contract.multipartFile]: { type: 'string', format: 'binary' } },
                        required: [contract.multipartFile],
                      },
                    },
                  }
                : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route in the contracts' registry: one source, nothing hand-written. */
export function buildOpenApiDocument(routes: Record<string, RouteContract> = API): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, contract] of Object.entries(routes)) {
    const path = toOpenApiPath(contract.path);
    (paths[path] ??= {})[contract.method.toLowerCase()] = operation(name, contract);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reelsmith API',
      version: '1',
      description:
        'Turn a topic into a short narrated video. Authenticate with a bearer session token (Authorization: Bearer …) or an API key (x-api-key). Webhook deliveries carry `Reelsmith-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.',
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
      schemas: { Error: toSchema(errorResponseSchema, 'output') },
    },
    paths,
  };
}
