import { z } from 'zod';

/** Every non-2xx response body. `field` names the offending input on a 400. */
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
