import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/*
 * One gallery example, made in a process of its own (gallery-child-process.ts starts it): the
 * offline pictures are drawn on a JavaScript thread and the story and voice steps run here too, so
 * none of it runs on the API's event loop. Its priority, and that of every ffmpeg it starts, is the
 * lowest. Arguments: the gallery folder, the recipe's slug and the server's pid; the example comes
 * back over IPC.
 */

const [dir, slug, parentArgument] = process.argv.slice(2);
/** The server that started it (its pid is passed along: process.ppid is already another when the server died first). */
const parentPid = Number(parentArgument) || process.ppid;
const controller = new AbortController();
process.once('SIGTERM', () => controller.abort());

/** How often the child checks that the server that started it is still there. */
const PARENT_CHECK_MS = 500;
/** Once the parent is gone, the example's steps have this long to stop and clean up before the child ends anyway. */
const ORPHAN_EXIT_MS = 2_000;

/**
 * The watch on the parent runs on a thread of its own: drawing a picture or writing the story can
 * hold this process's event loop for seconds, and a check (or the IPC channel's 'disconnect') queued
 * behind it would come too late. It reads the parent's pid from /proc (process.ppid is read once, at
 * start), or probes the first parent where there is no /proc; when the parent is gone it tells the
 * main thread, and if the process has not ended ORPHAN_EXIT_MS later it kills it with its group (its
 * ffmpeg). Plain JavaScript: the thread has no TypeScript loader.
 */
const PARENT_WATCH = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { parent, pid, checkMs, graceMs } = workerData;
function parentGone() {
  try {
    // "pid (comm) state ppid ...": the name may hold spaces and parentheses, so fields are counted from its end.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent;
  } catch {
    try {
      process.kill(parent, 0);
      return false;
    } catch {
      return true;
    }
  }
}
const timer = setInterval(() => {
  if (!parentGone()) return;
  clearInterval(timer);
  parentPort.postMessage('orphaned');
  setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      process.kill(pid, 'SIGKILL');
    }
  }, graceMs);
}, checkMs);
`;

/**
 * A server killed with kill -9 runs no exit handler: its example would render on for nobody. The IPC
 * channel closing says so at once when the event loop is free, the watch thread otherwise. The work
 * is aborted, and the child exits whether or not the steps stopped in time.
 */
function orphaned(): void {
  if (controller.signal.aborted) return;
  // Its group may have been paused (SIGSTOP) by the server when it died: its ffmpeg must run to stop.
  try {
    process.kill(-process.pid, 'SIGCONT');
  } catch {
    // Not a group leader (started by hand): nothing was paused with it.
  }
  controller.abort(new Error('The server that started this gallery example is gone'));
  setTimeout(() => process.exit(1), ORPHAN_EXIT_MS).unref();
}
process.once('disconnect', orphaned);
const parentWatch = new Worker(PARENT_WATCH, {
  eval: true,
  workerData: { parent: parentPid, pid: process.pid, checkMs: PARENT_CHECK_MS, graceMs: ORPHAN_EXIT_MS },
});
parentWatch.on('message', orphaned);
// The watch never keeps the process alive once the example is done.
parentWatch.unref();
// Started with an IPC channel that is closed already: the server died while this process was starting.
if (process.send && !process.connected) orphaned();

// The pipeline is loaded after the watch is up (loading it takes seconds on a busy machine).
const { BACKGROUND_NICENESS, GALLERY_RECIPES, makeExample } = await import('./gallery-maker.js');
try {
  setPriority(0, BACKGROUND_NICENESS);
} catch {
  // The parent lowers it as well; a system that refuses leaves it at normal priority.
}
const recipe = GALLERY_RECIPES.find((candidate) => candidate.slug === slug);

const reply = (message: unknown) =>
  new Promise<void>((resolve) => {
    if (!process.send) return resolve();
    process.send(message, () => resolve());
  });

try {
  if (!dir || !recipe) throw new Error(`No gallery recipe "${slug ?? ''}"`);
  const example = await makeExample(dir, recipe, { signal: controller.signal });
  await reply({ example });
} catch (error) {
  await reply({ error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
}
process.off('disconnect', orphaned);
void parentWatch.terminate();
if (controller.signal.aborted) process.exitCode = 1;
if (process.connected) process.disconnect();
