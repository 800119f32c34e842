import { z } from './zod.js';

/** Every non-2xx response body. `field` names the offending input on a 400. */
export const errorResponseSchema = z.object({
  statusCode: z.number().check(z.int()),
  error: z.string(),
  message: z.string(),
  field: z.optional(z.string()),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
