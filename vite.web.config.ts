import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { WEB_SHELL_BOOT_SCRIPT } from './packages/contracts/src/web-shell.js';
import { fillRoot, renderFirstPaint } from './scripts/first-paint.js';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants as zlib } from 'node:zlib';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.REELSMITH_DEV_API ?? 'http://localhost:8080';

/** Every path the Reelsmith server answers; the dev server forwards them so the page stays same-origin. */
const SERVER_PATHS = [
  '/auth',
  '/api',
  '/payments',
  '/voices',
  '/providers',
  '/health',
  '/output',
  '/audio',
  '/policies',
  '/contact.html',
  '/extension-api',
];

/**
 * The first load's stylesheets written into index.html: the prerendered page paints with the HTML
 * alone instead of waiting on four more requests (about 7 KB brotli, sent once per visit since the
 * page is a single-page app). Pages loaded later bring their own stylesheet files as before.
 */
function inlineStylesheets(html: string, bundle: Rollup.OutputBundle | undefined): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (tag, fileName: string) => {
    const asset = bundle?.[fileName];
    if (!asset || asset.type !== 'asset') return tag;
    const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
    return `<style data-href="/${fileName}">${css.replaceAll('</style', '<\\/style')}</style>`;
  });
}

/**
 * index.html's first paint: the visitor's Video Studio rendered at build time, the
 * loading splash beside it, and the boot script that picks one (packages/contracts/src/web-shell.ts).
 * The app replaces both when it starts. embed.html is left alone: the embedded studio starts signed in.
 */
function prerenderFirstPaint(): Plugin {
  return {
    name: 'reelsmith-prerender-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.filename.endsWith('/index.html')) return html;
        const page = inlineStylesheets(html, context.bundle).replace('</title>', `</title>\n    <script>${WEB_SHELL_BOOT_SCRIPT}</script>`);
        return fillRoot(page, renderFirstPaint('page'), context.filename);
      },
    },
  };
}

/** The libraries every page runs on, in one request instead of five. */
const FIRST_LOAD_LIBRARIES =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|zustand|zod|cookie|set-cookie-parser)[\\/]/;
/**
 * Modules every studio entry shares: the API client and auth store, platform, voice queries, toasts,
 * and the generate form's own pieces (its model, the voice list, the toggle, the plan hooks), which
 * the Batch page shares too: left to the automatic chunking they came as three more small requests.
 * The voice sample player is not among them: the voice list loads it when a voice first shows.
 */
const STUDIO_CORE =
  /packages\/studio\/src\/(platform|toaster|services|analytics|query-client|api\/api-client|auth\/auth-store|preferences\/video-defaults|shared\/voices\/(voice-queries|use-debounced-value|voice-lists|voice-picker)|studio-services|shell\/loading-splash|login\/google-client-id|ui\/(toggle|icons?|preloadable|opened-once|field-error)|routes\/route-table|studio\/(generate-form|recent-videos-panel)|shared\/generation\/(generation-form-model|source-draft|(use-)?generation-access|use-generation-form)|shared\/billing\/(billing-hooks|can-generate-request)|billing\/pricing-dialog-lazy)\./;

/** The signed-in studio's plan area (studio-view.tsx loads it); visitors never fetch it. */
const SIGNED_IN_STUDIO = /packages\/studio\/src\/(billing\/plan-area|shared\/billing\/billing-format)\./;

export default defineConfig({
  root: 'src/web',
  // Only VITE_-prefixed variables reach the bundle (Vite's default), read from the repo root.
  envDir: repoRoot,
  envPrefix: 'VITE_',
  publicDir: `${repoRoot}public`,
  resolve: {
    // react-router's package exports only its development build (dev warnings switched on, about
    // 2 KB more on a phone's first load); its production build is the same code with them off.
    alias: [{ find: /^react-router$/, replacement: `${repoRoot}node_modules/react-router/dist/production/index.mjs` }],
  },
  plugins: [
    react(),
    prerenderFirstPaint(),
    // Brotli and gzip siblings of every text file, made once here: the server sends them as they are.
    compression({
      include: /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: {
    outDir: `${repoRoot}dist/web`,
    emptyOutDir: true,
    // Maps for our own debugging, without the sourceMappingURL comment; the server never serves .map files.
    sourcemap: 'hidden',
    modulePreload: {
      // Every browser the studio supports preloads modules itself (Chrome 66, Safari 17, Firefox 115).
      polyfill: false,
      // A lazy part's preload list leaves out what the first load has already brought (the runtime
      // chunk and the bundler's helpers): shorter lists in the entry chunk. index.html keeps its own.
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html' ? deps : deps.filter((dep) => !/(^|\/)(rolldown-)?runtime-[\w-]+\.js$/.test(dep)),
    },
    rollupOptions: {
      input: {
        index: `${repoRoot}src/web/index.html`,
        // The studio a partner page frames (/embed): its own entry, without admin, pricing or settings.
        embed: `${repoRoot}src/web/embed.html`,
        // GET /embed.js: the partner page's loader, with no runtime imports.
        'embed-loader': `${repoRoot}packages/sdk/src/embed-loader.ts`,
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // The libraries every page runs on and the studio's shared core, in one file: split (by the
              // automatic chunking, or as two groups) they came in several requests, each with its own
              // headers and compression window, and the bindings between them cost bytes too.
              name: 'runtime',
              test: (id) => FIRST_LOAD_LIBRARIES.test(id) || STUDIO_CORE.test(id.replaceAll('\\', '/')),
              priority: 20,
            },
            {
              // What the signed-in studio adds to the first screen (the plan area and its formatting),
              // loaded while a stored session is checked: one request instead of two.
              name: 'signed-in-studio',
              test: (id) => SIGNED_IN_STUDIO.test(id.replaceAll('\\', '/')),
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(SERVER_PATHS.map((path) => [path, { target: apiTarget, changeOrigin: true }])),
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
