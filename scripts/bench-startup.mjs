// `npm run bench:startup`: the API server's start-up (spawn to the first GET /ready 200) and its idle
// resident memory, run from TypeScript through tsx (as before) and from the compiled bundle (as
// `npm start` runs it now), alternating, on a settled DATA_DIR (migrations done). Prints each
// run and the medians with the machine's load. `-- --runs N` (default 5).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBundles, root, SERVER_BUNDLE_DIR, SERVER_ENTRIES } from './node-bundle.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const { main } = await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR);
const modes = {
  tsx: [process.execPath, '--import', 'tsx', join(root, 'packages/server/src/main.ts')],
  compiled: [process.execPath, fileURLToPath(main)],
};
const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
let port = 18_400;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function once(mode) {
  port += 1;
  const started = performance.now();
  const child = spawn(modes[mode][0], modes[mode].slice(1), {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      GALLERY_EXAMPLES: 'off',
      RESEARCH_PROVIDER: 'off',
      VOICE_MODEL_URL: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let readyMs;
  while (readyMs === undefined) {
    if (performance.now() - started > 60_000) throw new Error(`${mode}: not ready in 60 s`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/ready`);
      if (response.status === 200) readyMs = performance.now() - started;
    } catch {
      // not listening yet
    }
    if (readyMs === undefined) await sleep(20);
  }
  await sleep(3_000);
  const rss = rssMb(child.pid);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { readyMs, rss };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} · ${runs} runs each, alternating`,
);
await once('compiled'); // migrations and first-run files, not measured
const results = { tsx: [], compiled: [] };
for (let index = 0; index < runs; index += 1) {
  for (const mode of ['tsx', 'compiled']) {
    const result = await once(mode);
    results[mode].push(result);
    console.log(`${mode.padEnd(9)} ready in ${result.readyMs.toFixed(0).padStart(5)} ms · idle RSS ${result.rss.toFixed(1)} MB`);
  }
}
for (const mode of ['tsx', 'compiled'])
  console.log(
    `${mode.padEnd(9)} median: ready in ${median(results[mode].map((r) => r.readyMs)).toFixed(0)} ms, idle RSS ${median(results[mode].map((r) => r.rss)).toFixed(1)} MB`,
  );
console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
rmSync(dataDir, { recursive: true, force: true });
