import { z } from 'zod';

export const analyticsEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page_view'), path: z.string().max(500), title: z.string().max(200).optional() }),
  z.object({ type: z.literal('click'), name: z.string().min(1).max(100), path: z.string().max(500).optional() }),
  z.object({ type: z.literal('login'), method: z.enum(['email', 'google']) }),
  z.object({ type: z.literal('sign_up'), method: z.enum(['email', 'google']) }),
]);
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
export const analyticsBodySchema = z.object({ events: z.array(analyticsEventSchema).min(1).max(50) });
export const analyticsResponseSchema = z.object({ accepted: z.number().int() });
