import type { BatchCompletedEvent, BatchDetail } from '@reelsmith/contracts';
import type { ApiClient } from '../api/api-client.js';
import type { CoreServices } from '../services.js';

/** Ends heard before the batch was known here (the socket can beat the create's answer), kept this many. */
const EARLY_LIMIT = 100;

/**
 * The batches queued in this embedded studio, and when each ended: from the socket that watches them
 * (`batch_completed`, which reaches every API process's sockets; embed-batch-watch.ts) or, when that
 * socket (re)connects, from reading the batch again. Each tracked batch ends once; batches made
 * elsewhere (the web studio, the partner's backend) are never reported to the partner page. No
 * runtime imports: the embed's first load carries only this bookkeeping.
 */
export interface EmbedBatches {
  /** A batch queued here: its end will be reported. */
  track(batchId: string): void;
  /** A `batch_completed` the socket heard (any of the account's batches). */
  heard(event: BatchCompletedEvent): void;
  /** Reads the batches still running here again: the socket was away and may have missed an end. */
  catchUp(): Promise<void>;
  /** How many tracked batches have not ended yet. */
  runningCount(): number;
  /** Called once per tracked batch when it ends (completed, or cancelled). */
  onEnded(listener: (event: BatchCompletedEvent) => void): () => void;
}

export function createEmbedBatches(readBatch: (batchId: string) => Promise<BatchDetail>): EmbedBatches {
  const running = new Set<string>();
  const ended = new Set<string>();
  const early = new Map<string, BatchCompletedEvent>();
  const listeners = new Set<(event: BatchCompletedEvent) => void>();

  const end = (event: BatchCompletedEvent) => {
    running.delete(event.batchId);
    ended.add(event.batchId);
    for (const listener of listeners) listener(event);
  };

  return {
    track(batchId) {
      if (running.has(batchId) || ended.has(batchId)) return;
      const heardBefore = early.get(batchId);
      early.delete(batchId);
      if (heardBefore) end(heardBefore);
      else running.add(batchId);
    },
    heard(event) {
      if (running.has(event.batchId)) return end(event);
      if (ended.has(event.batchId)) return;
      if (early.size >= EARLY_LIMIT) early.delete(early.keys().next().value!);
      early.set(event.batchId, event);
    },
    async catchUp() {
      await Promise.all(
        [...running].map(async (batchId) => {
          try {
            const batch = await readBatch(batchId);
            if ((batch.status === 'completed' || batch.status === 'cancelled') && running.has(batchId)) {
              end({ batchId, name: batch.name, status: batch.status, counts: batch.counts });
            }
          } catch {
            // Read again at the next reconnect; the socket's own event may still come.
          }
        }),
      );
    },
    runningCount: () => running.size,
    onEnded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// One per mounted embed (its services), shared by its Batch view, the socket watching them and its bridge.
const servicesBatches = new WeakMap<CoreServices, EmbedBatches>();

export function embedBatchesFor(services: CoreServices): EmbedBatches {
  let batches = servicesBatches.get(services);
  if (!batches) {
    const api: ApiClient = services.api;
    batches = createEmbedBatches((id) => api.call('batch', { params: { id } }));
    servicesBatches.set(services, batches);
  }
  return batches;
}
