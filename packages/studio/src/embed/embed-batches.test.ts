import type { BatchCompletedEvent, BatchDetail } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { createEmbedBatches } from './embed-batches.js';

const counts = { total: 2, queued: 0, processing: 0, completed: 2, failed: 0, cancelled: 0 };
const ended = (batchId: string, status: BatchCompletedEvent['status'] = 'completed'): BatchCompletedEvent => ({
  batchId,
  name: null,
  status,
  counts,
});

function detail(id: string, status: BatchDetail['status']): BatchDetail {
  return {
    id,
    name: 'Ocean week',
    status,
    counts: status === 'cancelled' ? { ...counts, completed: 1, cancelled: 1 } : counts,
    percent: 100,
    createdAt: '2026-11-27T10:00:00.000Z',
    completedAt: null,
    rows: [],
  };
}

describe('embed batches', () => {
  it('ends a tracked batch once, and never one it was not asked to track', () => {
    const batches = createEmbedBatches(async (id) => detail(id, 'processing'));
    const seen: string[] = [];
    batches.onEnded((event) => seen.push(`${event.batchId}:${event.status}`));
    batches.track('b1');
    batches.heard(ended('other'));
    batches.heard(ended('b1'));
    batches.heard(ended('b1'));
    batches.track('b1');
    expect(seen).toEqual(['b1:completed']);
  });

  it('reports an end the socket heard before the create answered, once the batch is tracked', () => {
    const batches = createEmbedBatches(async (id) => detail(id, 'processing'));
    const seen: string[] = [];
    batches.onEnded((event) => seen.push(event.batchId));
    batches.heard(ended('fast'));
    expect(seen).toEqual([]);
    batches.track('fast');
    expect(seen).toEqual(['fast']);
  });

  it('after a reconnect, reads the running batches again and ends the finished ones with their figures', async () => {
    const statuses: Record<string, BatchDetail['status']> = { done: 'processing', stopped: 'processing', busy: 'processing' };
    const reads: string[] = [];
    const batches = createEmbedBatches(async (id) => {
      reads.push(id);
      if (id === 'broken') throw new Error('offline');
      return detail(id, statuses[id]!);
    });
    const seen: BatchCompletedEvent[] = [];
    batches.onEnded((event) => seen.push(event));
    for (const id of ['done', 'stopped', 'busy', 'broken']) batches.track(id);
    statuses.done = 'completed';
    statuses.stopped = 'cancelled';
    await batches.catchUp();
    expect(reads.sort()).toEqual(['broken', 'busy', 'done', 'stopped']);
    expect(seen).toEqual([
      { batchId: 'done', name: 'Ocean week', status: 'completed', counts },
      { batchId: 'stopped', name: 'Ocean week', status: 'cancelled', counts: { ...counts, completed: 1, cancelled: 1 } },
    ]);
    // Ended ones are not read again; the socket's late event for them changes nothing.
    reads.length = 0;
    batches.heard(ended('done'));
    await batches.catchUp();
    expect(reads.sort()).toEqual(['broken', 'busy']);
    expect(seen).toHaveLength(2);
  });
});
