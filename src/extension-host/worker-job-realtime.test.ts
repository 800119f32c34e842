import { generateVideoBodySchema, type ExtensionRequest } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { addJob, applyCompleted, applyFailed, applyProgress, newLocalJob } from '../background/job-state.js';
import { JobStore } from '../background/job-store.js';
import { fakeStorage } from '../background/testing/fake-chrome.js';
import { createWorkerJobRealtime } from './worker-job-realtime.js';

const params = generateVideoBodySchema.parse({ topic: 'Owls', style: 'curious', language: 'en', duration: 30, voice: 'v' });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('worker-backed job realtime', () => {
  it('replays the worker’s stored changes as live events and opens no socket', async () => {
    const storage = fakeStorage();
    const store = new JobStore(storage.local);
    await store.update((s) => addJob(s, newLocalJob('old', params, new Date('2026-01-01T00:00:00Z'))));
    const sent: ExtensionRequest[] = [];
    const realtime = createWorkerJobRealtime({ area: storage.local, onChanged: storage.onChanged, sendMessage: async (r) => (sent.push(r), { ok: true }) });
    const events: unknown[] = [];
    realtime.connect('tok', {
      progress: (e) => events.push(['progress', e.jobId, e.progress]),
      completed: (e) => events.push(['completed', e.jobId]),
      failed: (e) => events.push(['failed', e.jobId, e.error]),
      connectionChange: (c, i) => events.push(['connected', c, i.resumed]),
    });
    await flush();
    expect(sent).toEqual([{ type: 'refresh' }]);
    expect(events).toEqual([]);

    await store.update((s) => ({ ...s, connected: true }));
    await store.update((s) => addJob(s, newLocalJob('j1', params, new Date('2026-01-01T00:01:00Z'))));
    await store.update((s) => applyProgress(s, { jobId: 'j1', progress: 30, step: 'voice', stepProgress: 10, status: 'processing' }));
    await store.update((s) => applyCompleted(s, { jobId: 'j1', result: { videoUrl: '/output/j1.mp4', filename: 'j1.mp4' } }));
    await store.update((s) => applyFailed(s, { jobId: 'old', error: 'boom' }));
    await store.update((s) => ({ ...s, connected: false }));
    await store.update((s) => ({ ...s, connected: true }));
    expect(events).toEqual([
      ['connected', true, false],
      ['progress', 'j1', 1],
      ['progress', 'j1', 30],
      ['completed', 'j1'],
      ['failed', 'old', 'boom'],
      ['connected', false, false],
      ['connected', true, true],
    ]);

    expect(await realtime.subscribe('j1')).toBe(true);
    realtime.disconnect();
    expect(storage.onChanged.listeners.size).toBe(0);
  });

  it('announces a completion stored before its result once the result arrives, and only once', async () => {
    const storage = fakeStorage();
    const store = new JobStore(storage.local);
    const realtime = createWorkerJobRealtime({ area: storage.local, onChanged: storage.onChanged, sendMessage: async () => ({ ok: true }) });
    const events: unknown[] = [];
    realtime.connect('tok', {
      progress: (e) => events.push(['progress', e.jobId, e.progress, e.status]),
      completed: (e) => events.push(['completed', e.jobId, e.result.videoUrl]),
      failed: (e) => events.push(['failed', e.jobId]),
      connectionChange: () => undefined,
    });
    await flush();
    await store.update((s) => addJob(s, newLocalJob('j2', params, new Date('2026-01-01T00:01:00Z'))));
    // The worker hears the last progress event (status completed) before job_completed.
    await store.update((s) => applyProgress(s, { jobId: 'j2', progress: 100, step: 'video', stepProgress: 100, status: 'completed' }));
    expect(events).toEqual([['progress', 'j2', 1, 'pending']]);
    await store.update((s) => applyCompleted(s, { jobId: 'j2', result: { videoUrl: '/output/j2.mp4', filename: 'j2.mp4' } }));
    await store.update((s) => applyCompleted(s, { jobId: 'j2', result: { videoUrl: '/output/j2.mp4', filename: 'j2.mp4' } }));
    await store.update((s) => ({ ...s, connected: !s.connected }));
    expect(events).toEqual([
      ['progress', 'j2', 1, 'pending'],
      ['completed', 'j2', '/output/j2.mp4'],
    ]);
  });
});
