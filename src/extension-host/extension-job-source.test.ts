import { EXTENSION_STORAGE_KEYS, generateVideoBodySchema, newJob, type ExtensionRequest } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { putJob } from '../background/job-state.js';
import { JobStore } from '../background/stored-job-list.js';
import { fakeStorage } from '../background/testing/fake-chrome.js';
import { createExtensionJobSource } from './extension-job-source.js';

const params = generateVideoBodySchema.parse({ topic: 'Bees', style: 'funny', language: 'en', duration: 30, voice: 'v' });

describe('extension job source', () => {
  it('follows the worker’s stored jobs', async () => {
    const storage = fakeStorage();
    const store = new JobStore(storage.local);
    await store.update((s) => putJob(s, newJob('j0', params, new Date('2026-01-01T00:00:00Z'))));
    const source = await createExtensionJobSource({
      area: storage.local,
      onChanged: storage.onChanged,
      sendMessage: async () => ({ ok: true }),
    });
    expect(source.getState().jobs.map((j) => j.id)).toEqual(['j0']);
    let renders = 0;
    const stop = source.subscribe(() => (renders += 1));
    await store.update((s) => putJob(s, newJob('j1', params, new Date('2026-01-01T00:01:00Z'))));
    expect(source.getState().jobs.map((j) => j.id)).toEqual(['j1', 'j0']);
    await storage.session.set({ [EXTENSION_STORAGE_KEYS.jobs]: 'elsewhere' });
    expect(renders).toBe(1);
    stop();
    source.close();
    expect(storage.onChanged.listeners.size).toBe(0);
  });

  it('asks the worker to submit, reopen and cancel, surfacing its errors', async () => {
    const storage = fakeStorage();
    const sent: ExtensionRequest[] = [];
    const replies: unknown[] = [
      { ok: true, jobId: 'j9', status: 'pending', message: 'Video generation started' },
      { ok: true },
      { ok: false, error: 'Subscription required to generate videos' },
      undefined,
      { ok: true, jobId: 'j10' },
    ];
    const source = await createExtensionJobSource({
      area: storage.local,
      onChanged: storage.onChanged,
      sendMessage: async (r) => (sent.push(r), replies.shift()),
    });
    expect(await source.submit(params)).toEqual({ jobId: 'j9', status: 'pending', message: 'Video generation started' });
    await source.reopen('j9');
    await expect(source.cancel('j9')).rejects.toThrow('Subscription required to generate videos');
    await expect(source.refresh()).rejects.toThrow('did not answer');
    // A worker that answers a submit without the job's status is not taken at its word.
    await expect(source.submit(params)).rejects.toThrow('did not return the new job');
    expect(sent.map((r) => r.type)).toEqual(['submit', 'reopen', 'cancel', 'refresh', 'submit']);
    expect(sent[1]).toEqual({ type: 'reopen', jobId: 'j9' });
  });
});
