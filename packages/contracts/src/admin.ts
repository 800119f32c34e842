import { z } from './zod.js';
import { providerTypeSchema } from './enums.js';

export const providerHealthSchema = z.object({
  type: providerTypeSchema,
  name: z.string(),
  status: z.enum(['healthy', 'error']),
  details: z.string(),
  checkedAt: z.string(),
});
export type ProviderHealth = z.infer<typeof providerHealthSchema>;

export const providersResponseSchema = z.object({
  providers: z.record(providerTypeSchema, z.object({ current: z.string(), available: z.array(z.string()) })),
});
export type ProvidersResponse = z.infer<typeof providersResponseSchema>;

/** With both fields, GET /providers/health checks that one provider (e.g. a switch's target) instead of the current ones. */
export const providersHealthQuerySchema = z
  .object({ type: z.optional(providerTypeSchema), provider: z.optional(z.string().check(z.minLength(1), z.maxLength(64))) })
  .check(
    z.refine((query) => (query.type === undefined) === (query.provider === undefined), {
      message: 'type and provider go together',
      path: ['provider'],
    }),
  );

export const providersHealthResponseSchema = z.object({ health: z.array(providerHealthSchema) });

export const healthResponseSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  uptimeSeconds: z.number(),
  database: z.enum(['sqlite', 'postgres']),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** One dependency GET /ready checks: `ok` false names it in the 503 (the reason is in the server log, not here). */
const readinessCheckSchema = z.object({ ok: z.boolean(), latencyMs: z.number() });
/**
 * GET /ready: whether this process should get traffic (load balancers, Kubernetes readiness probes):
 * the database, the queue backend and storage answer, and the server is not draining. 200 when
 * `ready`, 503 otherwise with the same body.
 */
export const readinessResponseSchema = z.object({
  ready: z.boolean(),
  draining: z.boolean(),
  checks: z.object({ database: readinessCheckSchema, queue: readinessCheckSchema, storage: readinessCheckSchema }),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;

export const switchProviderBodySchema = z.object({ type: providerTypeSchema, provider: z.string().check(z.minLength(1)) });
export const switchProviderResponseSchema = z.object({ message: z.string(), current: z.string() });

export const websocketStatsSchema = z.object({ connectedClients: z.number().check(z.int()), subscriptions: z.number().check(z.int()) });
