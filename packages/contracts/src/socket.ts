import { z } from './zod.js';
import { jobStatusSchema, pipelineStepSchema } from './enums.js';
import { videoResultSchema } from './videos.js';
import type { BatchCompletedEvent, BatchProgressEvent } from './batches.js';
import type { PublicationProgressEvent } from './publishing.js';

export const SOCKET_EVENTS = {
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  jobProgress: 'job_progress',
  jobCompleted: 'job_completed',
  jobFailed: 'job_failed',
} as const;

export const subscribePayloadSchema = z.string().check(z.minLength(1), z.maxLength(64));
export const subscribeAckSchema = z.object({ ok: z.boolean(), error: z.optional(z.string()) });

export const jobProgressEventSchema = z.object({
  jobId: z.string(),
  progress: z.number().check(z.gte(0), z.lte(100)),
  step: pipelineStepSchema,
  stepProgress: z.number().check(z.gte(0), z.lte(100)),
  status: jobStatusSchema,
});
export type JobProgressEvent = z.infer<typeof jobProgressEventSchema>;

export const jobCompletedEventSchema = z.object({ jobId: z.string(), result: videoResultSchema });
export type JobCompletedEvent = z.infer<typeof jobCompletedEventSchema>;

/** `version`: the render that failed (a storyboard re-render is version 2 and up); absent from servers before it existed. */
export const jobFailedEventSchema = z.object({
  jobId: z.string(),
  error: z.string(),
  version: z.optional(z.number().check(z.int(), z.gte(1))),
  /** False when Retry would only fail again (the job's runs crashed their server): see VideoJob.retryable. */
  retryable: z.optional(z.boolean()),
});
export type JobFailedEvent = z.infer<typeof jobFailedEventSchema>;

/** The handshake's auth payload: a bearer token (web, extension) or an API key. */
export const socketAuthSchema = z.union([
  z.object({ token: z.string().check(z.minLength(1)) }),
  z.object({ apiKey: z.string().check(z.minLength(1)) }),
]);

export interface ServerToClientEvents {
  job_progress: (event: JobProgressEvent) => void;
  job_completed: (event: JobCompletedEvent) => void;
  job_failed: (event: JobFailedEvent) => void;
  /** A batch's row moved (BATCH_SOCKET_EVENTS, batches.ts), sent to its creator's room. */
  batch_progress: (event: BatchProgressEvent) => void;
  batch_completed: (event: BatchCompletedEvent) => void;
  /** A publication's change (PUBLICATION_SOCKET_EVENT in publishing.ts), to its creator's room. */
  publication_progress: (event: PublicationProgressEvent) => void;
}
export interface ClientToServerEvents {
  subscribe: (jobId: string, ack?: (result: z.infer<typeof subscribeAckSchema>) => void) => void;
  unsubscribe: (jobId: string) => void;
}
