/**
 * A small in-memory stand-in for the chrome.* APIs the background modules use. Each module takes
 * the slice it needs as a parameter, so tests pass these fakes instead of stubbing globals.
 */
type StorageListener = (changes: Record<string, chrome.storage.StorageChange>, areaName: string) => void;

export class FakeEvent<A extends unknown[]> {
  readonly listeners = new Set<(...args: A) => unknown>();
  addListener(listener: (...args: A) => unknown): void {
    this.listeners.add(listener);
  }
  removeListener(listener: (...args: A) => unknown): void {
    this.listeners.delete(listener);
  }
  emit(...args: A): unknown[] {
    return [...this.listeners].map((listener) => listener(...args));
  }
}

export class FakeStorageArea {
  readonly data: Record<string, unknown> = {};
  constructor(
    private readonly name: string,
    private readonly onChanged: FakeEvent<[Record<string, chrome.storage.StorageChange>, string]>,
  ) {}
  async get(keys?: string | string[] | null): Promise<Record<string, unknown>> {
    const copy = structuredClone(this.data);
    if (keys === null || keys === undefined) return copy;
    const wanted = Array.isArray(keys) ? keys : [keys];
    return Object.fromEntries(wanted.filter((key) => key in copy).map((key) => [key, copy[key]]));
  }
  async set(items: Record<string, unknown>): Promise<void> {
    const changes: Record<string, chrome.storage.StorageChange> = {};
    for (const [key, value] of Object.entries(items)) {
      changes[key] = { oldValue: this.data[key], newValue: structuredClone(value) };
      this.data[key] = structuredClone(value);
    }
    this.onChanged.emit(changes, this.name);
  }
  async remove(keys: string | string[]): Promise<void> {
    const changes: Record<string, chrome.storage.StorageChange> = {};
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      if (!(key in this.data)) continue;
      changes[key] = { oldValue: this.data[key] };
      delete this.data[key];
    }
    if (Object.keys(changes).length > 0) this.onChanged.emit(changes, this.name);
  }
}

export function fakeStorage() {
  const onChanged = new FakeEvent<[Record<string, chrome.storage.StorageChange>, string]>();
  return {
    local: new FakeStorageArea('local', onChanged),
    session: new FakeStorageArea('session', onChanged),
    onChanged: onChanged as FakeEvent<[Record<string, chrome.storage.StorageChange>, string]> & { addListener(l: StorageListener): void },
  };
}

export function fakeAction() {
  const state = { text: '', color: '' as string | number[] };
  return {
    state,
    setBadgeText: async ({ text }: { text: string }) => void (state.text = text),
    setBadgeBackgroundColor: async ({ color }: { color: string | number[] }) => void (state.color = color),
    getBadgeText: async () => state.text,
  };
}

export function fakeNotifications() {
  const shown = new Map<string, chrome.notifications.NotificationOptions>();
  const created: string[] = [];
  const onClicked = new FakeEvent<[string]>();
  return {
    shown,
    created,
    onClicked,
    create: async (id: string, options: chrome.notifications.NotificationOptions) => {
      shown.set(id, options);
      created.push(id);
      return id;
    },
    clear: async (id: string) => shown.delete(id),
  };
}

export function fakeAlarms() {
  const alarms = new Map<string, { periodInMinutes?: number }>();
  return {
    alarms,
    create: async (name: string, info: { periodInMinutes?: number; delayInMinutes?: number }) => void alarms.set(name, info),
    clear: async (name: string) => alarms.delete(name),
    get: async (name: string) => (alarms.has(name) ? { name, scheduledTime: 0, ...alarms.get(name) } : undefined),
  };
}

export function fakeTabs() {
  const opened: string[] = [];
  return { opened, create: async ({ url }: { url?: string }) => void opened.push(url ?? '') };
}

export function fakeSidePanel() {
  const opened: Array<{ windowId?: number; tabId?: number }> = [];
  return { opened, open: async (options: { windowId?: number; tabId?: number }) => void opened.push(options) };
}

export function fakeContextMenus() {
  const items: Array<{ id?: string; title?: string; contexts?: string[] }> = [];
  return {
    items,
    removeAll: async () => void items.splice(0),
    create: (item: { id?: string; title?: string; contexts?: string[] }) => void items.push(item),
  };
}

/** A fetch that answers from a route table and records every request. */
export function fakeFetch(
  routes: Record<string, (init: RequestInit, url: URL) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>>,
) {
  const calls: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ method, url: url.toString(), headers, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return new Response(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Not found' }), { status: 404 });
    const { status = 200, body } = await handler(init, url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

/**
 * chrome.scripting for the page reader: injecting the reader file records it; running the reader
 * answers what `pages` holds for the tab (as the injected script would), or throws Chrome's refusal.
 */
export function fakeScripting(pages: Record<number, unknown>, refuse?: string) {
  const injected: Array<{ tabId: number; files?: string[] }> = [];
  return {
    injected,
    executeScript: async (injection: { target: { tabId: number }; files?: string[]; func?: () => unknown }) => {
      if (refuse) throw new Error(refuse);
      const { tabId } = injection.target;
      if (injection.files) {
        injected.push({ tabId, files: injection.files });
        return [{ frameId: 0, documentId: 'doc', result: null }];
      }
      if (!injected.some((call) => call.tabId === tabId)) return [{ frameId: 0, documentId: 'doc', result: null }];
      return [{ frameId: 0, documentId: 'doc', result: pages[tabId] ?? null }];
    },
  };
}
