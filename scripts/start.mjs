// `npm start`: builds the web app and the server's JavaScript when their sources are newer than the last build, then serves the
// API and the web app on one port with the embedded defaults (SQLite, in-process queue, local files,
// offline providers).
import { spawn, spawnSync } from 'node:child_process';
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

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((s) => newestMtime(join(root, s))));
if (sourcesAt > builtAt) {
  console.log('Building the web app…');
  const build = spawnSync('npx', ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server runs as compiled JavaScript (built like the web app, when a source changed).
const { main } = await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR);
const server = spawn(process.execPath, [fileURLToPath(main)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
