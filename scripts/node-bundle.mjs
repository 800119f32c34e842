// One way to run the workspace's TypeScript as compiled JavaScript: esbuild bundles an entry's own
// code (the @reelsmith/* packages) into ES modules, npm packages stay imports, and the bundle is
// rebuilt whenever a file it was built from (or the lockfile) changed its content, so a fresh clone and an edited
// source both just work. `npm run generate` (the CLI) and the server (`npm start`, `npm run serve`,
// `npm run worker`, `npm run admin`) run through it instead of compiling TypeScript at every start.
//
// Modules find files beside them through import.meta.url (voice data, fonts, worker threads, the
// sandbox's task modules); in a bundle that URL would be the bundle's. Each module's
// `import.meta.url` is therefore replaced by its source file's URL, so those paths resolve exactly
// as they do from the sources, wherever the bundle is written.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The content hash of a file, or null when it is gone. */
function hashOf(path) {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/** Every file a build depends on besides its inputs: the lockfile (npm packages) and this script. */
const ALWAYS_HASHED = ['package-lock.json', 'scripts/node-bundle.mjs'];

/**
 * True when a bundle is missing or a file it was built from (or the lockfile, or this script) no
 * longer has the content it had: decided by content hash, not modification time, so a file copied
 * in with an older time (a checkout, `cp -p`, an archive) still triggers a rebuild.
 */
function stale(outDir, bundles) {
  const inputsFile = join(outDir, 'inputs.json');
  if (!existsSync(inputsFile) || bundles.some((file) => !existsSync(file))) return true;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(inputsFile, 'utf8')).hashes;
  } catch {
    return true;
  }
  if (!recorded || typeof recorded !== 'object') return true;
  return Object.entries(recorded).some(([file, hash]) => hashOf(join(root, file)) !== hash);
}

const SOURCE_URL = /\bimport\.meta\.url\b/g;
const MENTIONS_SOURCE_URL = /\bimport\.meta\.url\b/;

async function build(entries, outDir) {
  const { build: esbuild } = await import('esbuild');
  const staging = `${outDir}.${process.pid}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, join(root, entry)])),
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        // npm packages (native addons, data files found through their own paths) are imported at run
        // time as they are; the workspace's packages (TypeScript sources) are bundled.
        name: 'external-npm-packages',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@reelsmith/') ? undefined : { external: true }));
        },
      },
      {
        name: 'source-import-meta-url',
        setup(plugin) {
          plugin.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, async (args) => {
            if (args.path.includes('/node_modules/')) return undefined;
            const text = await readFile(args.path, 'utf8');
            if (!MENTIONS_SOURCE_URL.test(text)) return undefined;
            const url = JSON.stringify(pathToFileURL(args.path).href);
            const loader = args.path.endsWith('.tsx') ? 'tsx' : /\.m?ts$/.test(args.path) ? 'ts' : 'js';
            return { contents: text.replace(SOURCE_URL, url), loader };
          });
        },
      },
    ],
  });
  const inputs = Object.keys(result.metafile.inputs).map((input) => relative(root, join(root, input)));
  const hashes = Object.fromEntries([...inputs, ...ALWAYS_HASHED].map((file) => [file, hashOf(join(root, file))]));
  writeFileSync(join(staging, 'inputs.json'), JSON.stringify({ hashes }));
  // The new build replaces the old one whole: a build cut short leaves the old (stale) one, rebuilt next time.
  rmSync(outDir, { recursive: true, force: true });
  renameSync(staging, outDir);
}

/**
 * The bundle of each entry (`{ name: 'packages/x/src/entry.ts' }`) in `outDir` (relative to the
 * repository), built first when stale; returns the file URL of each `name.mjs`.
 */
export async function ensureBundles(entries, outDir) {
  const dir = join(root, outDir);
  const bundles = Object.keys(entries).map((name) => join(dir, `${name}.mjs`));
  if (stale(dir, bundles)) await build(entries, dir);
  return Object.fromEntries(Object.keys(entries).map((name) => [name, pathToFileURL(join(dir, `${name}.mjs`)).href]));
}

/** The server's compiled entries, one bundle folder shared by all three (common code is split out once). */
export const SERVER_ENTRIES = {
  main: 'packages/server/src/main.ts',
  worker: 'packages/server/src/worker-main.ts',
  admin: 'packages/server/src/operator/admin-main.ts',
};
export const SERVER_BUNDLE_DIR = 'packages/server/dist';
