// `npm start`: builds the web app and the server's JavaScript when their sources are newer than the last build, then serves the
// API and the web app on one port with the embedded defaults (SQLite, in-process queue, local files,
// offline providers).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBundles, SERVER_BUNDLE_DIR, SERVER_ENTRIES } from './node-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtIndex = join(root, 'dist/web/index.html');
const sources = ['packages/studio/src', 'packages/contracts/src', 'src/web', 'vite.web.config.ts', 'index.html'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

// One stop request for the whole tree (npm, this wrapper, the server): the first SIGTERM or SIGINT is
// passed on once; the copies that follow (a signal to the process group reaches npm, this wrapper
// and the server, and npm forwards its own) are not, so the server sees one stop and drains. A second
// Ctrl-C from a terminal reaches the server straight from the terminal's process group.
let child = null;
let stopping = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = signal;
    child?.kill(signal);
    if (!child) process.exit(0);
  });
}
// npm killed with SIGKILL (or any parent that goes without passing the stop on) leaves this wrapper
// with a new parent: the server drains as on SIGTERM rather than serving on as an orphan.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) process.emit('SIGTERM', 'SIGTERM');
}, 500).unref();

/** Runs a command to its end (stopped with this wrapper), resolving with its exit code. */
function run(command, args) {
  return new Promise((resolve) => {
    child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => {
      child = null;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((s) => newestMtime(join(root, s))));
if (sourcesAt > builtAt) {
  console.log('Building the web app…');
  const status = await run(process.execPath, [
    join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--config',
    'vite.web.config.ts',
    '--logLevel',
    'warn',
  ]);
  if (stopping) process.exit(0);
  if (status !== 0) process.exit(status);
}

// The server runs as compiled JavaScript (built like the web app, when a source changed).
const { main } = await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR);
if (stopping) process.exit(0);
// The server stays in this process group (a signal to the group reaches it) and holds an IPC
// channel to this wrapper: when the wrapper goes, even killed with SIGKILL, the channel closes and
// the server drains (packages/server/src/operations/shutdown-signals.ts).
const server = spawn(process.execPath, [fileURLToPath(main)], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: process.env,
});
child = server;
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
