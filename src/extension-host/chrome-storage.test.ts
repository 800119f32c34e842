import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChromeSyncedStorage } from './chrome-storage.js';

type Listener = (changes: Record<string, chrome.storage.StorageChange>, area: string) => void;

/** A chrome.storage.local stand-in holding values in a plain object. */
function fakeChrome(initial: Record<string, unknown>) {
  const data: Record<string, unknown> = { ...initial };
  const listeners = new Set<Listener>();
  const area = {
    get: vi.fn(async () => ({ ...data })),
    set: vi.fn(async (items: Record<string, unknown>) => void Object.assign(data, items)),
    remove: vi.fn(async (key: string) => void delete data[key]),
  };
  vi.stubGlobal('chrome', {
    storage: {
      local: area,
      onChanged: { addListener: (l: Listener) => listeners.add(l), removeListener: (l: Listener) => listeners.delete(l) },
    },
  });
  return {
    area: area as unknown as chrome.storage.StorageArea,
    data,
    emit: (changes: Record<string, chrome.storage.StorageChange>, name = 'local') => listeners.forEach((l) => l(changes, name)),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('ChromeSyncedStorage', () => {
  it('hydrates string entries and writes through', async () => {
    const fake = fakeChrome({ token: 'abc', ignored: 42 });
    const storage = await ChromeSyncedStorage.hydrate(fake.area);
    expect(storage.getItem('token')).toBe('abc');
    expect(storage.getItem('ignored')).toBeNull();
    storage.setItem('reelsmith-auth', '{"state":{}}');
    storage.removeItem('token');
    expect(fake.data).toEqual({ ignored: 42, 'reelsmith-auth': '{"state":{}}' });
  });

  it('follows writes from other extension views', async () => {
    const fake = fakeChrome({});
    const storage = await ChromeSyncedStorage.hydrate(fake.area);
    const changed: string[][] = [];
    const stop = storage.followChanges('local', (keys) => changed.push(keys));
    fake.emit({ token: { newValue: 'from-popup' } });
    fake.emit({ token: { newValue: 'elsewhere' } }, 'sync');
    expect(storage.getItem('token')).toBe('from-popup');
    fake.emit({ token: { oldValue: 'from-popup' } });
    expect(storage.getItem('token')).toBeNull();
    expect(changed).toEqual([['token'], ['token']]);
    stop();
    fake.emit({ token: { newValue: 'late' } });
    expect(storage.getItem('token')).toBeNull();
  });
});
