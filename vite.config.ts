import { crx } from '@crxjs/vite-plugin';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import manifest, { extensionApiBaseUrl, extensionWebAppOrigins } from './manifest.config.js';
import { fillRoot, renderFirstPaint } from './scripts/first-paint.js';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The popup and the side panel open on the loading splash, written into their HTML at build time,
 * instead of a blank frame while the script loads and the session is read (issue 17).
 */
function splashFirstPaint(): Plugin {
  let splash: string | null = null;
  return {
    name: 'reelsmith-splash-first-paint',
    apply: 'build',
    transformIndexHtml(html, context) {
      if (!/\/src\/(popup|sidepanel)\/index\.html$/.test(context.filename)) return html;
      splash ??= renderFirstPaint('splash');
      return fillRoot(html, splash, context.filename);
    },
  };
}

/**
 * The Chrome extension (Manifest V3): popup, side panel, options page and background service worker.
 * EXTENSION_OUT_DIR builds a copy elsewhere (the end-to-end suite builds one for its own server).
 */
export default defineConfig(({ mode }) => ({
  root: repoRoot,
  envPrefix: 'VITE_',
  // public/ belongs to the web build; the extension takes only what its manifest names.
  publicDir: false,
  plugins: [react(), crx({ manifest }), splashFirstPaint()],
  define: {
    // The extension has no same-origin API, so the origin is fixed at build time (the options page may override it).
    'import.meta.env.VITE_API_BASE_URL': JSON.stringify(extensionApiBaseUrl(mode)),
    'import.meta.env.VITE_WEB_APP_ORIGINS': JSON.stringify(extensionWebAppOrigins(mode).join(',')),
  },
  build: {
    outDir: process.env.EXTENSION_OUT_DIR ?? `${repoRoot}dist/extension`,
    emptyOutDir: true,
    // No source maps: the store package ships only what runs.
    sourcemap: false,
  },
}));
