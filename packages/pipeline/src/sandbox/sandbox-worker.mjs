// The worker thread's entry of the sandbox pool (worker-pool.ts). It is plain JavaScript so it starts
// the same way under `npm start`, `npm run worker`, vitest and the e2e server: tsx's tsImport loads
// the TypeScript task module itself, whatever loader (or none) the parent process was started with.
import { tsImport } from 'tsx/esm/api';

/** Each task module is loaded once per worker; a worker is reused for many tasks until it is ended. */
const modules = new Map();

/**
 * Runs `name` of the task module at `module` (a file URL the main thread chose, never user input)
 * with `args`. `started` is told once the module is loaded: the task's wall time counts from there,
 * so a worker's first task is not charged for compiling and loading its module.
 */
export default async function runTask({ module, name, args, started }) {
  let loaded = modules.get(module);
  if (!loaded) {
    loaded = module.endsWith('.ts') ? tsImport(module, import.meta.url) : import(module);
    modules.set(module, loaded);
  }
  const task = (await loaded)[name];
  if (typeof task !== 'function') throw new Error(`The sandbox task ${name} is not exported by ${module}`);
  started.postMessage('started');
  started.close();
  return task(...args);
}
