import { crx } from '@crxjs/vite-plugin';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import manifest, { extensionApiBaseUrl, extensionWebAppOrigins } from './manifest.config.js';
import { fillRoot, renderFirstPaint } from './scripts/first-paint.js';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The popup and the side panel open on the loading splash, written into their HTML at build time,
 * instead of a blank frame while the script loads and the session is read.
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

/** The page reader's bundle name; src/extension-host/page-article.ts injects it by this name. */
const PAGE_READER_FILE = 'page-reader.js';

/**
 * "Make a video of this page" injects a script that reads the page's article with Readability. It is
 * built on its own as one classic script (executeScript cannot load modules): Readability never
 * enters an extension page's bundle, and the file is not web-accessible, so pages cannot probe it.
 */
function pageReaderScript(): Plugin {
  return {
    name: 'reelsmith-page-reader',
    apply: 'build',
    async generateBundle() {
      const result = await build({
        configFile: false,
        root: repoRoot,
        logLevel: 'warn',
        build: {
          write: false,
          emptyOutDir: false,
          sourcemap: false,
          lib: {
            entry: `${repoRoot}src/page-reader/page-reader.ts`,
            formats: ['iife'],
            name: 'reelsmithPageReader',
            fileName: () => PAGE_READER_FILE,
          },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
      const entry = outputs.find((output): output is Rolldown.OutputChunk => output.type === 'chunk' && output.isEntry);
      if (!entry) throw new Error('the page reader was not built');
      this.emitFile({ type: 'asset', fileName: PAGE_READER_FILE, source: entry.code });
    },
  };
}

/** Each extension page's entry module, and the background worker's. */
const ENTRY_MODULES = {
  popup: 'src/popup/main.tsx',
  sidepanel: 'src/sidepanel/main.tsx',
  options: 'src/options/main.tsx',
  background: 'src/background/service-worker.ts',
} as const;
type ExtensionEntry = keyof typeof ENTRY_MODULES;

/**
 * The popup's code in a few files instead of some thirty (the popup's JavaScript stays within 100 KB gzip). Split
 * by the automatic chunking, each module shared with another page became its own file, compressed
 * alone and carrying its own import and export lists. A plugin reads the module graph once it is
 * complete, and three chunk groups take what the popup shares:
 *  - `react`: React and its renderer, for every page;
 *  - `extension-core`: what the popup shares with the background worker (zod, the contracts it
 *    uses, the API client), so the worker never loads React;
 *  - `popup-shared`: what it shares with the side panel alone (the studio's services, sign-in,
 *    voices), so the side panel loads nothing of the popup's own and the options page none of this.
 * What only the popup uses stays in its entry file; the side panel's routes keep the automatic
 * chunking (they are fetched on demand).
 */
function popupChunks() {
  const graphs = new Map<ExtensionEntry, Set<string>>();
  const inGraph = (entry: ExtensionEntry, id: string) => graphs.get(entry)?.has(id) ?? false;
  const plugin: Plugin = {
    name: 'reelsmith-popup-chunks',
    apply: 'build',
    buildEnd() {
      graphs.clear();
      const ids = [...this.getModuleIds()];
      const normalized = (id: string) => id.replaceAll('\\', '/');
      // Every page imports the contracts through their index, which re-exports every schema; taken
      // as it is, the graph would give each page all of them. So an import of the index counts as
      // an import of the modules that export the names imported.
      const contractsIndex = ids.find((id) => normalized(id).endsWith('/packages/contracts/src/index.ts'));
      const exporterOf = new Map<string, string>();
      for (const id of contractsIndex ? (this.getModuleInfo(contractsIndex)?.importedIds ?? []) : []) {
        for (const name of this.getModuleInfo(id)?.exports ?? []) exporterOf.set(name, id);
      }
      const importsOf = (id: string): string[] => {
        const info = this.getModuleInfo(id);
        if (!info) return [];
        const direct = info.importedIds.filter((imported) => imported !== contractsIndex);
        if (direct.length === info.importedIds.length) return direct;
        const names = [...(info.code ?? '').matchAll(/(?:import|export)\s*\{([^}]*)\}\s*from\s*["']@reelsmith\/contracts["']/g)].flatMap(
          (match) =>
            match[1]!.split(',').map((specifier) =>
              specifier
                .trim()
                .split(/\s+as\s+/)[0]!
                .trim(),
            ),
        );
        const fromIndex = names.map((name) => exporterOf.get(name));
        // An import of the index this could not read (a namespace import, a name not found) keeps the whole index.
        if (names.length === 0 || fromIndex.some((exporter) => exporter === undefined)) return info.importedIds;
        return [...direct, ...(fromIndex as string[])];
      };
      for (const [entry, path] of Object.entries(ENTRY_MODULES) as [ExtensionEntry, string][]) {
        const start = ids.find((id) => normalized(id).endsWith(`/${path}`));
        if (!start) throw new Error(`the extension build has no ${path}`);
        // Static imports only: what a page loads before its first frame.
        const seen = new Set<string>();
        const pending = [start];
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          if (seen.has(id)) continue;
          seen.add(id);
          pending.push(...importsOf(id));
        }
        graphs.set(entry, seen);
      }
    },
  };
  const react = /node_modules[\\/](react|react-dom|scheduler)[\\/]/;
  const isCode = (id: string) => !id.endsWith('.css');
  const groups = [
    { name: 'react', priority: 30, test: (id: string) => react.test(id) },
    { name: 'extension-core', priority: 20, test: (id: string) => inGraph('popup', id) && inGraph('background', id) && isCode(id) },
    { name: 'popup-shared', priority: 10, test: (id: string) => inGraph('popup', id) && inGraph('sidepanel', id) && isCode(id) },
  ];
  return { plugin, groups };
}

/**
 * The Chrome extension (Manifest V3): popup, side panel, options page and background service worker.
 * EXTENSION_OUT_DIR builds a copy elsewhere (the end-to-end suite builds one for its own server).
 */
export default defineConfig(({ mode }) => {
  const chunks = popupChunks();
  return {
    root: repoRoot,
    envPrefix: 'VITE_',
    // public/ belongs to the web build; the extension takes only what its manifest names.
    publicDir: false,
    plugins: [react(), crx({ manifest }), splashFirstPaint(), chunks.plugin, pageReaderScript()],
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
      // No JavaScript preloading: an extension's files come from the local disk, where a preload saves
      // nothing, and the helper that writes the links cost the popup about 0.5 KB gzip. Lazy chunks
      // still get their stylesheets through the dynamic-import helper.
      modulePreload: false,
      rolldownOptions: {
        // A group takes only the modules it names, not their imports as well (what the popup shares
        // with the worker must not drag React along); rolldown allows that only when entries need
        // not keep their exports, and no extension page or worker exports anything.
        preserveEntrySignatures: false,
        output: { codeSplitting: { includeDependenciesRecursively: false, groups: chunks.groups } },
      },
    },
  };
});
