import { defineManifest } from '@crxjs/vite-plugin';
import { loadEnv } from 'vite';
import packageJson from './package.json' with { type: 'json' };
import { DEV_EXTENSION_PUBLIC_KEY } from './src/extension-host/extension-identity.js';
import { parseWebAppOrigins } from './src/extension-host/web-app-origins-parse.js';

export const DEFAULT_API_BASE_URL = 'http://localhost:8080';

/** The API origin the extension talks to; host_permissions name this origin only. */
export function extensionApiBaseUrl(mode: string): string {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  return (process.env.VITE_API_BASE_URL || env.VITE_API_BASE_URL || DEFAULT_API_BASE_URL).replace(/\/+$/, '');
}

/** The web app origins that may hand the extension a sign-in code (externally_connectable). */
export function extensionWebAppOrigins(mode: string): string[] {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  return parseWebAppOrigins(process.env.VITE_WEB_APP_ORIGINS || env.VITE_WEB_APP_ORIGINS, extensionApiBaseUrl(mode));
}

const icons = {
  16: 'store-assets/icons/icon-16.png',
  32: 'store-assets/icons/icon-32.png',
  48: 'store-assets/icons/icon-48.png',
  128: 'store-assets/icons/icon-128.png',
};

export default defineManifest(({ mode }) => ({
  manifest_version: 3,
  name: 'Reelsmith',
  description: 'AI-powered video generation for social media, right from your browser.',
  version: packageJson.version,
  // Unpacked builds keep one id everywhere; scripts/package-extension.ts removes it for the store.
  key: DEV_EXTENSION_PUBLIC_KEY,
  icons,
  action: {
    default_title: 'Reelsmith',
    default_popup: 'src/popup/index.html',
    default_icon: icons,
  },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  options_ui: { page: 'src/options/index.html', open_in_tab: true },
  background: { service_worker: 'src/background/service-worker.ts', type: 'module' },
  // scripting + activeTab: "Make a video of this page" reads the article inside the page the creator
  // clicked the toolbar button or the page's menu on, and no other page.
  permissions: ['storage', 'sidePanel', 'notifications', 'alarms', 'contextMenus', 'scripting', 'activeTab'],
  host_permissions: [`${new URL(extensionApiBaseUrl(mode)).origin}/*`],
  // Another API address chosen on the options page is asked for at that moment.
  optional_host_permissions: ['https://*/*', 'http://*/*'],
  externally_connectable: { matches: extensionWebAppOrigins(mode).map((origin) => `${origin}/*`) },
}));
