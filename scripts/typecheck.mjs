// One tsc program per package and per entry kind, each with only the ambient types it may use:
// chrome only for the extension's entries, node only for the server, pipeline and SDK (and the
// tests), neither for the contracts and the studio. Runs them all and fails if any fails.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const PROJECTS = [
  'packages/contracts/tsconfig.json',
  'packages/sdk/tsconfig.json',
  'packages/mcp/tsconfig.json',
  'packages/pipeline/tsconfig.json',
  'packages/pipeline/bench/tsconfig.json',
  'packages/server/tsconfig.json',
  'packages/studio/tsconfig.json',
  'tsconfig.web.json',
  'tsconfig.extension.json',
  'tsconfig.json',
];

function check(project) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit', '--pretty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // Each project's errors print together, never interleaved with another's.
      if (code === 0) console.log(`typecheck ${project}: ok (${seconds} s)`);
      else console.error(`${output}typecheck ${project}: failed`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
let failed = 0;
const lanes = Array.from({ length: Math.max(1, Math.min(4, availableParallelism())) }, async () => {
  for (let project = queue.shift(); project; project = queue.shift()) if (!(await check(project))) failed += 1;
});
await Promise.all(lanes);
process.exit(failed ? 1 : 0);
