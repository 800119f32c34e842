import { EMBED_MESSAGE_SOURCE, embedEnvelopeSchema, type EmbedEvent } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../api/api-client.js';
import { createAuthStore } from '../auth/auth-store.js';
import { createJobStore } from '../shared/jobs/tracked-jobs-store.js';
import { MemoryStorage } from '../platform.js';
import { testGenerationParams } from '../testing/generation-params.js';
import { createEmbedBatches } from './embed-batches.js';
import { parseEmbedCommand, startEmbedBridge } from './embed-bridge.js';

const PARENT = 'https://partner.example';
const params = testGenerationParams({ topic: 'Salt', voice: 'v1' });

function setUp() {
  const posted: Array<{ message: unknown; origin: string }> = [];
  const api = createApiClient({ baseUrl: '', getToken: () => null, fetch: async () => new Response('{}') });
  const authStore = createAuthStore({ api, storage: new MemoryStorage() });
  const jobStore = createJobStore();
  const batches = createEmbedBatches(async () => {
    throw new Error('not read in these tests');
  });
  const stop = startEmbedBridge({
    parentOrigin: PARENT,
    post: (message, origin) => posted.push({ message, origin }),
    authStore,
    jobStore,
    batches,
    absoluteUrl: (path) => `https://studio.example${path}`,
  });
  const events = (): EmbedEvent[] => posted.map((entry) => embedEnvelopeSchema.parse(entry.message).event);
  return { posted, authStore, jobStore, batches, stop, events };
}

describe('embed bridge', () => {
  it('posts only to the parent origin, in the contract shape: ready, then sign-in changes', () => {
    const { posted, authStore, events } = setUp();
    authStore.setState({ isLoading: false, isAuthenticated: true, user: { id: 'u', name: 'A', email: 'a@b.co', role: 'user' } });
    authStore.setState({ isLoading: false, isAuthenticated: false, user: null });
    expect(events().map((e) => e.type)).toEqual(['ready', 'signed-in', 'signed-out']);
    expect(posted.every((entry) => entry.origin === PARENT)).toBe(true);
  });

  it('reports a job submitted here: created, progress without repeats, completed with absolute URLs; others are ignored', () => {
    const { jobStore, events, stop } = setUp();
    const store = jobStore.getState();
    store.mergeServerJobs([]);
    store.addSubmittedJob('job-1', params);
    store.applyProgress({ jobId: 'job-1', progress: 20, step: 'story', stepProgress: 50, status: 'processing' });
    store.applyProgress({ jobId: 'job-1', progress: 20, step: 'story', stepProgress: 60, status: 'processing' });
    store.applyProgress({ jobId: 'job-1', progress: 60, step: 'images', stepProgress: 10, status: 'processing' });
    store.applyCompleted({
      jobId: 'job-1',
      result: {
        videoUrl: '/output/a/video.mp4',
        posterUrl: '/output/a/poster.jpg',
        filename: 'video.mp4',
        title: 'Salt',
        durationSeconds: 31,
      },
    });
    store.applyProgress({ jobId: 'job-1', progress: 100, step: 'video', stepProgress: 100, status: 'completed' });
    expect(events().filter((e) => e.type !== 'ready')).toEqual([
      { type: 'job-created', jobId: 'job-1' },
      { type: 'job-progress', jobId: 'job-1', progress: 20, step: 'story' },
      { type: 'job-progress', jobId: 'job-1', progress: 60, step: 'images' },
      {
        type: 'job-completed',
        jobId: 'job-1',
        videoUrl: 'https://studio.example/output/a/video.mp4',
        posterUrl: 'https://studio.example/output/a/poster.jpg',
        title: 'Salt',
        durationSeconds: 31,
      },
    ]);
    stop();
    store.addSubmittedJob('job-2', params);
    expect(events().some((e) => 'jobId' in e && e.jobId === 'job-2')).toBe(false);
  });

  it('reports a failed job once', () => {
    const { jobStore, events } = setUp();
    jobStore.getState().addSubmittedJob('job-3', params);
    jobStore.getState().applyFailed({ jobId: 'job-3', error: 'No voice' });
    jobStore.getState().applyFailed({ jobId: 'job-3', error: 'No voice' });
    expect(events().filter((e) => e.type === 'job-failed')).toEqual([{ type: 'job-failed', jobId: 'job-3', error: 'No voice' }]);
  });

  it('reports the end of a batch queued here once, in the contract shape, and never a batch made elsewhere', () => {
    const { batches, events, stop } = setUp();
    const counts = { total: 2, queued: 0, processing: 0, completed: 1, failed: 1, cancelled: 0 };
    batches.track('batch-1');
    batches.heard({ batchId: 'batch-elsewhere', name: 'Web studio', status: 'completed', counts });
    batches.heard({ batchId: 'batch-1', name: null, status: 'completed', counts });
    batches.heard({ batchId: 'batch-1', name: null, status: 'completed', counts });
    expect(events().filter((e) => e.type !== 'ready')).toEqual([
      { type: 'batch-completed', batchId: 'batch-1', status: 'completed', counts },
    ]);
    stop();
    batches.track('batch-2');
    batches.heard({ batchId: 'batch-2', name: null, status: 'cancelled', counts });
    expect(events().filter((e) => e.type === 'batch-completed')).toHaveLength(1);
  });

  it('accepts commands only from the parent window and origin, in the contract shape', () => {
    const parent = {};
    const command = { source: EMBED_MESSAGE_SOURCE, command: { type: 'set-topic', topic: 'Tides' } };
    expect(parseEmbedCommand({ origin: PARENT, source: parent as MessageEventSource, data: command }, PARENT, parent)).toEqual({
      type: 'set-topic',
      topic: 'Tides',
    });
    expect(
      parseEmbedCommand({ origin: 'https://evil.example', source: parent as MessageEventSource, data: command }, PARENT, parent),
    ).toBeNull();
    expect(parseEmbedCommand({ origin: PARENT, source: {} as MessageEventSource, data: command }, PARENT, parent)).toBeNull();
    expect(
      parseEmbedCommand(
        { origin: PARENT, source: parent as MessageEventSource, data: { source: 'x', command: command.command } },
        PARENT,
        parent,
      ),
    ).toBeNull();
  });
});
