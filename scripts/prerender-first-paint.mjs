// Prints the markup of a page's first paint (src/web/prerender.tsx) on stdout: index.html's by
// default, the loading splash alone with --splash (the extension's pages). scripts/first-paint.ts
// runs it for the builds. The studio's CSS imports load as empty modules here; the page's
// stylesheets come from the client build.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = await createServer({
  configFile: false,
  root,
  logLevel: 'error',
  appType: 'custom',
  plugins: [react()],
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const module = await server.ssrLoadModule('/src/web/prerender.tsx');
  process.stdout.write(process.argv.includes('--splash') ? module.renderSplash() : module.renderFirstPaint());
} finally {
  await server.close();
}
