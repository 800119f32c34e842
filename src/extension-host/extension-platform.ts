import { STORAGE_KEYS } from '@reelsmith/contracts';
import type { CoreServices, Navigation, Platform } from '@reelsmith/studio/popup';
import { apiBaseUrlFrom } from './api-origin.js';
import { ChromeSyncedStorage } from './chrome-storage.js';
import { chromeJobSourceDeps, createExtensionJobSource, type ExtensionJobSource } from './extension-job-source.js';

export interface ExtensionHost<S extends CoreServices> {
  platform: Platform;
  services: S;
  /** The background worker's jobs; these pages open no socket of their own. */
  jobs: ExtensionJobSource;
}

/**
 * Builds the studio's platform for an extension view, after loading chrome.storage.local. The view
 * chooses its services: the popup the core alone, the side panel the studio's with its query cache.
 */
export async function createExtensionHost<S extends CoreServices>(
  createServices: (platform: Platform) => S,
  extras: Pick<Platform, 'formRequests'> & Pick<Navigation, 'guardUnload'> = {},
): Promise<ExtensionHost<S>> {
  const { guardUnload, ...platformExtras } = extras;
  const storage = await ChromeSyncedStorage.hydrate(chrome.storage.local);
  const apiBaseUrl = apiBaseUrlFrom(storage);
  const platform: Platform = {
    kind: 'extension',
    storage,
    navigation: {
      openTab: (url) => void chrome.tabs.create({ url: new URL(url, `${apiBaseUrl}/`).toString() }),
      reload: () => window.location.reload(),
      // Handed in by the views that edit (the side panel); the popup edits nothing and stays smaller.
      ...(guardUnload ? { guardUnload } : {}),
    },
    // The extension banner promotes the extension; inside the extension it never shows.
    browser: { isDesktopChrome: () => false },
    apiBaseUrl,
    // Manifest V3 pages cannot load Google's remote sign-in script.
    googleSignIn: false,
    ...platformExtras,
    // Loaded when asked: the popup's first load has a JavaScript budget.
    pageArticle: {
      read: async () =>
        (await import('./page-article.js')).readActivePage({ windows: chrome.windows, tabs: chrome.tabs, scripting: chrome.scripting }),
    },
  };
  const services = createServices(platform);
  // A sign-in or sign-out in another extension view (or by the worker) updates this one.
  storage.followChanges('local', (keys) => {
    if (keys.includes(STORAGE_KEYS.authStore))
      void Promise.resolve(services.authStore.persist.rehydrate()).then(() => services.authStore.getState().initialize());
  });
  const jobs = await createExtensionJobSource(chromeJobSourceDeps());
  return { platform, services, jobs };
}
