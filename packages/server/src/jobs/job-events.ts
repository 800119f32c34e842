import type { JobCompletedEvent, JobFailedEvent, JobProgressEvent } from '@reelsmith/contracts';
import { EventEmitter } from 'node:events';

/** Every event names its job's owner, so listeners can route it to that user without a lookup. */
export interface JobEventMap {
  job_progress: [event: JobProgressEvent, userId: string];
  job_completed: [event: JobCompletedEvent, userId: string];
  job_failed: [event: JobFailedEvent, userId: string];
}

export type JobEventName = keyof JobEventMap;

/**
 * The in-process bus between whatever runs jobs (the embedded queue's worker, or in scale mode the
 * BullMQ queue's relay of the worker processes' events over Redis) and whatever reports them (the
 * socket.io plugin). Payloads are the
 * contract's socket event shapes, so listeners forward them unchanged.
 */
export class JobEventBus extends EventEmitter<JobEventMap> {
  constructor() {
    super();
    // One listener per consumer (realtime, tests); a leak warning at 10 would only be noise.
    this.setMaxListeners(50);
  }
}
