import { WEB_SHELL, type WebShellBootRequests } from '@reelsmith/contracts';
import {
  createStudioServices,
  DEFAULT_EXTENSION_STORE_URL,
  StudioApp,
  guardWindowUnload,
  isDesktopChromeBrowser,
  type Platform,
} from '@reelsmith/studio';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { DEV_EXTENSION_ID } from '../extension-host/extension-identity.js';
import { fetchWithBootRequests } from './boot-requests.js';
import { createWebExtensionBridge, type WebPageRuntime } from './extension-bridge.js';

/** The web host: the page's own localStorage, tabs and location. */
const platform: Platform = {
  kind: 'web',
  storage: window.localStorage,
  sessionStorage: window.sessionStorage,
  extension: createWebExtensionBridge({
    extensionId: import.meta.env.VITE_EXTENSION_ID || DEV_EXTENSION_ID,
    storeUrl: import.meta.env.VITE_EXTENSION_STORE_URL || DEFAULT_EXTENSION_STORE_URL,
    runtime: () => (globalThis as { chrome?: { runtime?: WebPageRuntime } }).chrome?.runtime,
  }),
  navigation: {
    openTab: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
    reload: () => window.location.reload(),
    guardUnload: () => guardWindowUnload(window),
  },
  browser: { isDesktopChrome: () => isDesktopChromeBrowser(navigator as Navigator & Parameters<typeof isDesktopChromeBrowser>[0]) },
  // Empty: the API is served from the page's own origin (the dev server proxies it).
  apiBaseUrl: (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, ''),
  googleSignIn: true,
  bypassAuth: import.meta.env.VITE_BYPASS_AUTH === 'true',
};

// index.html's boot script has already asked for a stored session's profile (same-origin API only).
const bootRequests =
  platform.apiBaseUrl === ''
    ? (window as unknown as Record<string, WebShellBootRequests | undefined>)[WEB_SHELL.bootRequestsGlobal]
    : undefined;
const services = createStudioServices(platform, { fetch: fetchWithBootRequests(bootRequests, (...args) => window.fetch(...args)) });

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// index.html already shows the prerendered studio or the splash (vite.web.config.ts), so the first
// render can run as a transition: React renders in slices between which the page stays responsive,
// and replaces that markup when the whole tree is ready.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <BrowserRouter>
        <StudioApp platform={platform} services={services} />
      </BrowserRouter>
    </StrictMode>,
  );
});
