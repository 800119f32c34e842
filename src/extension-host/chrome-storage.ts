import { MemoryStorage } from '@reelsmith/studio/popup';

/**
 * chrome.storage is asynchronous but the studio's storage is synchronous (like localStorage):
 * the host loads every entry into memory before the first render and writes each change through.
 */
export class ChromeSyncedStorage extends MemoryStorage {
  private constructor(
    entries: Iterable<[string, string]>,
    private readonly area: chrome.storage.StorageArea,
  ) {
    super(entries);
  }

  static async hydrate(area: chrome.storage.StorageArea = chrome.storage.local): Promise<ChromeSyncedStorage> {
    const all = await area.get(null);
    const entries = Object.entries(all).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return new ChromeSyncedStorage(entries, area);
  }

  override setItem(key: string, value: string): void {
    super.setItem(key, value);
    void this.area.set({ [key]: value });
  }

  override removeItem(key: string): void {
    super.removeItem(key);
    void this.area.remove(key);
  }

  /**
   * Keeps this copy in step with writes from the other extension views (popup ↔ side panel).
   * Returns the unsubscribe function.
   */
  followChanges(areaName: string, onChange: (keys: string[]) => void): () => void {
    const listener = (changes: Record<string, chrome.storage.StorageChange>, changedArea: string) => {
      if (changedArea !== areaName) return;
      const keys: string[] = [];
      for (const [key, change] of Object.entries(changes)) {
        const next = typeof change.newValue === 'string' ? change.newValue : null;
        if (next === this.getItem(key)) continue;
        if (next === null) super.removeItem(key);
        else super.setItem(key, next);
        keys.push(key);
      }
      if (keys.length > 0) onChange(keys);
    };
    chrome.storage.onChanged.addListener(listener);
    return () => chrome.storage.onChanged.removeListener(listener);
  }
}
