import { z } from './zod.js';

/** A batch's status and figures: small, so the embed's events (developer.ts) can name them without the batch contracts. */
export const BATCH_STATUSES = ['queued', 'processing', 'completed', 'cancelled'] as const;
/** queued: no row started; processing: some row started; completed: every row finished (some may have failed); cancelled: cancelled. */
export const batchStatusSchema = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof batchStatusSchema>;

const count = z.number().check(z.int(), z.gte(0));
export const batchCountsSchema = z.object({
  total: count,
  queued: count,
  processing: count,
  completed: count,
  failed: count,
  cancelled: count,
});
export type BatchCounts = z.infer<typeof batchCountsSchema>;
