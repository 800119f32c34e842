import { z } from './zod.js';
import { jobCompletedEventSchema, jobFailedEventSchema, jobProgressEventSchema, SOCKET_EVENTS } from './socket.js';

/**
 * What the scale mode puts on Redis: the BullMQ job payload, and the pub/sub messages between the API
 * processes and the worker processes. The database row stays the source of truth for a job; these only
 * say which job to run, what happened to it, and that a user cancelled it.
 */

/** The data of one BullMQ job: which video_jobs row to run, and whose it is. */
export const videoJobPayloadSchema = z.object({
  jobId: z.string().check(z.minLength(1), z.maxLength(64)),
  userId: z.string().check(z.minLength(1), z.maxLength(64)),
});
export type VideoJobPayload = z.infer<typeof videoJobPayloadSchema>;

/** A job event relayed from the worker process that ran it to every API process (their sockets). */
export const relayedJobEventSchema = z.discriminatedUnion('name', [
  z.object({ name: z.literal(SOCKET_EVENTS.jobProgress), userId: z.string().check(z.minLength(1)), event: jobProgressEventSchema }),
  z.object({ name: z.literal(SOCKET_EVENTS.jobCompleted), userId: z.string().check(z.minLength(1)), event: jobCompletedEventSchema }),
  z.object({ name: z.literal(SOCKET_EVENTS.jobFailed), userId: z.string().check(z.minLength(1)), event: jobFailedEventSchema }),
]);
export type RelayedJobEvent = z.infer<typeof relayedJobEventSchema>;

/** An API process asks whichever worker runs `jobId` to stop it (the row is already 'cancelled'). */
export const jobCancelRequestSchema = z.object({ requestId: z.string().check(z.minLength(1)), jobId: z.string().check(z.minLength(1)) });
export type JobCancelRequest = z.infer<typeof jobCancelRequestSchema>;

/** The worker that ran the job answers once it has stopped (its ffmpeg killed, its events sent). */
export const jobCancelReplySchema = z.object({ requestId: z.string().check(z.minLength(1)), jobId: z.string().check(z.minLength(1)) });
export type JobCancelReply = z.infer<typeof jobCancelReplySchema>;
