// `npm run generate`: runs the CLI from one bundled JavaScript file instead of compiling its
// TypeScript at every start (tsx transformed a few hundred modules each run, over a second of CPU).
// The bundle is rebuilt with esbuild whenever a file it was built from changed, so a fresh clone and
// an edited source both just work. The workspace's own code is bundled; npm packages stay imports.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'packages/pipeline/src/cli/generate.ts');
// Beside the pipeline's sources, two folders deep like them, so the paths its modules take from
// import.meta.url (../../data/…, the espeak worker beside its engine) resolve the same.
const outDir = join(root, 'packages/pipeline/dist/cli');
const bundle = join(outDir, 'generate.mjs');
const inputsFile = join(outDir, 'inputs.json');
/** Files the bundle needs beside it, which modules load by URL at run time. */
const besideBundle = ['packages/pipeline/src/voice/espeak-worker.mjs'];

/** True when the bundle is missing or older than a file it was built from (or one of those is gone). */
function stale() {
  if (!existsSync(bundle) || !existsSync(inputsFile)) return true;
  const builtAt = statSync(bundle).mtimeMs;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    return true;
  }
  return [...inputs, ...besideBundle, 'package-lock.json'].some((file) => {
    const path = join(root, file);
    return !existsSync(path) || statSync(path).mtimeMs > builtAt;
  });
}

async function build() {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  const partial = `${bundle}.${process.pid}.partial.mjs`;
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: partial,
    bundle: true,
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
    ],
  });
  for (const file of besideBundle) copyFileSync(join(root, file), join(outDir, file.split('/').pop()));
  const inputs = Object.keys(result.metafile.inputs).map((input) => relative(root, join(root, input)));
  writeFileSync(`${inputsFile}.${process.pid}.partial`, JSON.stringify(inputs));
  renameSync(`${inputsFile}.${process.pid}.partial`, inputsFile);
  // The bundle goes in last: a build cut short leaves the old (stale) one, which is rebuilt next time.
  renameSync(partial, bundle);
}

if (stale()) await build();
// The CLI measures its start-up from this process's start; the bundle is imported in it.
await import(pathToFileURL(bundle).href);
