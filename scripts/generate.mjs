// `npm run generate`: runs the CLI from one bundled JavaScript file instead of compiling its
// TypeScript at every start (tsx transformed a few hundred modules each run, over a second of CPU).
// scripts/node-bundle.mjs rebuilds the bundle whenever a file it was built from changed.
import { ensureBundles } from './node-bundle.mjs';

const { generate } = await ensureBundles({ generate: 'packages/pipeline/src/cli/generate.ts' }, 'packages/pipeline/dist/cli');
// The CLI measures its start-up from this process's start; the bundle is imported in it.
await import(generate);
