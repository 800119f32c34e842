import type { StorageAreaLike } from '../extension-host/storage-area.js';
import { EMPTY_EXTENSION_JOB_STATE, EXTENSION_STORAGE_KEYS, extensionJobStateSchema, type ExtensionJobState } from '@reelsmith/contracts';

export type { StorageAreaLike };

export interface JobStateChange {
  before: ExtensionJobState;
  after: ExtensionJobState;
}

/**
 * The worker's job list in chrome.storage.local: it survives the worker being stopped, and the
 * popup and side panel follow it through chrome.storage.onChanged. Updates run one at a time so
 * socket events and REST reconciliation arriving together never overwrite each other.
 */
export class JobStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly area: StorageAreaLike,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async read(): Promise<ExtensionJobState> {
    const stored = await this.area.get(EXTENSION_STORAGE_KEYS.jobs);
    const parsed = extensionJobStateSchema.safeParse(stored[EXTENSION_STORAGE_KEYS.jobs]);
    return parsed.success ? parsed.data : EMPTY_EXTENSION_JOB_STATE;
  }

  /** Applies `change` to the stored state; unchanged results are not written. */
  update(change: (state: ExtensionJobState) => ExtensionJobState): Promise<JobStateChange> {
    const run = this.queue.then(async () => {
      const before = await this.read();
      const after = change(before);
      if (after !== before) {
        const stamped = { ...after, updatedAt: this.now().toISOString() };
        await this.area.set({ [EXTENSION_STORAGE_KEYS.jobs]: stamped });
        return { before, after: stamped };
      }
      return { before, after };
    });
    // A failed update must not block the ones after it.
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Signing out forgets the previous account's jobs. */
  async clear(): Promise<void> {
    await this.update(() => ({ ...EMPTY_EXTENSION_JOB_STATE }));
  }
}
