import { z } from './zod.js';

export const analyticsEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('page_view'),
    path: z.string().check(z.maxLength(500)),
    title: z.optional(z.string().check(z.maxLength(200))),
  }),
  z.object({
    type: z.literal('click'),
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    path: z.optional(z.string().check(z.maxLength(500))),
  }),
  z.object({ type: z.literal('login'), method: z.enum(['email', 'google']) }),
  z.object({ type: z.literal('sign_up'), method: z.enum(['email', 'google']) }),
]);
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
export const analyticsBodySchema = z.object({ events: z.array(analyticsEventSchema).check(z.minLength(1), z.maxLength(50)) });
export const analyticsResponseSchema = z.object({ accepted: z.number().check(z.int()) });
