import type { AnalyticsEvent } from '@reelsmith/contracts';
import type { ApiClient } from './api/api-client.js';

export interface Analytics {
  track(event: AnalyticsEvent): void;
  pageView(path: string, title?: string): void;
  click(name: string, path?: string): void;
  /** Sends what is queued now (used on page hide and in tests). */
  flush(): Promise<void>;
}

export interface AnalyticsOptions {
  /** How long events gather before one request carries them all. */
  batchDelayMs?: number;
  /** The contract accepts at most 50 events per request. */
  maxBatch?: number;
}

/**
 * Batched, best-effort analytics: failures are swallowed because analytics must never
 * disturb what the user is doing.
 */
export function createAnalytics(api: ApiClient, { batchDelayMs = 1000, maxBatch = 50 }: AnalyticsOptions = {}): Analytics {
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = async () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    while (queue.length > 0) {
      const events = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      try {
        await api.call('analytics', { body: { events } });
      } catch {
        // Best effort: a lost analytics batch is not worth retrying or reporting.
      }
    }
  };

  const track = (event: AnalyticsEvent) => {
    queue.push(event);
    if (queue.length >= maxBatch) {
      void flush();
      return;
    }
    timer ??= setTimeout(() => void flush(), batchDelayMs);
  };

  return {
    track,
    pageView: (path, title) => track({ type: 'page_view', path, ...(title ? { title } : {}) }),
    click: (name, path) => track({ type: 'click', name, ...(path ? { path } : {}) }),
    flush,
  };
}
