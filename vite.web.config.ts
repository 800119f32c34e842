import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
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

export default defineConfig({
  root: 'src/web',
  // Only VITE_-prefixed variables reach the bundle (Vite's default), read from the repo root.
  envDir: repoRoot,
  envPrefix: 'VITE_',
  publicDir: `${repoRoot}public`,
  plugins: [
    react(),
    // Brotli and gzip siblings of every text file, made once here: the server sends them as they are.
    compression({
      include: /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/,
      threshold: 1024,
      algorithms: [defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
    }),
  ],
  build: {
    outDir: `${repoRoot}dist/web`,
    emptyOutDir: true,
    // Maps for our own debugging, without the sourceMappingURL comment; the server never serves .map files.
    sourcemap: 'hidden',
    rollupOptions: {
      input: {
        index: `${repoRoot}src/web/index.html`,
        // The studio a partner page frames (/embed): its own entry, without admin, pricing or settings.
        embed: `${repoRoot}src/web/embed.html`,
        // GET /embed.js: the partner page's loader, with no runtime imports.
        'embed-loader': `${repoRoot}packages/sdk/src/embed-loader.ts`,
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
