import { EXTENSION_STORAGE_KEYS, generateVideoBodySchema, newJob } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { progressed, putJob } from './job-state.js';
import { JobStore } from './stored-job-list.js';
import { fakeStorage } from './testing/fake-chrome.js';

const params = generateVideoBodySchema.parse({ topic: 'Tides', style: 'curious', language: 'en', duration: 30, voice: 'v1' });

describe('JobStore', () => {
  it('reads an empty state, persists updates and stamps them', async () => {
    const storage = fakeStorage();
    const store = new JobStore(storage.local, () => new Date('2026-02-02T00:00:00Z'));
    expect((await store.read()).jobs).toEqual([]);
    const { before, after } = await store.update((s) => putJob(s, newJob('j1', params, new Date())));
    expect(before.jobs).toEqual([]);
    expect(after.updatedAt).toBe('2026-02-02T00:00:00.000Z');
    expect((storage.local.data[EXTENSION_STORAGE_KEYS.jobs] as { jobs: unknown[] }).jobs).toHaveLength(1);
  });

  it('does not write an unchanged state', async () => {
    const storage = fakeStorage();
    const store = new JobStore(storage.local);
    const writes: unknown[] = [];
    storage.onChanged.addListener((changes) => writes.push(changes));
    await store.update((s) => s);
    expect(writes).toEqual([]);
  });

  it('runs overlapping updates one after another', async () => {
    const storage = fakeStorage();
    const store = new JobStore(storage.local);
    await store.update((s) => putJob(s, newJob('j1', params, new Date())));
    await Promise.all(
      [10, 20, 30, 40].map((progress) =>
        store.update((s) => progressed(s, { jobId: 'j1', progress, step: 'story', stepProgress: 0, status: 'processing' })),
      ),
    );
    expect((await store.read()).jobs[0]?.progress).toBe(40);
  });

  it('keeps going after a failed update, ignores corrupt data and clears', async () => {
    const storage = fakeStorage();
    await storage.local.set({ [EXTENSION_STORAGE_KEYS.jobs]: { jobs: 'nonsense' } });
    const store = new JobStore(storage.local);
    expect((await store.read()).jobs).toEqual([]);
    await expect(
      store.update(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await store.update((s) => putJob(s, newJob('j2', params, new Date())));
    expect((await store.read()).jobs).toHaveLength(1);
    await store.clear();
    expect((await store.read()).jobs).toEqual([]);
  });
});
