import type { JobCompletedEvent, JobFailedEvent, JobProgressEvent, RelayedJobEvent } from '@reelsmith/contracts';
import { EventEmitter } from 'node:events';

/**
 * Where an event was published: `local` by this process's own transitions (its worker, its routes),
 * `relayed` from a scale-mode worker over Redis, which every API process receives alike. Listeners
 * that derive something for all processes (a batch's figures) tell the two apart.
 */
export type JobEventOrigin = 'local' | 'relayed';

/** Every event names its job's owner, so listeners can route it to that user without a lookup. */
export interface JobEventMap {
  job_progress: [event: JobProgressEvent, userId: string, origin?: JobEventOrigin];
  job_completed: [event: JobCompletedEvent, userId: string, origin?: JobEventOrigin];
  job_failed: [event: JobFailedEvent, userId: string, origin?: JobEventOrigin];
}

export type JobEventName = keyof JobEventMap;

/**
 * One event a job's transition implies, with its owner: what the job repository returns from each
 * write, and exactly what scale mode relays between processes.
 */
export type JobEvent = RelayedJobEvent;

/**
 * The in-process bus between whatever moves jobs (the job repository's transitions, published by the
 * worker and the routes, or in scale mode the BullMQ queue's relay of the worker processes' events
 * over Redis) and whatever reports them (the socket.io plugin, webhooks). Payloads are the contract's
 * socket event shapes, so listeners forward them unchanged.
 */
export class JobEventBus extends EventEmitter<JobEventMap> {
  constructor() {
    super();
    // One listener per consumer (realtime, tests); a leak warning at 10 would only be noise.
    this.setMaxListeners(50);
  }

  /**
   * Listens to the three events until the returned function is called: what a plugin subscribes at
   * start and drops on close (one listener may serve several events).
   */
  listen(listeners: { readonly [Name in JobEventName]: (...args: JobEventMap[Name]) => void }): () => void {
    this.on('job_progress', listeners.job_progress);
    this.on('job_completed', listeners.job_completed);
    this.on('job_failed', listeners.job_failed);
    return () => {
      this.off('job_progress', listeners.job_progress);
      this.off('job_completed', listeners.job_completed);
      this.off('job_failed', listeners.job_failed);
    };
  }

  /** Announces what a transition returned, in order. */
  publish(events: readonly JobEvent[], origin: JobEventOrigin = 'local'): void {
    for (const item of events) {
      if (item.name === 'job_progress') this.emit('job_progress', item.event, item.userId, origin);
      else if (item.name === 'job_completed') this.emit('job_completed', item.event, item.userId, origin);
      else this.emit('job_failed', item.event, item.userId, origin);
    }
  }
}
